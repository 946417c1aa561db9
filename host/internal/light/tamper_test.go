package light_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/didlight/didlight/core/did"
	eidclient "github.com/didlight/didlight/host/client/eid"
	"github.com/didlight/didlight/host/internal/eidtest"
	"github.com/didlight/didlight/host/internal/eidtest/scenario"
	"github.com/didlight/didlight/host/internal/light"
)

// tamper changes the result of a JSON-RPC answer: edit gets it decoded
// and returns what to serve in its place.
func tamper(t testing.TB, answer []byte, edit func(r map[string]any) any) []byte {
	var resp map[string]any
	if err := json.Unmarshal(answer, &resp); err != nil {
		t.Errorf("tamper: %v: %.200s", err, answer)
		return answer
	}
	r, ok := resp["result"].(map[string]any)
	if !ok {
		return answer
	}
	resp["result"] = edit(r)
	b, err := json.Marshal(resp)
	if err != nil {
		t.Error(err)
	}
	return b
}

// transactions returns a result's transaction array.
func transactions(r map[string]any) []any {
	txs, _ := r["transaction"].([]any)
	return txs
}

func operation(tx any) map[string]any {
	return tx.(map[string]any)["operation"].(map[string]any)
}

// tamperings are answers of a DID's whole history changed as an upstream
// that lies or breaks might change them. Each must be refused.
var tamperings = []struct {
	name string
	edit func(r map[string]any) any
}{
	{"flipped signature byte", func(r map[string]any) any {
		p := operation(transactions(r)[0])["proof"].(map[string]any)
		sig := []byte(p["signature"].(string))
		sig[10] ^= 'A' ^ 'B'
		if sig[10] == '-' || sig[10] == '_' {
			sig[10] = 'C'
		}
		p["signature"] = string(sig)
		return r
	}},
	{"older payload in place of the newest", func(r map[string]any) any {
		txs := transactions(r)
		operation(txs[0])["payload"] = operation(txs[1])["payload"]
		return r
	}},
	{"dropped link", func(r map[string]any) any {
		txs := transactions(r)
		r["transaction"] = append(txs[:3:3], txs[4:]...)
		return r
	}},
	{"reordered history", func(r map[string]any) any {
		txs := transactions(r)
		txs[2], txs[3] = txs[3], txs[2]
		return r
	}},
	{"truncated history", func(r map[string]any) any {
		txs := transactions(r)
		r["transaction"] = txs[:len(txs)-1]
		return r
	}},
	{"wrong id", func(r map[string]any) any {
		r["did"] = "did:elastos:igwDPNvMRqSU8VUTtDqtE4okRx8tM3f9Tb"
		return r
	}},
	{"status deactivated", func(r map[string]any) any {
		r["status"] = 2
		return r
	}},
	{"status expired, which EID never says", func(r map[string]any) any {
		r["status"] = 1
		return r
	}},
	{"an older operation's txid byte-reversed", func(r map[string]any) any {
		tx := transactions(r)[2].(map[string]any)
		id := []byte(tx["txid"].(string))
		for i, j := 0, len(id)-2; i < j; i, j = i+2, j-2 {
			id[i], id[i+1], id[j], id[j+1] = id[j], id[j+1], id[i], id[i+1]
		}
		tx["txid"] = string(id)
		return r
	}},
	{"timestamp moved before the previous operation", func(r map[string]any) any {
		txs := transactions(r)
		txs[0].(map[string]any)["timestamp"] = "2001-01-01T00:00:00Z"
		return r
	}},
	{"a malformed DID in the answer", func(r map[string]any) any {
		r["did"] = "did:elastos:not a did!"
		return r
	}},
	{"not found, naming another DID", func(r map[string]any) any {
		delete(r, "transaction")
		r["status"] = 3
		r["did"] = "did:elastos:" + strings.ToUpper(strings.TrimPrefix(r["did"].(string), "did:elastos:"))
		return r
	}},
}

