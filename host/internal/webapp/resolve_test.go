package webapp_test

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// resolvedPage is what the resolve view shows, read from the page.
type resolvedPage struct {
	DID         string
	Verdict     string // verified, failed, notfound or unverified
	VerdictText string
	Status      string // the status badge: valid, expired, deactivated, notfound
	Ops         []struct{ Txid, Badge, Name, Error string }
	Keys        []string
	Services    []string
	Credentials []string
	Controllers []string
	DocNote     string // the document heading's note, when it is unverified
	VerifyMs    string
}

// readResolved is the script that reads a resolvedPage.
const readResolved = `(() => {
  const all = (sel, f) => [...document.querySelectorAll(sel)].map(f);
  const v = document.querySelector('section.resolved [data-verdict]');
  return {
    did: document.querySelector('section.resolved').dataset.did,
    verdict: v.dataset.verdict,
    verdictText: v.innerText,
    status: document.querySelector('.status-line [data-badge]').dataset.badge,
    ops: all('li.op', (li) => ({txid: li.dataset.txid, badge: li.querySelector('[data-badge]').dataset.badge,
      name: li.querySelector('.op-name').textContent, error: li.querySelector('.op-error')?.textContent ?? ''})),
    keys: all('table.keys tbody tr', (tr) => tr.innerText),
    services: all('table.services tbody tr', (tr) => tr.innerText),
    credentials: all('.credential', (c) => c.innerText),
    controllers: all('.controllers li', (li) => li.innerText),
    docNote: document.querySelector('#doc-title .hint')?.textContent ?? '',
    verifyMs: document.getElementById('verify-ms')?.dataset.ms ?? '',
  };
})()`

// resolveIn opens the app at base (with query, e.g. "?rpc=…") on d's
// route and reads what it shows once verification is over.
func resolveIn(tb *tab, base, query, d string) resolvedPage {
	tb.T.Helper()
	tb.Open(base + query + "#/resolve/" + url.PathEscape(d))
	return tb.readResolved(d)
}

func (tb *tab) readResolved(d string) resolvedPage {
	tb.T.Helper()
	tb.Wait(`document.querySelector('section.resolved[data-did="` + d + `"] [data-verdict]') || document.querySelector('#result .alert-error')`)
	if msg := eval[string](tb, `document.querySelector('#result .alert-error')?.innerText ?? ''`); msg != "" {
		tb.T.Fatalf("resolving %s: %s", d, msg)
	}
	return eval[resolvedPage](tb, readResolved)
}

// badges lists the operations' badges, newest first.
func (p resolvedPage) badges() []string {
	var out []string
	for _, o := range p.Ops {
		out = append(out, o.Badge)
	}
	return out
}

func (p resolvedPage) names() []string {
	var out []string
	for _, o := range p.Ops {
		out = append(out, o.Name)
	}
	return out
}

func repeat(s string, n int) []string { return slices.Repeat([]string{s}, n) }

func containsAll(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	text := strings.Join(got, "\n")
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, text)
		}
	}
}

// A valid DID typed bare into the form: the app resolves its full form,
// verifies both operations and shows its keys, services and credentials.
func TestResolveValid(t *testing.T) {
	f := env(t)
	tb := newTab(t)
	tb.Open(f.app)
	bare := strings.TrimPrefix(f.bob, "did:elastos:")
	tb.Do(chromedp.SendKeys(chromedp.CSS("#did-input"), bare), chromedp.Click(chromedp.CSS("form.entry button[type=submit]")))
	p := tb.readResolved(f.bob)
	if p.Verdict != "verified" || p.Status != "valid" || !strings.Contains(p.VerdictText, "all 2 operations from the create on") {
		t.Errorf("verdict %q, status %q:\n%s", p.Verdict, p.Status, p.VerdictText)
	}
	if !slices.Equal(p.badges(), repeat("verified", 2)) || !slices.Equal(p.names(), []string{"update", "create"}) {
		t.Errorf("operations %v %v, want update and create, verified", p.names(), p.badges())
	}
	if ms, err := strconv.ParseFloat(p.VerifyMs, 64); err != nil || ms <= 0 {
		t.Errorf("verification time %q", p.VerifyMs)
	}
	if route := eval[string](tb, `location.hash`); route != "#/resolve/"+f.bob {
		t.Errorf("route %s, want the full DID's", route)
	}
	containsAll(t, "keys", p.Keys, "#primary", "ECDSAsecp256r1", "authentication")
	containsAll(t, "services", p.Services, "#messaging", "DIDCommMessaging", "https://msg.example.org/bob", "#website", "https://www.bob.example.org")
	containsAll(t, "credentials", p.Credentials, "ProfileCredential", "Bob", "bob@example.org")
	if p.DocNote != "" {
		t.Errorf("the verified document is marked %q", p.DocNote)
	}
}

// The statuses other than valid, each verified: expired at the chain tip's
// time (the chain clock moved past it), deactivated (the deactivate and
// the document it ends), and a DID that was never published.
func TestResolveStatuses(t *testing.T) {
	f := env(t)
	for _, tc := range []struct {
		name, did, verdict, status string
		ops                        []string
	}{
		{"expired", f.expired, "verified", "expired", []string{"create"}},
		{"deactivated", f.gone, "verified", "deactivated", []string{"deactivate", "create"}},
		{"missing", f.missing, "notfound", "notfound", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := newTab(t)
			p := resolveIn(tb, f.app, "", tc.did)
			if p.Verdict != tc.verdict || p.Status != tc.status {
				t.Errorf("verdict %q, status %q; want %q, %q:\n%s", p.Verdict, p.Status, tc.verdict, tc.status, p.VerdictText)
			}
			if !slices.Equal(p.names(), tc.ops) || !slices.Equal(p.badges(), repeat("verified", len(tc.ops))) {
				t.Errorf("operations %v %v, want %v, verified", p.names(), p.badges(), tc.ops)
			}
		})
	}
}

// A customized DID: its controller's document is fetched and verified
// first, then used to verify the customized DID's own operation.
func TestResolveCustomized(t *testing.T) {
	f := env(t)
	tb := newTab(t)
	p := resolveIn(tb, f.app, "", f.acme)
	if p.Verdict != "verified" || p.Status != "valid" {
		t.Errorf("verdict %q, status %q:\n%s", p.Verdict, p.Status, p.VerdictText)
	}
	if len(p.Controllers) != 1 || !strings.Contains(p.Controllers[0], f.ctrl) || !strings.Contains(p.Controllers[0], "document verified") {
		t.Errorf("controllers %q, want %s verified", p.Controllers, f.ctrl)
	}
	containsAll(t, "services", p.Services, "LinkedDomains", "https://acme.example")
}
