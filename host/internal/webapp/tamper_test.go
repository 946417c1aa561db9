package webapp_test

import (
	"bytes"
	"encoding/json"
	"github.com/didlight/didlight/host/internal/browsertest"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
)

var httpClient = &http.Client{Timeout: 30 * time.Second}

// tamperProxy stands between the page and the node's JSON-RPC API, with
// CORS as the node has it, and rewrites the node's resolvedid result for
// target with change. It returns its URL.
func tamperProxy(t *testing.T, upstream, target string, change func(result map[string]any)) string {
	t.Helper()
	s := httptest.NewServer(browsertest.OpenCORS(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		resp, err := httpClient.Post(upstream, "application/json", bytes.NewReader(body))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		answer, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var call struct {
			Method string
			Params struct{ DID string }
		}
		if json.Unmarshal(body, &call) == nil && call.Method == "resolvedid" && call.Params.DID == target {
			var m map[string]any
			if err := json.Unmarshal(answer, &m); err != nil {
				http.Error(w, err.Error(), http.StatusBadGateway)
				return
			}
			change(m["result"].(map[string]any))
			answer, _ = json.Marshal(m)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(answer)
	})))
	t.Cleanup(s.Close)
	return s.URL + "/"
}

// txs returns a result's transaction array.
func txs(result map[string]any) []any { return result["transaction"].([]any) }

// op returns member name of transaction i's operation.
func op(result map[string]any, i int) map[string]any {
	return txs(result)[i].(map[string]any)["operation"].(map[string]any)
}

// A node's answer that was tampered with is flagged: the operation at
// fault fails with the rule it breaks, the older ones verify and the newer
// ones are not checked; a status the operations do not give fails the
// answer as a whole. The same answer passed through unchanged verifies.
func TestTamperedAnswer(t *testing.T) {
	f := env(t)
	for _, tc := range []struct {
		name    string
		did     string
		change  func(result map[string]any)
		verdict string
		badges  []string
		says    string
	}{
		{"unchanged", f.bob, func(map[string]any) {}, "verified", repeat("verified", 2), "Verified in this browser"},
		{"signature of another operation", f.bob, func(r map[string]any) {
			op(r, 0)["proof"].(map[string]any)["signature"] = op(r, 1)["proof"].(map[string]any)["signature"]
		}, "failed", []string{"failed", "verified"}, "breaks the rule “signature”"},
		{"payload altered", f.long, func(r map[string]any) {
			op(r, 0)["payload"] = op(r, 0)["payload"].(string)[:40] + "A" + op(r, 0)["payload"].(string)[41:]
		}, "failed", append([]string{"failed"}, repeat("verified", 9)...), "Operation 1 of 10"},
		{"an operation left out", f.long, func(r map[string]any) {
			r["transaction"] = slices.Delete(txs(r), 3, 4)
		}, "failed", append([]string{"unchecked", "unchecked", "failed"}, repeat("verified", 6)...), "breaks the rule “previous-txid”"},
		{"expired claimed valid", f.expired, func(r map[string]any) { r["status"] = 0.0 }, "failed", []string{"verified"}, "The answer as a whole breaks the rule “status”"},
		{"deactivated claimed valid", f.gone, func(r map[string]any) { r["status"] = 0.0 }, "failed", repeat("verified", 2), "The answer as a whole breaks the rule “status”"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := newTab(t)
			proxy := tamperProxy(t, f.rpc, tc.did, tc.change)
			p := resolveIn(tb, f.app, "?rpc="+url.QueryEscape(proxy), tc.did)
			if p.Verdict != tc.verdict || !slices.Equal(p.badges(), tc.badges) || !strings.Contains(p.VerdictText, tc.says) {
				t.Errorf("verdict %q, badges %v; want %q, %v, saying %q:\n%s", p.Verdict, p.badges(), tc.verdict, tc.badges, tc.says, p.VerdictText)
			}
			if tc.verdict == "failed" {
				if !strings.Contains(p.VerdictText, "do not trust this answer") {
					t.Errorf("the failure does not warn:\n%s", p.VerdictText)
				}
				if p.DocNote == "" {
					t.Errorf("the document of an answer that failed is not marked unverified")
				}
				for _, o := range p.Ops {
					if (o.Badge == "failed") != (o.Error != "") {
						t.Errorf("operation %s: badge %s, message %q", o.Txid, o.Badge, o.Error)
					}
				}
			}
		})
	}
}
