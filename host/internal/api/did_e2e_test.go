package api_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
)

// The four statuses of resolvedid, each reached through real signed
// operations published over /idtx, under both method names and both
// params forms.
func TestResolveStatuses(t *testing.T) {
	n := startNode(t, 0)
	year := yearFromNow()

	// 0: valid, then updated; the history is newest first.
	alice := newIdentity(t, "alice")
	create := n.publish(alice, alice.create(year, alice.service("hive", "HiveVault")))
	res := n.resolve("resolvedid", alice.did.String(), false)
	n.checkResolved(res, alice.did, 0, []string{create}, []string{idop.Create})
	update := n.publish(alice, alice.update(create, year, alice.service("hive", "HiveVault"), alice.service("web", "LinkedDomains")))
	n.checkResolved(n.resolve("resolvedid", alice.did.String(), false), alice.did, 0, []string{update}, []string{idop.Update})
	all := n.resolve("resolvedid", alice.did.String(), true)
	n.checkResolved(all, alice.did, 0, []string{update, create}, []string{idop.Update, idop.Create})
	if prev := all.Transaction[0].op(t).Header.PreviousTxid; prev != create {
		t.Errorf("update's previousTxid %s, want the create %s", prev, create)
	}
	// The bare method-specific id resolves too; the answer names the full DID.
	n.checkResolved(n.resolve("resolvedid", alice.did.ID(), false), alice.did, 0, []string{update}, []string{idop.Update})

	// 2: deactivated. Without all: the deactivate, then the transaction of
	// the document it deactivated; with all: every operation.
	carol := newIdentity(t, "carol")
	carolCreate := n.publish(carol, carol.create(year))
	deactivate := n.publish(carol, carol.deactivate())
	n.checkResolved(n.resolve("resolvedid", carol.did.String(), false), carol.did, 2, []string{deactivate, carolCreate}, []string{idop.Deactivate, idop.Create})
	n.checkResolved(n.resolve("resolvedid", carol.did.String(), true), carol.did, 2, []string{deactivate, carolCreate}, []string{idop.Deactivate, idop.Create})

	// 3: never created: no transaction member at all.
	dave := newIdentity(t, "dave")
	for _, all := range []bool{false, true} {
		raw := n.call("resolvedid", map[string]any{"did": dave.did.String(), "all": all}).Result
		var members map[string]json.RawMessage
		json.Unmarshal(raw, &members)
		if _, ok := members["transaction"]; ok || string(members["status"]) != "3" || string(members["did"]) != `"`+dave.did.String()+`"` {
			t.Errorf("unknown DID, all=%v: %s, want status 3 and no transaction member", all, raw)
		}
	}

	// 1: expired, once the chain's time passes the document's expires. The
	// SDK method names answer 0 instead (node-log decision: the SDKs throw on 1).
	bob := newIdentity(t, "bob")
	bobCreate := n.publish(bob, bob.create(time.Now().Add(time.Hour)))
	n.checkResolved(n.resolve("resolvedid", bob.did.String(), false), bob.did, 0, []string{bobCreate}, []string{idop.Create})
	n.devIncreaseTime(2 * 3600)
	n.checkResolved(n.resolve("resolvedid", bob.did.String(), false), bob.did, 1, []string{bobCreate}, []string{idop.Create})
	n.checkResolved(n.resolve("resolvedid", bob.did.String(), true), bob.did, 1, []string{bobCreate}, []string{idop.Create})
	n.checkResolved(n.resolve("did_resolveDID", bob.did.String(), false), bob.did, 0, []string{bobCreate}, []string{idop.Create})
	n.checkResolved(n.resolve("did_resolveDID", bob.did.String(), true), bob.did, 0, []string{bobCreate}, []string{idop.Create})

	// The SDK names give the same answers otherwise, with the params in
	// EID's form (an array holding one object).
	for _, d := range []identity{alice, carol, dave} {
		for _, all := range []bool{false, true} {
			want := n.call("resolvedid", map[string]any{"did": d.did.String(), "all": all}).Result
			params := []any{map[string]any{"did": d.did.String(), "all": all}}
			if got := n.call("did_resolveDID", params).Result; string(got) != string(want) {
				t.Errorf("did_resolveDID %v = %s, resolvedid = %s", params, got, want)
			}
		}
	}
	// all left out means false, in either name.
	if got, want := n.call("did_resolveDID", []any{map[string]any{"did": alice.did.String()}}).Result,
		n.call("resolvedid", map[string]any{"did": alice.did.String(), "all": false}).Result; string(got) != string(want) {
		t.Errorf("did_resolveDID without all = %s, want %s", got, want)
	}
}

// checkResolved checks a resolve result: the DID in full form, the status,
// the transactions (txids and operations, in order), each timestamp the
// time of its block, and each operation signed as published.
func (n *node) checkResolved(r resolved, d did.DID, status int, txids, ops []string) {
	n.t.Helper()
	if r.DID != d.String() || r.Status != status {
		n.t.Errorf("resolve %s: did %s status %d, want %s %d", d, r.DID, r.Status, d, status)
	}
	var gotTxids, gotOps []string
	for _, x := range r.Transaction {
		gotTxids = append(gotTxids, x.Txid)
		op := x.op(n.t)
		gotOps = append(gotOps, op.Header.Operation)
		decoded, err := idop.Decode(op)
		if err != nil || decoded.DID != d {
			n.t.Errorf("operation %s: %v, DID %s", x.Operation, err, decoded.DID)
		}
		var tx struct{ Blocktime int64 }
		n.ok("/transaction/"+x.Txid, &tx)
		if want := time.Unix(tx.Blocktime, 0).UTC().Format(time.RFC3339); x.Timestamp != want || !strings.HasSuffix(x.Timestamp, "Z") {
			n.t.Errorf("transaction %s: timestamp %s, want its block time %s", x.Txid, x.Timestamp, want)
		}
	}
	if !slices.Equal(gotTxids, txids) || !slices.Equal(gotOps, ops) {
		n.t.Errorf("resolve %s: transactions %v %v, want %v %v", d, gotTxids, gotOps, txids, ops)
	}
}

// devIncreaseTime moves the chain clock and mines a block stamped with it.
func (n *node) devIncreaseTime(seconds int64) {
	n.t.Helper()
	var moved struct{ Time int64 }
	before := time.Now().Unix()
	n.result("dev_increaseTime", map[string]any{"seconds": seconds}, &moved)
	if moved.Time < before+seconds {
		n.t.Errorf("dev_increaseTime %d: chain time %d, want at least %d", seconds, moved.Time, before+seconds)
	}
	var mined struct {
		Height uint32
		Hash   string
	}
	n.result("dev_mine", nil, &mined)
	var hash string
	n.ok("/block/hash/"+itoa(mined.Height), &hash)
	if mined.Height != n.height() || hash != mined.Hash {
		n.t.Errorf("dev_mine = %+v; the chain's tip is %d, its hash %s", mined, n.height(), hash)
	}
	var block struct{ Time int64 }
	n.ok("/block/details/hash/"+mined.Hash, &block)
	if block.Time < moved.Time {
		n.t.Errorf("block mined after dev_increaseTime has time %d, before the chain time %d", block.Time, moved.Time)
	}
}