// Answers tampered with are refused, counted and not kept; once the
// upstream answers truly again, the same Resolver answers.
func TestTamperedRefused(t *testing.T) {
	var on atomic.Bool
	var edit atomic.Pointer[func(map[string]any) any]
	u := eidtest.NewUpstream(t, eidtest.Options{Tamper: func(method string, params json.RawMessage, answer []byte) []byte {
		if !on.Load() || method != "did_resolveDID" {
			return answer
		}
		return tamper(t, answer, *edit.Load())
	}})
	carol := mustDID(t, didOf(t, u.Manifest, "carol"))
	for _, tc := range tamperings {
		t.Run(tc.name, func(t *testing.T) {
			r := newResolver(t, u.URL)
			edit.Store(&tc.edit)
			on.Store(true)
			_, err := r.DID(t.Context(), carol, true)
			on.Store(false)
			var refused *light.RefusedError
			if !errors.As(err, &refused) {
				t.Fatalf("%v, want the answer refused", err)
			}
			st := r.State()
			if st.Answers.Refused != 1 || st.Kept.Answers != 0 || st.LastRefused == nil || !strings.Contains(st.LastRefused.What, carol.String()) {
				t.Errorf("state %+v: want one refusal, named, and nothing kept", st)
			}
			if _, err := r.DID(t.Context(), carol, true); err != nil {
				t.Errorf("the true answer after the tampered one: %v", err)
			}
		})
	}
}

// An answer the client cannot read (longer than its limit, not JSON-RPC)
// is an upstream failure: nothing is kept either.
func TestGarbledAnswers(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer func([]byte) []byte
		want   error
	}{
		{"oversized", func(a []byte) []byte { return append(bytes.Repeat([]byte(" "), eidclient.DefaultMaxAnswer), a...) }, eidclient.ErrTooLarge},
		{"not JSON-RPC", func([]byte) []byte { return []byte(`{"result":{"did":"x"}}`) }, eidclient.ErrNotJSONRPC},
		{"another request's id", func(a []byte) []byte {
			return bytes.Replace(a, []byte(`"id":`), []byte(`"id":"other","was":`), 1)
		}, eidclient.ErrWrongID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := eidtest.NewUpstream(t, eidtest.Options{Tamper: func(method string, _ json.RawMessage, answer []byte) []byte {
				if method != "did_resolveDID" {
					return answer
				}
				return tc.answer(answer)
			}})
			r := newResolver(t, u.URL)
			_, err := r.DID(t.Context(), mustDID(t, didOf(t, u.Manifest, "alice")), true)
			var failed *light.UpstreamError
			if !errors.As(err, &failed) || !errors.Is(err, tc.want) {
				t.Fatalf("%v, want an upstream failure wrapping %v", err, tc.want)
			}
			if st := r.State(); st.Answers.Failed == 0 || st.Kept.Answers != 0 || st.LastFailure == nil {
				t.Errorf("state %+v: want the failure counted and nothing kept", st)
			}
		})
	}
}

// A credential whose issuer's history is tampered with is refused: its
// proof is checked against the issuer's document, which must verify.
func TestTamperedIssuer(t *testing.T) {
	var u *eidtest.Upstream
	u = eidtest.NewUpstream(t, eidtest.Options{Tamper: func(method string, params json.RawMessage, answer []byte) []byte {
		if method != "did_resolveDID" || !strings.Contains(string(params), didOf(t, u.Manifest, "carol")) {
			return answer
		}
		return tamper(t, answer, tamperings[0].edit)
	}})
	r := newResolver(t, u.URL)
	c := u.Manifest.Credentials[1] // bob's diploma, issued by carol
	id, _ := did.ParseCredentialID(c.ID)
	_, err := r.Credential(t.Context(), id, nil)
	if !errors.As(err, new(*light.RefusedError)) || !strings.Contains(err.Error(), "the document of "+c.Issuer) {
		t.Fatalf("%v, want the credential refused for its issuer's history", err)
	}
	asked := u.Requests()
	if _, err := r.Credential(t.Context(), id, nil); err == nil || u.Requests() == asked {
		t.Errorf("asked again: %v after %d requests, %d now; want it refused again, having kept nothing of it", err, asked, u.Requests())
	}
}

// didOf returns the DID of the scenario's actor name.
func didOf(t testing.TB, m *scenario.Manifest, name string) string {
	t.Helper()
	for _, s := range m.DIDs {
		if s.Name == name {
			return s.DID
		}
	}
	t.Fatalf("no DID %s in the scenario", name)
	return ""
}
