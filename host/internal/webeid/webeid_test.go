package webeid_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/didlight/didlight/host/internal/browsertest"
	"github.com/didlight/didlight/host/internal/eidtest"
	"github.com/didlight/didlight/host/internal/eidtest/scenario"
	"github.com/didlight/didlight/host/internal/testenv"
	"github.com/didlight/didlight/wasm/abi"
	"github.com/didlight/didlight/web"
)

func TestMain(m *testing.M) {
	code := eidtest.Main(m)
	browsertest.Close()
	os.Exit(code)
}

// app is the browser app, built once for all tests.
var app struct {
	once sync.Once
	h    http.Handler
	err  error
}

func appHandler(t *testing.T) http.Handler {
	t.Helper()
	app.once.Do(func() {
		module, shim, err := browsertest.Assets("../../..")
		app.h, app.err = web.Handler(web.Options{Module: module, Shim: shim}), err
	})
	testenv.Check(t, app.err)
	return app.h
}

// proxy forwards requests to upstream, as a same-origin front to an EID
// node would.
func proxy(t *testing.T, upstream string) http.Handler {
	t.Helper()
	u, err := url.Parse(upstream)
	if err != nil {
		t.Fatal(err)
	}
	return httputil.NewSingleHostReverseProxy(u)
}

// serve starts a server of the app that also fronts upstream at /eid (the
// same origin as the page) and, when state is given, answers the REST node
// state with it. It returns the app's URL, ending in /.
func serve(t *testing.T, upstream string, state map[string]any) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/", appHandler(t))
	mux.Handle("/eid", proxy(t, upstream))
	if state != nil {
		mux.HandleFunc("GET /api/v1/node/state", func(w http.ResponseWriter, r *http.Request) {
			json.NewEncoder(w).Encode(map[string]any{"Desc": "Success", "Error": 0, "Result": state})
		})
	}
	s := httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s.URL + "/"
}

// corsFront fronts upstream for pages of any origin, as a light node
// serves reads, and returns its URL.
func corsFront(t *testing.T, upstream string) string {
	t.Helper()
	s := httptest.NewServer(browsertest.OpenCORS(proxy(t, upstream)))
	t.Cleanup(s.Close)
	return s.URL + "/"
}

// shown is what the resolve view shows of an EID endpoint's answer.
type shown struct {
	DID     string
	Verdict string // verified, migrated, failed or notfound
	Text    string // the verdict's text
	Status  string // the status badge
	Ops     []struct{ Txid, Badge string }
	Claims  map[string][]string // by group: checked, trusted, unchecked
	W3C     string              // the W3C section's data-status, or its source when none
	Footer  string
}

const readShown = `(() => {
  const v = document.querySelector('section.resolved [data-verdict]');
  const claims = {};
  for (const ul of document.querySelectorAll('section.report ul.claims')) {
    claims[ul.className.replace(/.*claims-/, '')] = [...ul.querySelectorAll('li')].map((li) => li.dataset.claim);
  }
  const w3c = document.querySelector('section.w3c');
  return {
    did: document.querySelector('section.resolved').dataset.did,
    verdict: v.dataset.verdict,
    text: v.innerText,
    status: document.querySelector('.status-line [data-badge]').dataset.badge,
    ops: [...document.querySelectorAll('li.op')].map((li) => ({txid: li.dataset.txid, badge: li.querySelector('[data-badge]').dataset.badge})),
    claims,
    w3c: w3c.dataset.status ?? w3c.dataset.source,
    footer: document.querySelector('footer').innerText,
  };
})()`

// resolve opens the app at base with query on d's route and reads what it
// shows once verification is over.
func resolve(t *testing.T, base, query, d string) shown {
	t.Helper()
	tb := browsertest.NewTab(t)
	tb.Open(base + query + "#/resolve/" + url.PathEscape(d))
	tb.Wait(`document.querySelector('section.resolved [data-verdict]') || document.querySelector('#result .alert-error')`)
	if msg := browsertest.Eval[string](tb, `document.querySelector('#result .alert-error')?.innerText ?? ''`); msg != "" {
		t.Fatalf("resolving %s: %s", d, msg)
	}
	return browsertest.Eval[shown](tb, readShown)
}

// decided returns the status badge and the txids (newest first) of what
// the node decided of d.
func decided(m *scenario.Manifest, d string) (string, []string) {
	status := "notfound"
	var txids []string
	for _, s := range m.Accepted(d) {
		txids = append([]string{strings.TrimPrefix(s.TxHash, "0x")}, txids...)
		status = map[bool]string{true: "deactivated", false: "valid"}[s.Operation == "deactivate"]
	}
	return status, txids
}

