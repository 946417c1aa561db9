package wasmrt_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/client/clienttest"
	"github.com/didlight/didlight/host/internal/eidtest"
)

// jsCall is one call of the loaders' API, as apicalls.mjs reads it, and
// what the test wants of its outcome.
type jsCall struct {
	Call  string `json:"call"`
	Args  []any  `json:"args"`
	check func(t *testing.T, o jsOutcome)
}

// jsOutcome is what one loader's call gave.
type jsOutcome struct {
	Result json.RawMessage
	Error  *struct {
		Name, Message, Type, Rule string
		Index                     *int
	}
}

// jsVerified is the part of resolveVerified's result the tests read.
type jsVerified struct {
	DID        string
	Status     int
	Txid       string
	Complete   bool
	Expired    bool
	Report     struct{ Outcome string }
	Tip        struct{ Time time.Time }
	ChainID    int
	Answer     struct{ Transaction []struct{ Txid string } }
	StatusName string
}

// runAPICalls runs calls through the Node and browser loaders in Node
// (wasm/js/apicalls.mjs) and checks each loader's outcome.
func runAPICalls(t *testing.T, calls []jsCall) {
	t.Helper()
	var lines bytes.Buffer
	enc := json.NewEncoder(&lines)
	for _, c := range calls {
		if err := enc.Encode(c); err != nil {
			t.Fatal(err)
		}
	}
	out := runNodeScript(t, "apicalls.mjs", lines.Bytes())
	if len(out) != len(calls) {
		t.Fatalf("apicalls.mjs answered %d of %d calls", len(out), len(calls))
	}
	for n, line := range out {
		c := calls[n]
		var outcomes []jsOutcome
		if err := json.Unmarshal(line, &outcomes); err != nil || len(outcomes) != 2 {
			t.Fatalf("%s %v: outcomes %.200s (%v)", c.Call, c.Args, line, err)
		}
		for i, o := range outcomes {
			t.Run(fmt.Sprintf("%s %.80v %s", c.Call, c.Args[0], []string{"node", "browser"}[i]), func(t *testing.T) { c.check(t, o) })
		}
	}
}

// verified checks that a call verified, and what it gave.
func verified(f func(t *testing.T, v jsVerified)) func(t *testing.T, o jsOutcome) {
	return func(t *testing.T, o jsOutcome) {
		t.Helper()
		if o.Error != nil {
			t.Fatalf("%s: %s", o.Error.Name, o.Error.Message)
		}
		var v jsVerified
		if err := json.Unmarshal(o.Result, &v); err != nil {
			t.Fatal(err)
		}
		f(t, v)
	}
}

// refused checks that a call failed with the module's error and rule.
func refused(rule idop.Rule) func(t *testing.T, o jsOutcome) {
	return func(t *testing.T, o jsOutcome) {
		t.Helper()
		if o.Error == nil || o.Error.Name != "DidlightError" || o.Error.Type != "verify" || o.Error.Rule != string(rule) {
			t.Errorf("outcome %+v %s, want a DidlightError of rule %s", o.Error, o.Result, rule)
		}
	}
}

