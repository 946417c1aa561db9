package webapp_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/didlight/didlight/wasm/js"
	"github.com/didlight/didlight/web"
)

// A node built without the module, or with the module but without the
// WASI shim the browser loader imports (`make build` where npm is
// missing), still serves the app: the verifier's failure says why (the
// node's 503 text), and answers are shown marked as not verified.
func TestWithoutModule(t *testing.T) {
	f := env(t)
	for _, tc := range []struct {
		name, why string
		module    []byte
	}{
		{"no module", "this node was built without its module (test)", nil},
		{"no shim", js.ErrNoShim.Error(), f.module},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := appServer(t, web.Options{Module: tc.module, Missing: tc.why})
			tb := newTab(t)
			p := resolveIn(tb, s.URL+"/", "?rest="+url.QueryEscape(f.rest)+"&rpc="+url.QueryEscape(f.rpc), f.bob)
			if p.Verdict != "unverified" || !strings.Contains(p.VerdictText, tc.why) || !strings.Contains(p.VerdictText, "Not verified") {
				t.Errorf("verdict %q:\n%s", p.Verdict, p.VerdictText)
			}
			if !strings.Contains(p.DocNote, "unverified") || len(p.Ops) != 2 || p.Ops[0].Badge != "unchecked" {
				t.Errorf("document note %q, operations %+v; want the node's answer marked unverified", p.DocNote, p.Ops)
			}
			if footer := eval[string](tb, `document.getElementById('verifier-info').innerText`); !strings.Contains(footer, tc.why) {
				t.Errorf("the footer does not say why the verifier is missing: %q", footer)
			}
		})
	}
}

// Every view is usable from a keyboard and a screen reader (one h1, a
// main landmark, a label for every field, a name for every button, the
// current tab marked) and fits a phone's width without scrolling sideways.
func TestAccessibleAndResponsive(t *testing.T) {
	f := env(t)
	tb := newTab(t)
	for _, width := range []int64{1280, 390} {
		tb.Do(chromedp.EmulateViewport(width, 900))
		for _, v := range []struct{ route, ready, tab string }{
			{"#/resolve", `document.querySelector('table.recent-dids')`, "resolve"},
			{"#/resolve/" + f.acme, `document.querySelector('[data-verdict]')`, "resolve"},
			{"#/resolve/" + f.long, `document.querySelector('[data-verdict]')`, "resolve"},
			{"#/query?kind=credential&q=EmailCredential&limit=5", `document.querySelector('.results .page')`, "query"},
			{"#/chain", `document.querySelector('table.blocks')`, "chain"},
			{"#/chain/block/1", `document.querySelector('table.block-txs')`, "chain"},
		} {
			tb.Open(f.app + v.route)
			tb.Wait(v.ready)
			problems := eval[[]string](tb, `(() => {
  const out = [];
  if (document.querySelectorAll('h1').length !== 1) out.push('not exactly one h1');
  if (!document.querySelector('main')) out.push('no main landmark');
  for (const el of document.querySelectorAll('input, select, textarea')) {
    if (el.type !== 'radio' && el.labels.length === 0) out.push('unlabelled field ' + el.id);
    if (el.type === 'radio' && !el.closest('label')) out.push('unlabelled choice ' + el.value);
  }
  for (const b of document.querySelectorAll('button, a')) if (!b.textContent.trim()) out.push('nameless ' + b.outerHTML);
  const current = document.querySelector('nav.tabs [aria-current=page]');
  if (!current || current.dataset.view !== '`+v.tab+`') out.push('current tab ' + current?.dataset.view);
  if (document.documentElement.scrollWidth > window.innerWidth) out.push('scrolls sideways: ' + document.documentElement.scrollWidth + 'px in ' + window.innerWidth);
  return out;
})()`)
			if len(problems) > 0 {
				t.Errorf("%s at %dpx: %v", v.route, width, problems)
			}
		}
	}
}