// The app pointed at an EID endpoint (?endpoint=, here a same-origin front
// to the recorded EID node) resolves through it, verifies in the module,
// and shows what was checked and what was taken on the endpoint's word;
// each DID as the real node decided it.
func TestEndpoint(t *testing.T) {
	u := eidtest.NewUpstream(t, eidtest.Options{})
	base := serve(t, u.URL, nil)
	endpoint := base + "eid"
	for _, d := range u.Manifest.DIDs {
		status, txids := decided(u.Manifest, d.DID)
		t.Run(d.Name, func(t *testing.T) {
			p := resolve(t, base, "?endpoint="+url.QueryEscape(endpoint), d.DID)
			var ops []string
			for _, o := range p.Ops {
				ops = append(ops, o.Txid)
				if o.Badge != "verified" {
					t.Errorf("operation %s: badge %s", o.Txid, o.Badge)
				}
			}
			want := "verified"
			if status == "notfound" {
				want = "notfound"
			}
			if p.Verdict != want || !slices.Equal(ops, txids) || p.DID != d.DID {
				t.Errorf("%s: verdict %s, operations %v; the node decided %s with %v:\n%s", p.DID, p.Verdict, ops, status, txids, p.Text)
			}
			if status != "notfound" && p.Status != status && p.Status != "expired" {
				t.Errorf("status %s, the node decided %s", p.Status, status)
			}
			if !strings.Contains(p.Text, "block ") || !strings.Contains(p.Footer, endpoint) {
				t.Errorf("the verdict names no head block, or the footer no endpoint:\n%s\n%s", p.Text, p.Footer)
			}
			if status == "notfound" {
				return
			}
			if !slices.Contains(p.Claims["checked"], "signatures") || !slices.Contains(p.Claims["trusted"], "inclusion") || p.W3C == "none" {
				t.Errorf("claims %v, W3C %s", p.Claims, p.W3C)
			}
		})
	}
}

// Tampered answers are refused: the app says verification failed, naming
// the rule, and marks the operation at fault.
func TestEndpointTampered(t *testing.T) {
	plain := eidtest.NewReplay(t, eidtest.Options{})
	d := plain.Manifest.DIDs[2].DID // carol, the longest history
	if n := len(plain.Manifest.Accepted(d)); n < 10 {
		t.Fatalf("%s has a history of %d operations", d, n)
	}
	for _, tc := range []struct {
		name string
		edit func(r map[string]any)
		rule string
		bad  int // the operation at fault, newest first
	}{
		{"flipped signature byte", func(r map[string]any) {
			p := op(r, 0)["proof"].(map[string]any)
			s := p["signature"].(string)
			p["signature"] = map[bool]string{true: "B", false: "A"}[s[0] == 'A'] + s[1:]
		}, "signature", 0},
		{"older payload in place of the newest", func(r map[string]any) { op(r, 0)["payload"] = op(r, 1)["payload"] }, "signature", 0},
		{"dropped link", func(r map[string]any) {
			r["transaction"] = slices.Delete(r["transaction"].([]any), 5, 6)
		}, "previous-txid", 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := eidtest.NewUpstream(t, eidtest.Options{Tamper: func(method string, params json.RawMessage, answer []byte) []byte {
				if method != "did_resolveDID" || !strings.Contains(string(params), d) {
					return answer
				}
				var m map[string]any
				if err := json.Unmarshal(answer, &m); err != nil {
					t.Fatal(err)
				}
				tc.edit(m["result"].(map[string]any))
				b, _ := json.Marshal(m)
				return b
			}})
			base := serve(t, u.URL, nil)
			p := resolve(t, base, "?endpoint="+url.QueryEscape(base+"eid"), d)
			if p.Verdict != "failed" || !strings.Contains(p.Text, "“"+tc.rule+"”") || !strings.Contains(p.Text, "do not trust this answer") {
				t.Errorf("verdict %s:\n%s", p.Verdict, p.Text)
			}
			if len(p.Ops) <= tc.bad || p.Ops[tc.bad].Badge != "failed" || p.W3C != "none" {
				t.Errorf("operations %+v, W3C %s; want operation %d failed and no W3C answer", p.Ops, p.W3C, tc.bad)
			}
		})
	}
}

func op(r map[string]any, i int) map[string]any {
	return r["transaction"].([]any)[i].(map[string]any)["operation"].(map[string]any)
}

