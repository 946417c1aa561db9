package webapp_test

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/didlight/didlight/host/client"
	"github.com/didlight/didlight/host/internal/nodetest"
	"github.com/didlight/didlight/web"
)

// landing is what the landing page shows of the chain's DIDs.
type landing struct {
	IDs         []string
	Total       string
	Placeholder string
	Text        string
}

const readLanding = `(() => {
  const r = document.querySelector('#result .recent');
  return {
    ids: [...document.querySelectorAll('table.recent-dids tbody th a')].map((a) => a.textContent),
    total: r.dataset.total,
    placeholder: document.getElementById('did-input').placeholder,
    text: r.innerText,
  };
})()`

// openLanding opens the app's landing page at base (with query) and reads
// its list once the node has answered.
func openLanding(tb *tab, base, query string) landing {
	tb.T.Helper()
	tb.Open(base + query)
	tb.Wait(`document.querySelector('#result .recent') || document.querySelector('#result .alert-error')`)
	if msg := eval[string](tb, `document.querySelector('#result .alert-error')?.innerText ?? ''`); msg != "" {
		tb.T.Fatalf("the landing page: %s", msg)
	}
	return eval[landing](tb, readLanding)
}

// The landing page leads to the chain's data: it lists the newest DIDs
// that the node's query finds (every document matches {}), newest first,
// makes the newest one the form's placeholder, and a click on one resolves
// and verifies it.
func TestLandingListsRecentDIDs(t *testing.T) {
	f := env(t)
	all, err := f.query(client.Query{Condition: `{}`, Limit: 256}) // 256: the most a page holds
	if err != nil {
		t.Fatal(err)
	}
	const shown = 8
	if all.Total <= shown || all.Count != all.Total {
		t.Fatalf("the fixture has %d DIDs (%d in one page): want more than %d, in one page", all.Total, all.Count, shown)
	}
	var want []string
	for _, d := range slices.Backward(all.Document[all.Total-shown:]) {
		want = append(want, d.ID)
	}
	if !slices.Contains(want, f.acme) || slices.Contains(want, f.gone) {
		t.Fatalf("the newest DIDs %v: want %s (customized) among them and not the deactivated %s", want, f.acme, f.gone)
	}

	tb := newTab(t)
	got := openLanding(tb, f.app, "")
	if !slices.Equal(got.IDs, want) || got.Total != strconv.Itoa(all.Total) {
		t.Errorf("listed %v of %s; want %v of %d", got.IDs, got.Total, want, all.Total)
	}
	if got.Placeholder != want[0] {
		t.Errorf("placeholder %q, want the newest DID %s", got.Placeholder, want[0])
	}
	tb.Do(chromedp.Click(chromedp.CSS(`table.recent-dids a[href="#/resolve/` + f.acme + `"]`)))
	p := tb.readResolved(f.acme)
	if p.Verdict != "verified" || p.Status != "valid" || len(p.Controllers) != 1 {
		t.Errorf("clicked %s: verdict %q, status %q, controllers %q:\n%s", f.acme, p.Verdict, p.Status, p.Controllers, p.VerdictText)
	}
	if route := eval[string](tb, `location.hash`); route != "#/resolve/"+f.acme {
		t.Errorf("route %s after the click", route)
	}
}

// On a chain without DIDs the landing page says so and how to get some,
// and the placeholder names no DID.
func TestLandingEmptyChain(t *testing.T) {
	f := env(t)
	n := nodetest.Start(t)
	s := appServer(t, web.Options{Module: f.module, Shim: f.shim})
	tb := newTab(t)
	got := openLanding(tb, s.URL+"/", "?rest="+url.QueryEscape(n.REST)+"&rpc="+url.QueryEscape(n.RPC))
	if len(got.IDs) != 0 || got.Total != "0" || !strings.Contains(got.Text, "no DIDs yet") || !strings.Contains(got.Text, "--demo") {
		t.Errorf("an empty chain's landing page: %+v", got)
	}
	if got.Placeholder != "did:elastos:… or the bare id" {
		t.Errorf("placeholder %q on a chain without DIDs", got.Placeholder)
	}
}