// The JS loaders, in Node, resolve every DID and credential of the
// recorded scenario from an EID upstream and verify them as the real node
// decided; the tampered answers are refused; a didlight node as the
// endpoint works the same way. With EID_GETH set, the upstream is a live
// EID node.
func TestLoaderEID(t *testing.T) {
	u := eidtest.NewUpstream(t, eidtest.Options{})
	m, head := u.Manifest, eidHead(t, u.URL)
	at := map[string]any{"endpoint": u.URL}
	var calls []jsCall
	for _, d := range m.DIDs {
		want := decidedOf(t, m, d.DID)
		for _, all := range []bool{true, false} {
			calls = append(calls, jsCall{Call: "resolveVerified", Args: []any{d.DID, map[string]any{"endpoint": u.URL, "all": all}},
				check: verified(func(t *testing.T, v jsVerified) {
					if v.Status != want.status || v.DID != d.DID || !v.Tip.Time.Equal(head) || v.ChainID != int(m.ChainID) {
						t.Errorf("%s status %d, tip %s, chain %d; the node decided %d at %s on chain %d", v.DID, v.Status, v.Tip.Time, v.ChainID, want.status, head, m.ChainID)
					}
					var txids []string
					for _, tx := range v.Answer.Transaction {
						txids = append(txids, tx.Txid)
					}
					if all && !slices.Equal(txids, want.txids) {
						t.Errorf("transactions %v, the node accepted %v", txids, want.txids)
					}
					if want.status != int(resolve.NotFound) && (v.Report.Outcome != "verified" || v.Expired != want.latest.Document.Expires().Before(head)) {
						t.Errorf("outcome %s, expired %v", v.Report.Outcome, v.Expired)
					}
				})})
		}
		calls = append(calls, jsCall{Call: "listCredentialsVerified", Args: []any{d.DID, at}, check: func(t *testing.T, o jsOutcome) {
			if (o.Error == nil) != (want.status != int(resolve.NotFound)) {
				t.Errorf("the list of a DID of status %d: %+v", want.status, o.Error)
			}
		}})
	}
	for _, c := range m.Credentials {
		for _, opts := range []map[string]any{at, {"endpoint": u.URL, "issuer": c.Issuer}} {
			calls = append(calls, jsCall{Call: "resolveCredentialVerified", Args: []any{c.ID, opts}, check: verified(func(t *testing.T, v jsVerified) {
				if want := credentialStatus(m, c.ID); v.Status != want {
					t.Errorf("status %d, the node decided %d", v.Status, want)
				}
			})})
		}
	}
	long := longest(m)
	w3cOpts := map[string]any{"endpoint": u.URL, "accept": "application/did+json"}
	calls = append(calls, jsCall{Call: "resolveW3CVerified", Args: []any{long + "#primary", w3cOpts}, check: func(t *testing.T, o jsOutcome) {
		var r struct {
			Status int
			Body   struct{ ID string }
			Report struct{ Outcome string }
		}
		if o.Error != nil || json.Unmarshal(o.Result, &r) != nil || r.Status != 200 || r.Body.ID != long+"#primary" || r.Report.Outcome != "verified" {
			t.Errorf("W3C dereferencing %s: %+v %s", long+"#primary", o.Error, o.Result)
		}
	}})
	for _, tc := range tampering {
		tampered := eidtest.NewUpstream(t, eidtest.Options{Tamper: func(method string, params json.RawMessage, answer []byte) []byte {
			if method == "did_resolveDID" && bytes.Contains(params, []byte(long)) && bytes.Contains(params, []byte(`"all":true`)) {
				return tamper(t, answer, tc.change)
			}
			return answer
		}})
		calls = append(calls, jsCall{Call: "resolveVerified", Args: []any{long, map[string]any{"endpoint": tampered.URL}}, check: refused(tc.rule)})
	}
	calls = append(calls, didlightCalls(t)...)
	runAPICalls(t, calls)
}

// didlightCalls are calls of the loaders' API against a didlight devnet
// node with the demo data: its DIDs and a declared credential verify as an
// EID node's would.
func didlightCalls(t *testing.T) []jsCall {
	n, stop, err := clienttest.RunWith(clienttest.Options{Demo: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stop() })
	at := map[string]any{"endpoint": n.RPC}
	var page struct{ Document []struct{ ID string } }
	eidResult(t, eidAsk(t, n.RPC, "query", map[string]any{"query": "{}", "limit": 6}), &page)
	if len(page.Document) < 6 {
		t.Fatalf("the demo node lists %d DIDs", len(page.Document))
	}
	var calls []jsCall
	for _, d := range page.Document {
		calls = append(calls, jsCall{Call: "resolveVerified", Args: []any{d.ID, at}, check: verified(func(t *testing.T, v jsVerified) {
			if v.Status != 0 || v.DID != d.ID || v.Report.Outcome != "verified" || v.ChainID != 20 || !v.Complete {
				t.Errorf("%s: status %d, outcome %s, chain %d, complete %v", v.DID, v.Status, v.Report.Outcome, v.ChainID, v.Complete)
			}
		})})
		var list struct{ Credentials []string }
		eidResult(t, eidAsk(t, n.RPC, "did_listCredentials", []any{map[string]string{"did": d.ID}}), &list)
		for _, id := range list.Credentials {
			calls = append(calls, jsCall{Call: "resolveCredentialVerified", Args: []any{id, at}, check: verified(func(t *testing.T, v jsVerified) {
				if v.Status != 0 && v.Status != 2 || v.Report.Outcome != "verified" {
					t.Errorf("%s: status %d, outcome %s", id, v.Status, v.Report.Outcome)
				}
			})})
		}
	}
	if !slices.ContainsFunc(calls, func(c jsCall) bool { return c.Call == "resolveCredentialVerified" }) {
		t.Fatal("no demo DID lists a credential")
	}
	calls = append(calls, jsCall{Call: "resolveW3CVerified", Args: []any{page.Document[0].ID, at}, check: func(t *testing.T, o jsOutcome) {
		if o.Error != nil || !strings.Contains(string(o.Result), `"status":200`) {
			t.Errorf("W3C resolution from a didlight node: %+v %.200s", o.Error, o.Result)
		}
	}})
	return calls
}