// The endpoint is a setting of the page: the form puts it in the address
// and keeps it in this browser; "Use this node" goes back. An endpoint that
// does not allow the page's origin (an EID node as it runs by default)
// fails with an error that says so.
func TestEndpointSetting(t *testing.T) {
	u := eidtest.NewReplay(t, eidtest.Options{})
	base := serve(t, u.URL, nil)
	endpoint := base + "eid"
	tb := browsertest.NewTab(t)
	tb.Open(base)
	tb.Do(chromedp.SendKeys(chromedp.CSS("#endpoint-input"), endpoint), chromedp.Click(chromedp.CSS("form.endpoint-form button[type=submit]")),
		chromedp.WaitVisible(chromedp.CSS("footer #endpoint"))) // the page loaded anew, with the endpoint
	if got := browsertest.Eval[string](tb, `new URLSearchParams(location.search).get('endpoint')`); got != endpoint {
		t.Errorf("the address's endpoint %q, want %s", got, endpoint)
	}
	if got := browsertest.Eval[string](tb, `localStorage.getItem('didlight.endpoint')`); got != endpoint {
		t.Errorf("saved endpoint %q, want %s", got, endpoint)
	}
	if footer := browsertest.Eval[string](tb, `document.querySelector('footer').innerText`); !strings.Contains(footer, endpoint) {
		t.Errorf("footer %q", footer)
	}
	tb.Open(base + "#/query")
	if elsewhere := browsertest.Eval[string](tb, `document.querySelector('[data-elsewhere]')?.innerText ?? ''`); !strings.Contains(elsewhere, endpoint) {
		t.Errorf("the query view with an EID endpoint saved: %q", elsewhere)
	}
	tb.Do(chromedp.Click(chromedp.CSS("[data-elsewhere] button")), chromedp.WaitVisible(chromedp.CSS("main .alert-error"))) // this server has no node
	if got := browsertest.Eval[string](tb, `(localStorage.getItem('didlight.endpoint') ?? '') + location.search`); got != "" {
		t.Errorf("after “Use this page’s node”: %q kept", got)
	}

	tb = browsertest.NewTab(t)
	d := u.Manifest.DIDs[0].DID
	tb.Open(base + "?endpoint=" + url.QueryEscape(u.URL) + "#/resolve/" + url.PathEscape(d))
	tb.Wait(`document.querySelector('#result .alert-error')`)
	if msg := browsertest.Eval[string](tb, `document.querySelector('#result .alert-error').innerText`); !strings.Contains(msg, "CORS") {
		t.Errorf("an endpoint without CORS: %q", msg)
	}
}

// Served by a light node, the app says it is one and of which upstream (the
// node state's Light member, as didlight node --light reports it), and
// resolves through the node's JSON-RPC with the EID methods, verifying what
// it serves at the head the node reports.
func TestLightNode(t *testing.T) {
	u := eidtest.NewUpstream(t, eidtest.Options{})
	front, err := url.Parse(corsFront(t, u.URL))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := eidtest.Load()
	if err != nil {
		t.Fatal(err)
	}
	upstream := "https://api.elastos.io/eid"
	light := map[string]any{"Mode": "light", "Upstream": []any{map[string]any{"URL": upstream, "Answered": true, "Block": 130}},
		"ChainID": u.Manifest.ChainID, "Head": map[string]any{"Height": 130, "Time": rec.HeadTime(t, scenario.Final), "Confirmed": time.Now()},
		"Answers": map[string]any{"Kept": 0}, "LastRefused": nil}
	base := serve(t, u.URL, map[string]any{"Compile": "test", "Height": 130, "PRCPort": port(t, front), "RestPort": 0, "Neighbors": []any{}, "Light": light})
	d := u.Manifest.DIDs[0]
	status, txids := decided(u.Manifest, d.DID)
	p := resolve(t, base, "", d.DID)
	if !strings.Contains(p.Footer, "light node of "+upstream) {
		t.Errorf("footer %q", p.Footer)
	}
	if !strings.Contains(p.Text, "the light node reports, block 130") {
		t.Errorf("the verdict does not name the light node's head:\n%s", p.Text)
	}
	if p.Verdict != "verified" || p.Status != status || len(p.Ops) != len(txids) || !slices.Contains(p.Claims["trusted"], "newest") {
		t.Errorf("verdict %s, status %s, %d operations, claims %v; want verified, %s, %d", p.Verdict, p.Status, len(p.Ops), p.Claims, status, len(txids))
	}
}

func port(t *testing.T, u *url.URL) int {
	t.Helper()
	n, err := strconv.Atoi(u.Port())
	if err != nil {
		t.Fatalf("no port in %s", u)
	}
	return n
}

