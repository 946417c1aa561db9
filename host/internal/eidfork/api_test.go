package eidfork_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/didlight/didlight/host/internal/eidfork"
	"github.com/didlight/didlight/host/internal/eidtest"
	"github.com/didlight/didlight/host/internal/eidtest/scenario"
	"github.com/didlight/didlight/host/internal/fixture"
	"github.com/didlight/didlight/host/internal/node"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// serve serves a fork as a node does, its blocks made by fk's producer.
func serve(t *testing.T, fk *forked) *node.Node {
	t.Helper()
	n, err := node.Start(fk.c, node.Config{Fork: fk.f, Run: func(ctx context.Context) error { <-ctx.Done(); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Stop() })
	return n
}

// rpc posts one JSON-RPC request and returns its result and error members.
func rpc(t *testing.T, url, method string, params any) (result, rpcErr json.RawMessage) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r struct{ Result, Error json.RawMessage }
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatal(err)
	}
	return r.Result, r.Error
}

// TestForkServer asks a served fork in each form that takes a DID: the
// JSON-RPC reads, W3C resolution and query by id; and one whose upstream
// fails, whose error names the DID.
func TestForkServer(t *testing.T) {
	up, _ := upstream(t, scenario.Final)
	fk := newFork(t, mem.New(), up.URL, headOf(t, up.Manifest, scenario.Final), -1)
	n := serve(t, fk)
	alice, bob, carol := didOf(t, up.Manifest, "alice"), didOf(t, up.Manifest, "bob"), didOf(t, up.Manifest, "carol")

	got, rerr := rpc(t, n.RPCURL(), "did_resolveDID", []any{map[string]any{"did": alice.String(), "all": true}})
	if want := recorded(t, up, alice); string(got) != want {
		t.Errorf("did_resolveDID of alice: %s %s, want %s", got, rerr, want)
	}
	resp, err := http.Get(strings.TrimSuffix(n.RESTURL(), "api/v1") + "1.0/identifiers/" + bob.String())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), bob.String()) {
		t.Errorf("W3C resolution of bob: %d %.300s", resp.StatusCode, b)
	}
	got, rerr = rpc(t, n.RPCURL(), "query", map[string]any{"query": `{"id":"` + carol.String() + `"}`})
	if !strings.Contains(string(got), carol.String()) {
		t.Errorf("query by carol's id: %s %s", got, rerr)
	}

	dave := didOf(t, up.Manifest, "dave")
	got, rerr = rpc(t, n.RPCURL(), "listcredentials", map[string]any{"did": dave.String()})
	if strings.Count(string(got), dave.String()+"#") != 5 {
		t.Errorf("listcredentials of dave: %s %s, want its 5 credentials", got, rerr)
	}
	got, rerr = rpc(t, n.RPCURL(), "resolvecredential", map[string]any{"id": dave.String() + "#c1"})
	if !strings.Contains(string(got), `"status":0`) {
		t.Errorf("resolvecredential of dave#c1: %s %s", got, rerr)
	}

	down := eidtest.NewReplay(t, eidtest.Options{Fault: func(int) eidtest.Fault { return eidtest.Status500 }})
	failing := serve(t, newFork(t, mem.New(), down.URL, 1, -1))
	got, rerr = rpc(t, failing.RPCURL(), "resolvedid", map[string]any{"did": alice.String()})
	if got != nil || !strings.Contains(string(rerr), alice.String()) {
		t.Errorf("resolvedid with the upstream failing: %s %s, want an error naming %s", got, rerr, alice)
	}
}

// restGet gets a REST path and returns its Error code and Result.
func restGet(t *testing.T, url string) (code int, result string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r struct {
		Error  int
		Result json.RawMessage
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatal(err)
	}
	return r.Error, string(r.Result)
}

// TestEIDTransactionLookups asks getrawtransaction (JSON-RPC) and GET
// /api/v1/transaction/{txid} (REST) for the EID transactions whose
// operations a fork took, and a devnet loaded from its export: each
// answers 42001 naming the txid, its operation, its EID block and where to
// ask, while a txid nobody holds answers Unknown Transaction as before.
func TestEIDTransactionLookups(t *testing.T) {
	up, _ := upstream(t, scenario.Final)
	fk := newFork(t, mem.New(), up.URL, headOf(t, up.Manifest, scenario.Final), -1)
	alice := didOf(t, up.Manifest, "alice")
	fk.resolve(t, alice)
	kept, err := eidfork.Taken(fk.c)
	if err != nil || len(kept) != 1 || len(kept[0].Ops) < 2 {
		t.Fatalf("the fork took %v (%v), want alice with two operations or more", kept, err)
	}
	f, err := fixture.Export(fk.c)
	if err != nil {
		t.Fatal(err)
	}
	ops := kept[0].Ops
	newest, oldest := ops[len(ops)-1], ops[0]
	wants := []struct {
		txid, op, block string
	}{
		{newest.Txid, newest.Request.Header.Operation, fmt.Sprintf("taken from EID block %d;", newest.Block)},
		{oldest.Txid, "create", fmt.Sprintf("taken from an EID block at or below %d;", oldest.Block)},
	}
	unknown := strings.Repeat("ab", 32)
	for name, n := range map[string]*node.Node{"fork": serve(t, fk), "import": serveChain(t, roundTrip(t, f))} {
		t.Run(name, func(t *testing.T) {
			for _, w := range wants {
				_, rerr := rpc(t, n.RPCURL(), "getrawtransaction", []any{w.txid})
				var e struct {
					Code    int
					Message string
					Data    string
				}
				if err := json.Unmarshal(rerr, &e); err != nil {
					t.Fatalf("getrawtransaction %s: %s (%v)", w.txid, rerr, err)
				}
				code, result := restGet(t, n.RESTURL()+"/transaction/"+w.txid)
				for _, got := range []struct {
					listener string
					code     int
					detail   string
				}{{"JSON-RPC", e.Code, e.Data}, {"REST", code, result}} {
					if got.code != 42001 {
						t.Errorf("%s %s: code %d, want 42001", got.listener, w.txid, got.code)
					}
					for _, part := range []string{"transaction " + w.txid + " is an EID transaction", "the " + w.op + " of " + alice.String(), w.block, "eth_getTransactionByHash 0x" + w.txid} {
						if !strings.Contains(got.detail, part) {
							t.Errorf("%s %s: %q lacks %q", got.listener, w.txid, got.detail, part)
						}
					}
				}
			}
			_, rerr := rpc(t, n.RPCURL(), "getrawtransaction", []any{unknown})
			if want := `{"code":-32002,"message":"Unknown Transaction","data":"no transaction ` + unknown + `"}`; string(rerr) != want {
				t.Errorf("getrawtransaction of an unknown txid: %s, want %s", rerr, want)
			}
			if code, result := restGet(t, n.RESTURL()+"/transaction/"+unknown); code != 44001 || result != `"no transaction `+unknown+`"` {
				t.Errorf("REST lookup of an unknown txid: %d %s", code, result)
			}
		})
	}
}
