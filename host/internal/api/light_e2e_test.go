package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/jsonrpc"
	"github.com/didlight/didlight/core/w3c"
	"github.com/didlight/didlight/host/internal/api"
)

// stubLight is a light resolver whose upstream is this test: it answers
// every DID read with a result naming the call, and refuses the DID
// refusedDID as a light resolver refuses an answer that does not verify.
type stubLight struct{ calls atomic.Int64 }

const refusedDID = "did:elastos:iXL5CwirB6v5MSrYDC8zS57TRQ9ZHE71WN"

// refusal is an error that says how JSON-RPC answers it, as the light
// resolver's do.
type refusal struct{}

func (refusal) Error() string { return "the upstream's answer does not verify: signature" }
func (refusal) RPCError() *jsonrpc.Error {
	return jsonrpc.ResolverError("the upstream's answer does not verify: signature")
}

func (s *stubLight) answer(method string, d did.DID) ([]byte, error) {
	s.calls.Add(1)
	if d.String() == refusedDID {
		return nil, fmt.Errorf("light: %w", refusal{})
	}
	return fmt.Appendf(nil, `{"stub":%q,"did":%q}`, method, d), nil
}

func (s *stubLight) ResolveDID(_ context.Context, d did.DID, _ bool) ([]byte, error) {
	return s.answer("resolvedid", d)
}
func (s *stubLight) ResolveDIDSDK(_ context.Context, d did.DID, _ bool) ([]byte, error) {
	return s.answer("did_resolveDID", d)
}
func (s *stubLight) ResolveCredential(_ context.Context, id did.URL, _ *did.DID) ([]byte, error) {
	return s.answer("credential", id.DID)
}
func (s *stubLight) ListCredentials(_ context.Context, d did.DID, _, _ int) ([]byte, error) {
	return s.answer("list", d)
}
func (s *stubLight) ResolveW3C(_ context.Context, id, _, _ string) (w3c.Response, error) {
	s.calls.Add(1)
	return w3c.Response{Status: 200, ContentType: w3c.MediaResolution, Body: fmt.Appendf(nil, `{"stub":%q}`, id)}, nil
}
func (s *stubLight) Head() (uint64, time.Time, bool) { return 4_000_000_123, time.Unix(1e9, 0), true }
func (s *stubLight) ChainID() (uint64, bool)         { return 22, true }
func (s *stubLight) Status() any                     { return map[string]string{"Mode": "light"} }
func (s *stubLight) Sync() (uint64, uint64, error)   { return 4_000_000_123, 4_000_000_123, nil }

// lightServes are the JSON-RPC methods a light node serves: the DID reads
// but query, and the node's own reads and probes.
var lightServes = []string{"resolvedid", "did_resolveDID", "resolvecredential", "did_resolveCredential", "listcredentials", "did_listCredentials",
	"getconnectioncount", "getneighbors", "getnodestate", "eth_blockNumber", "eth_chainId"}

