package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/idop"
)

// /idtx as the SDKs' simulated-chain adapter uses it: 202 once mined, 400
// with the code and the rule for a request the chain refuses.
func TestIDTx(t *testing.T) {
	n := startNode(t, 0)
	alice := newIdentity(t, "alice")
	create := alice.create(yearFromNow(), alice.service("hive", "HiveVault"))
	txid := n.publish(alice, create) // 202, then resolvable

	forged := alice.update(txid, yearFromNow())
	forged.Proof.Signature = create.Proof.Signature
	other := newIdentity(t, "other")
	for _, tc := range []struct {
		name string
		body []byte
		rule idop.Rule
	}{
		{"not JSON", []byte(`{"header":`), idop.RuleMalformed},
		{"no proof", []byte(`{"header":{"specification":"elastos/did/1.0","operation":"create"},"payload":"e30"}`), idop.RuleMalformed},
		{"unknown operation", requestJSON(t, withOperation(create, "erase")), idop.RuleMalformed},
		{"a second create", requestJSON(t, alice.create(yearFromNow())), idop.RuleCreateExists},
		{"an update naming another transaction", requestJSON(t, alice.update(strings.Repeat("ab", 32), yearFromNow())), idop.RulePreviousTxid},
		{"a signature of another request", requestJSON(t, forged), idop.RuleSignature},
		{"an update of a DID that does not exist", requestJSON(t, other.update(txid, yearFromNow())), idop.RuleNotFound},
		{"a deactivate of a DID that does not exist", requestJSON(t, other.deactivate()), idop.RuleNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, h, body := n.do("POST", n.rpcURL+"idtx", "application/json", tc.body)
			var e struct {
				Code    int
				Message string
				Rule    idop.Rule
			}
			strict(t, body, &e)
			if status != http.StatusBadRequest || e.Code != 45009 || e.Rule != tc.rule || e.Message == "" || !strings.HasPrefix(h.Get("Content-Type"), "application/json") {
				t.Errorf("/idtx %s: %d %s, want 400 with code 45009 and rule %s", tc.name, status, body, tc.rule)
			}
		})
	}
	// Nothing refused changed the DID.
	n.checkResolved(n.resolve("resolvedid", alice.did.String(), true), alice.did, 0, []string{txid}, []string{idop.Create})

	// The adapter resolves through /resolve with a JSON-RPC body.
	r := n.decode(n.post("resolve", `{"method":"did_resolveDID","params":[{"did":"`+alice.did.String()+`"}],"id":"sdk"}`))
	var res resolved
	if r.Error != nil || json.Unmarshal(r.Result, &res) != nil || res.Status != 0 || string(r.ID) != `"sdk"` {
		t.Errorf("/resolve: %+v", r)
	}
}

func withOperation(r idop.Request, op string) idop.Request {
	r.Header.Operation = op
	return r
}

// /reset wipes the devnet back to its genesis block, the state every SDK
// test starts from.
func TestReset(t *testing.T) {
	n := startNode(t, 0)
	dev := n.chain.DevAccount().Address
	var genesisHash, genesisBalance string
	n.ok("/block/hash/0", &genesisHash)
	n.ok("/asset/balances/"+dev, &genesisBalance)
	alice := newIdentity(t, "alice")
	n.publish(alice, alice.create(yearFromNow()))
	if n.height() == 0 {
		t.Fatal("no block after /idtx")
	}

	for _, q := range []string{"?idtxsonly", "?vctxsonly", "?idtxsonly=1"} {
		status, _, body := n.do("POST", n.rpcURL+"reset"+q, "", nil)
		if status != http.StatusBadRequest || !strings.Contains(string(body), "not supported") {
			t.Errorf("/reset%s: %d %s, want 400", q, status, body)
		}
	}
	if n.height() == 0 {
		t.Fatal("a refused /reset reset the chain")
	}

	status, _, body := n.do("POST", n.rpcURL+"reset", "", nil)
	if status != http.StatusOK || len(body) != 0 {
		t.Fatalf("/reset: %d %s", status, body)
	}
	var hash, balance string
	n.ok("/block/hash/0", &hash)
	n.ok("/asset/balances/"+dev, &balance)
	if h := n.height(); h != 0 || hash != genesisHash || balance != genesisBalance {
		t.Errorf("after /reset: height %d, genesis %s, dev balance %s; want 0, %s, %s", h, hash, balance, genesisHash, genesisBalance)
	}
	n.checkResolved(n.resolve("resolvedid", alice.did.String(), true), alice.did, 3, nil, nil)
	// The same DID can be created again from scratch.
	txid := n.publish(alice, alice.create(yearFromNow()))
	n.checkResolved(n.resolve("resolvedid", alice.did.String(), true), alice.did, 0, []string{txid}, []string{idop.Create})
}