// The module in Chromium (the browser loader, as the app loads it) answers
// the EID calls byte for byte as the native code does: every DID, credential
// and list answer of the recording's final checkpoint, W3C resolution of the
// DIDs, and tampered answers.
func TestParityChromium(t *testing.T) {
	rec, err := eidtest.Load()
	if err != nil {
		t.Fatal(err)
	}
	u := eidtest.NewReplay(t, eidtest.Options{})
	now, chainID := rec.HeadTime(t, scenario.Final), u.Manifest.ChainID
	type call struct {
		name  string
		input []byte
	}
	var calls []call
	add := func(name string, in any) {
		b, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		calls = append(calls, call{name, b})
	}
	for _, x := range eidtest.Calls(rec.Checkpoints[scenario.Final]) {
		p, ok := x.DIDParams()
		if !ok {
			continue
		}
		switch x.Method {
		case "did_resolveDID":
			all := p.All
			add("verify_eid_did", abi.VerifyEIDDIDInput{Answer: x.Response, DID: p.DID, All: all, Now: now, ChainID: chainID})
			add("resolve_w3c_eid", abi.ResolveW3CEIDInput{Answer: x.Response, DID: p.DID, Now: now, ChainID: chainID})
			if all && strings.HasPrefix(p.DID, "did:elastos:i") {
				var m map[string]any
				if err := json.Unmarshal(x.Response, &m); err == nil {
					if r, ok := m["result"].(map[string]any); ok {
						if txs, _ := r["transaction"].([]any); len(txs) < 2 {
							continue
						}
						op(r, 0)["payload"] = op(r, 1)["payload"]
						tampered, _ := json.Marshal(m)
						add("verify_eid_did", abi.VerifyEIDDIDInput{Answer: tampered, DID: p.DID, All: true, Now: now, ChainID: chainID})
					}
				}
			}
		case "did_resolveCredential":
			in := abi.VerifyEIDCredentialInput{Answer: x.Response, ID: p.ID, Issuer: p.Issuer, Now: now, ChainID: chainID}
			add("verify_eid_credential", in)
			if in.DIDs = fetchedDIDs(t, rec, in); in.DIDs != nil {
				add("verify_eid_credential", in) // as a light client asks again, with the DIDs the first call needed
			}
		case "did_listCredentials":
			add("verify_eid_credential_list", abi.VerifyEIDCredentialListInput{Answer: x.Response, DID: p.DID})
		}
	}
	run := map[string]abi.Func{}
	for _, c := range abi.Calls() {
		run[c.Name] = c.Run
	}
	pairs := make([][2]string, len(calls))
	for i, c := range calls {
		pairs[i] = [2]string{c.name, string(c.input)}
	}
	arg, err := json.Marshal(pairs)
	if err != nil {
		t.Fatal(err)
	}
	tb := browsertest.NewTab(t)
	tb.Open(serve(t, u.URL, nil))
	got := browsertest.Eval[[]string](tb, `(async (calls) => {
  const { load } = await import('/wasm/browser.js');
  const d = await load();
  return calls.map(([name, input]) => d.callRaw(name, input));
})(`+string(arg)+`)`)
	if len(got) != len(calls) {
		t.Fatalf("%d answers to %d calls", len(got), len(calls))
	}
	counts := map[string][2]int{}
	for i, c := range calls {
		native := string(run[c.name](c.input, abi.Env{}))
		if got[i] != native {
			t.Errorf("%s %.120s:\n chromium %.300s\n native   %.300s", c.name, c.input, got[i], native)
		}
		n := counts[c.name]
		n[map[bool]int{true: 1, false: 0}[strings.HasPrefix(native, `{"error"`)]]++
		counts[c.name] = n
	}
	for _, name := range []string{"verify_eid_did", "verify_eid_credential", "verify_eid_credential_list", "resolve_w3c_eid"} {
		if n := counts[name]; n[0] < 2 || n[1] < 2 {
			t.Errorf("%s: %d results and %d errors; the cases should have both", name, n[0], n[1])
		}
	}
}

// fetchedDIDs returns the answers (all=true, from the recording's final
// checkpoint) of the DIDs verify_eid_credential needs for in, or nil when
// it needs none.
func fetchedDIDs(t *testing.T, rec *eidtest.Recording, in abi.VerifyEIDCredentialInput) []abi.FetchedDID {
	t.Helper()
	b, _ := json.Marshal(in)
	var e abi.Envelope
	if err := json.Unmarshal(abi.VerifyEIDCredential(b, abi.Env{}), &e); err != nil || e.Error == nil || e.Error.Type != abi.TypeNeed {
		return nil
	}
	var out []abi.FetchedDID
	for _, d := range e.Error.DIDs {
		for _, x := range eidtest.Calls(rec.Checkpoints[scenario.Final]) {
			if p, ok := x.DIDParams(); ok && x.Method == "did_resolveDID" && p.DID == d && p.All {
				out = append(out, abi.FetchedDID{DID: d, Answer: x.Response})
				break
			}
		}
	}
	return out
}
