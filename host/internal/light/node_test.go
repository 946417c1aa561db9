package light_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/didlight/didlight/core/jsonrpc"
	"github.com/didlight/didlight/host/internal/api"
	"github.com/didlight/didlight/host/internal/eidtest"
	"github.com/didlight/didlight/host/internal/eidtest/scenario"
	"github.com/didlight/didlight/host/internal/light"
	"github.com/didlight/didlight/host/internal/node"
)

var _ api.Light = (*light.Resolver)(nil)

// startLight starts a light node in front of the upstream at url.
func startLight(t testing.TB, url string) (*node.Node, *light.Resolver) {
	t.Helper()
	r := light.New(light.Config{Client: testClient(t, url, 2*time.Second), Poll: 50 * time.Millisecond})
	n, err := node.StartLight(r, node.Config{API: api.Options{Web: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		io.WriteString(w, "the browser app")
	})}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := n.Stop(); err != nil {
			t.Error(err)
		}
	})
	waitFor(t, func() bool { _, _, ok := r.Head(); return ok })
	return n, r
}

// call posts one JSON-RPC request to the node and returns its result and
// error members.
func call(t testing.TB, url, method string, params any) (json.RawMessage, *jsonrpc.Error) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": method, "params": params})
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r struct {
		Result json.RawMessage `json:"result"`
		Error  *jsonrpc.Error  `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatal(err)
	}
	return r.Result, r.Error
}

// get reads a URL: its status and body.
func get(t testing.TB, url string, header ...string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// A light node serves the DID reads as the upstream answered them,
// verified: did_resolveDID byte for byte, resolvedid in the interface's
// dialect, the credential methods, W3C resolution; its node state and
// height are its upstream's head; everything of a ledger, and every write,
// answers that a light node does not serve it.
func TestLightNode(t *testing.T) {
	u := eidtest.NewUpstream(t, eidtest.Options{})
	n, r := startLight(t, u.URL)
	rpc, rest := n.RPCURL(), n.RESTURL()
	root := strings.TrimSuffix(rest, "/api/v1")
	head, _, _ := r.Head()
	m := u.Manifest

	for _, name := range []string{"alice", "erin", "frank", "customized"} {
		d := didOf(t, m, name)
		t.Run("resolve "+name, func(t *testing.T) {
			direct, _ := ask(t, u.URL, "did_resolveDID", didParams(d, true))
			sdk, err := call(t, rpc, "did_resolveDID", didParams(d, true))
			if err != nil || !bytes.Equal(sdk, direct) {
				t.Errorf("did_resolveDID: %v %.200s; want the upstream's %.200s", err, sdk, direct)
			}
			spec, err := call(t, rpc, "resolvedid", map[string]any{"did": strings.TrimPrefix(d, "did:elastos:"), "all": true})
			a, _ := r.DID(t.Context(), mustDID(t, d), true)
			if err != nil || !bytes.Equal(spec, a.Spec) || parseResolved(t, spec).DID != d {
				t.Errorf("resolvedid: %v %.200s; want %.200s", err, spec, a.Spec)
			}
		})
	}
	t.Run("credentials", func(t *testing.T) {
		c := m.Credentials[1]
		direct, _ := ask(t, u.URL, "did_resolveCredential", []any{map[string]any{"id": c.ID}})
		for _, method := range []string{"resolvecredential", "did_resolveCredential"} {
			if res, err := call(t, rpc, method, []any{map[string]any{"id": c.ID}}); err != nil || !bytes.Equal(res, direct) {
				t.Errorf("%s: %v %.200s; want %.200s", method, err, res, direct)
			}
		}
		dave := didOf(t, m, "dave")
		res, err := call(t, rpc, "listcredentials", map[string]any{"did": dave, "skip": 2, "limit": 2})
		want := fmt.Sprintf(`{"did":%q,"credentials":[%q,%q]}`, dave, declared(m, dave)[2], declared(m, dave)[3])
		if err != nil || string(res) != want {
			t.Errorf("listcredentials: %v %s; want %s", err, res, want)
		}
		if _, err := call(t, rpc, "did_listCredentials", []any{map[string]any{"did": didOf(t, m, "customized")}}); err == nil || err.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("the list of a DID that does not exist: %v; want the upstream's error as it gave it", err)
		}
	})
	t.Run("W3C", func(t *testing.T) {
		for name, want := range map[string]int{"alice": 200, "erin": 410, "customized": 404} {
			status, body := get(t, root+"/1.0/identifiers/"+didOf(t, m, name), "Accept", "application/did-resolution")
			if status != want || !bytes.Contains(body, []byte(`"didResolutionMetadata"`)) {
				t.Errorf("%s: %d %.300s; want %d", name, status, body, want)
			}
		}
		if status, body := get(t, root+"/1.0/identifiers/did:elastos:not%20a%20DID"); status != 400 {
			t.Errorf("a malformed DID: %d %.200s", status, body)
		}
	})
	t.Run("bad input asks nothing", func(t *testing.T) {
		before := u.Requests()
		if _, err := call(t, rpc, "resolvedid", map[string]any{"did": "did:elastos:not a did!"}); err == nil || err.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("a malformed DID: %v", err)
		}
		if _, err := call(t, rpc, "listcredentials", map[string]any{"did": didOf(t, m, "dave"), "skip": -1}); err == nil || err.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("a negative skip: %v", err)
		}
		if u.Requests() != before {
			t.Errorf("the upstream was asked %d times", u.Requests()-before)
		}
	})
	t.Run("state", func(t *testing.T) {
		// A live upstream's head moves on: what the node says is this head
		// or a later one, and the same in each of its forms.
		var st struct {
			Result struct {
				Height uint32
				Light  light.Status
			}
		}
		_, body := get(t, rest+"/node/state")
		if err := json.Unmarshal(body, &st); err != nil || uint64(st.Result.Height) < head || st.Result.Light.Mode != "light" ||
			st.Result.Light.Head == nil || st.Result.Light.Head.Height < head || len(st.Result.Light.Upstream) != 1 || st.Result.Light.Answers.Verified == 0 {
			t.Errorf("node state %s: want height %d or later and the light node's state", body, head)
		}
		var height struct{ Result uint64 }
		if _, body := get(t, rest+"/block/height"); json.Unmarshal(body, &height) != nil || height.Result < head {
			t.Errorf("block height: %s, want %d or later", body, head)
		}
		var number string
		if res, err := call(t, rpc, "eth_blockNumber", []any{}); err != nil || json.Unmarshal(res, &number) != nil || eidtest.Quantity(t, number) < head {
			t.Errorf("eth_blockNumber: %s %v, want %d or later", res, err, head)
		}
		if res, err := call(t, rpc, "eth_chainId", []any{}); err != nil || string(res) != fmt.Sprintf(`"%#x"`, m.ChainID) {
			t.Errorf("eth_chainId: %s %v, want %d", res, err, m.ChainID)
		}
		var ns struct{ Height uint64 }
		if res, err := call(t, rpc, "getnodestate", nil); err != nil || json.Unmarshal(res, &ns) != nil || ns.Height < head {
			t.Errorf("getnodestate: %s %v", res, err)
		}
		if status, body := get(t, root+"/"); status != 200 || string(body) != "the browser app" {
			t.Errorf("the browser app: %d %s", status, body)
		}
	})
	t.Run("not served", func(t *testing.T) {
		for _, method := range []string{"query", "getblockcount", "getblock", "getrawtransaction", "listunspent", "sendrawtransaction", "dev_mine", "evm_snapshot", "net_version"} {
			if _, err := call(t, rpc, method, nil); err == nil || err.Code != jsonrpc.CodeMethodNotFound || !strings.Contains(fmt.Sprint(err.Data), "not served by a light node") {
				t.Errorf("%s: %+v", method, err)
			}
		}
		for _, path := range []string{"/block/details/height/1", "/transaction/" + strings.Repeat("ab", 32), "/asset/balances/EYGSgJEYrhjKe3vgiazVWR8RnAtiqERGjK", "/transactionpool", "/confirm/details/height/1"} {
			// The confirm endpoints answer in a JSON-RPC style envelope.
			if _, body := get(t, rest+path); !bytes.Contains(body, []byte(`"Error":42001`)) && !bytes.Contains(body, []byte(`"code":42001`)) ||
				!bytes.Contains(body, []byte("not served by a light node")) {
				t.Errorf("%s: %s", path, body)
			}
		}
		resp, err := http.Post(rest+"/transaction", "application/json", strings.NewReader(`{"Action":"sendrawtransaction","data":"00"}`))
		if err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !bytes.Contains(b, []byte(`"Error":42001`)) {
				t.Errorf("broadcast: %s", b)
			}
		}
		for _, path := range []string{"idtx", "reset"} {
			resp, err := http.Post(rpc+path, "application/json", strings.NewReader(`{}`))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusNotImplemented {
				t.Errorf("/%s: HTTP %d", path, resp.StatusCode)
			}
		}
	})
}

// Every DID and credential of the scenario, at every checkpoint, through a
// light node's JSON-RPC: did_resolveDID and did_resolveCredential as the
// EID node answers them, byte for byte, and resolvedid with the same
// transactions.
func TestLightNodeScenario(t *testing.T) {
	for _, cp := range scenario.Checkpoints {
		t.Run(cp, func(t *testing.T) {
			u := eidtest.NewUpstream(t, eidtest.Options{Checkpoint: cp})
			n, _ := startLight(t, u.URL)
			for _, s := range u.Manifest.DIDs {
				for _, all := range []bool{true, false} {
					t.Run(fmt.Sprintf("%s all=%v", s.Name, all), func(t *testing.T) {
						direct, _ := ask(t, u.URL, "did_resolveDID", didParams(s.DID, all))
						sdk, err := call(t, n.RPCURL(), "did_resolveDID", didParams(s.DID, all))
						if err != nil || !bytes.Equal(sdk, direct) {
							t.Errorf("did_resolveDID: %v %.200s; want %.200s", err, sdk, direct)
						}
						spec, err := call(t, n.RPCURL(), "resolvedid", map[string]any{"did": s.DID, "all": all})
						if err != nil || !sameTransactions(parseResolved(t, spec), parseResolved(t, direct)) {
							t.Errorf("resolvedid: %v %.200s", err, spec)
						}
					})
				}
			}
			for _, c := range u.Manifest.Credentials {
				if len(u.Manifest.Accepted(c.ID)) == 0 {
					continue
				}
				t.Run(c.ID, func(t *testing.T) {
					p := []any{map[string]any{"id": c.ID}}
					direct, _ := ask(t, u.URL, "did_resolveCredential", p)
					if got, err := call(t, n.RPCURL(), "did_resolveCredential", p); err != nil || !bytes.Equal(got, direct) {
						t.Errorf("did_resolveCredential: %v %.200s; want %.200s", err, got, direct)
					}
				})
			}
		})
	}
}

// A light node never serves an answer that fails verification: JSON-RPC
// -32001 with what failed in data, W3C 502 with INTERNAL_ERROR; the node
// state counts the refusal and names it, and the node keeps serving.
func TestLightNodeRefuses(t *testing.T) {
	var on atomic.Bool
	u := eidtest.NewUpstream(t, eidtest.Options{Tamper: func(method string, _ json.RawMessage, answer []byte) []byte {
		if on.Load() && method == "did_resolveDID" {
			return tamper(t, answer, tamperings[0].edit)
		}
		return answer
	}})
	n, r := startLight(t, u.URL)
	alice := didOf(t, u.Manifest, "alice")
	on.Store(true)
	for _, method := range []string{"resolvedid", "did_resolveDID"} {
		if res, err := call(t, n.RPCURL(), method, didParams(alice, true)); err == nil || err.Code != jsonrpc.CodeResolverError ||
			!strings.Contains(fmt.Sprint(err.Data), "does not verify") || !strings.Contains(fmt.Sprint(err.Data), "signature") {
			t.Errorf("%s: %s %+v; want -32001 naming the signature", method, res, err)
		}
	}
	status, body := get(t, strings.TrimSuffix(n.RESTURL(), "/api/v1")+"/1.0/identifiers/"+alice)
	if status != http.StatusBadGateway || !bytes.Contains(body, []byte("INTERNAL_ERROR")) || !bytes.Contains(body, []byte("does not verify")) {
		t.Errorf("W3C: %d %s", status, body)
	}
	if st := r.State(); st.Answers.Refused != 3 || st.LastRefused == nil || st.Kept.Answers != 0 {
		t.Errorf("state %+v: want three refusals and nothing kept", st)
	}
	on.Store(false)
	if _, err := call(t, n.RPCURL(), "did_resolveDID", didParams(alice, true)); err != nil {
		t.Errorf("once the upstream answers truly: %+v", err)
	}
}