// A light node's server asks its resolver for every DID read, answers its
// errors as they say, reports its upstream's head, and answers every other
// JSON-RPC method and every route of a ledger or a write with "not served
// by a light node": every method and route the server has, taken from the
// server itself.
func TestLightServer(t *testing.T) {
	stub := &stubLight{}
	srv := api.NewLight(stub, api.Options{})
	if err := srv.Listen("127.0.0.1:0", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- srv.Serve(ctx) }()
	defer func() { stop(); <-done }()
	rpc, rest := srv.RPCURL(), srv.RESTURL()
	hc := &http.Client{Timeout: 30 * time.Second}
	post := func(url, body string) (int, string) {
		resp, err := hc.Post(url, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}

	alice := "did:elastos:iop7hwsiP3uDuf5TjvZxGB44tUTvuj2vQS"
	params := map[string]string{
		"resolvedid": `{"did":"` + alice + `"}`, "did_resolveDID": `[{"did":"` + alice + `"}]`,
		"resolvecredential": `{"id":"` + alice + `#c"}`, "did_resolveCredential": `[{"id":"` + alice + `#c"}]`,
		"listcredentials": `{"did":"` + alice + `"}`, "did_listCredentials": `[{"did":"` + alice + `"}]`,
	}
	for name := range api.Methods() {
		t.Run(name, func(t *testing.T) {
			p := params[name]
			if p == "" {
				p = "[]"
			}
			_, body := post(rpc, `{"jsonrpc":"2.0","id":1,"method":"`+name+`","params":`+p+`}`)
			var resp struct {
				Result json.RawMessage
				Error  *jsonrpc.Error
			}
			if err := json.Unmarshal([]byte(body), &resp); err != nil {
				t.Fatalf("%v: %s", err, body)
			}
			notServed := resp.Error != nil && resp.Error.Code == jsonrpc.CodeMethodNotFound && strings.Contains(fmt.Sprint(resp.Error.Data), "not served by a light node")
			switch served := slices.Contains(lightServes, name); {
			case served && (resp.Error != nil || resp.Result == nil):
				t.Errorf("%s", body)
			case !served && !notServed:
				t.Errorf("%s: want -32601, not served by a light node", body)
			case params[name] != "" && !strings.Contains(string(resp.Result), alice):
				t.Errorf("%s: want the resolver's answer", body)
			}
		})
	}
	for method, want := range map[string]string{"eth_blockNumber": `"0xee6b287b"`, "eth_chainId": `"0x16"`} {
		if _, body := post(rpc, `{"jsonrpc":"2.0","id":1,"method":"`+method+`"}`); !strings.Contains(body, `"result":`+want) {
			t.Errorf("%s: %s, want %s: the upstream's", method, body, want)
		}
	}
	if _, body := post(rpc, `{"jsonrpc":"2.0","id":1,"method":"did_resolveDID","params":[{"did":"`+refusedDID+`"}]}`); !strings.Contains(body, `"code":-32001`) || !strings.Contains(body, "does not verify") {
		t.Errorf("a refused answer: %s", body)
	}

	served := regexp.MustCompile(`^GET /api/v1/(node/state|node/connectioncount|block/height|restart)$|^OPTIONS |^(GET|POST) /1\.0/|^GET /openapi\.json$|^/$|^/api/$|^POST /(\{\$\}|resolve)$|^/$|^GET /(health|ready)$`)
	filled := strings.NewReplacer("{height}", "1", "{hash}", strings.Repeat("ab", 32), "{assetid}", strings.Repeat("ab", 32),
		"{addr}", "EYGSgJEYrhjKe3vgiazVWR8RnAtiqERGjK", "{identifier...}", alice, "{$}", "")
	for _, rt := range srv.Routes() {
		if served.MatchString(rt.Pattern) {
			continue
		}
		t.Run(rt.Pattern, func(t *testing.T) {
			method, path, _ := strings.Cut(rt.Pattern, " ")
			url := rest + strings.TrimPrefix(filled.Replace(path), "/api/v1")
			if rt.Listener == "rpc" {
				url = strings.TrimSuffix(rpc, "/") + filled.Replace(path)
			}
			req, _ := http.NewRequest(method, url, strings.NewReader(`{}`))
			resp, err := hc.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !strings.Contains(string(b), "42001") || !strings.Contains(string(b), "not served by a light node") {
				t.Errorf("%s %s: HTTP %d %s", method, url, resp.StatusCode, b)
			}
		})
	}
	for path, want := range map[string]string{"/block/height": `"Result":4000000123`, "/node/state": `"Light":{"Mode":"light"}`, "/node/connectioncount": `"Result":0`} {
		resp, err := hc.Get(rest + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(b), want) {
			t.Errorf("%s: %s, want %s", path, b, want)
		}
	}
	if stub.calls.Load() < 7 {
		t.Errorf("the resolver was asked %d times", stub.calls.Load())
	}
}
