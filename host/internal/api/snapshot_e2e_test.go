package api_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/didlight/didlight/core/ela"
)

// dev_snapshot and dev_revert put chain, mempool and indexes back; the
// snapshot reverted to stays and later ones go; an unknown id is refused
// and changes nothing.
func TestDevSnapshot(t *testing.T) {
	n := startNode(t, time.Hour) // blocks only when dev_mine asks
	alice, bob := newIdentity(t, "alice"), newIdentity(t, "bob")
	year := yearFromNow()
	n.splitDev(4)
	outs := n.devUTXOs()
	mined := func(in devOutput, payload ela.Payload, pay map[ela.ProgramHash]ela.Fixed64, mine bool) {
		t.Helper()
		if e := n.broadcast(n.devTx(in, payload, 100, pay).Bytes()); e.Error != 0 {
			t.Fatalf("broadcast: %+v", e)
		}
		if mine {
			n.result("dev_mine", nil, &struct{}{})
		}
	}
	mined(outs[0], operation(alice.create(year)), nil, true)
	payee := address(newIdentity(t, "payee").key)
	mined(outs[1], &ela.TransferAsset{}, map[ela.ProgramHash]ela.Fixed64{payee: ela.OneELA}, false) // pooled
	then := n.state()
	aliceThen, bobThen := n.resolve("resolvedid", alice.did.String(), true), n.resolve("resolvedid", bob.did.String(), true)
	var snap struct{ ID string }
	n.result("dev_snapshot", nil, &snap)
	if snap.ID != "0x1" {
		t.Fatalf("dev_snapshot: id %q, want 0x1", snap.ID)
	}

	mined(outs[2], operation(bob.create(year)), nil, true) // with the payment
	n.result("dev_snapshot", []any{}, &snap)
	if snap.ID != "0x2" {
		t.Fatalf("the second dev_snapshot: id %q, want 0x2", snap.ID)
	}
	mined(outs[3], operation(alice.deactivate()), nil, true)
	n.devIncreaseTime(3600)

	for _, c := range []struct {
		params any
		want   string
	}{
		{nil, "id is missing"},
		{map[string]any{"id": "0x9"}, "no snapshot 0x9: never taken, or dropped by a revert to an earlier one"},
		{map[string]any{"id": 0}, "no snapshot 0x0"},
		{map[string]any{"id": "1"}, `id \"1\" is not a snapshot id: want the id dev_snapshot gave`},
		{map[string]any{"id": "0xzz"}, "want the id dev_snapshot gave"},
		{map[string]any{"id": -1}, "want the id dev_snapshot gave"},
		{map[string]any{"id": 1.5}, "want the id dev_snapshot gave"},
		{map[string]any{"id": "0x1", "time": 1}, "unknown parameter"},
	} {
		before := n.state()
		checkRPCError(t, "dev_revert", n.call("dev_revert", c.params), -32602, "Invalid params", c.want)
		n.unchanged("dev_revert", before)
	}

	var tip struct {
		Height uint32
		Hash   string
	}
	n.result("dev_revert", map[string]any{"id": "0x1"}, &tip)
	if now := n.state(); now != then {
		t.Errorf("after dev_revert 0x1:\n%s\nwant\n%s", now, then)
	}
	if h := n.height(); tip.Height != h {
		t.Errorf("dev_revert answered height %d, the chain is at %d", tip.Height, h)
	}
	for i, c := range []struct {
		who  identity
		then resolved
	}{{alice, aliceThen}, {bob, bobThen}} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			got, _ := json.Marshal(n.resolve("resolvedid", c.who.did.String(), true))
			want, _ := json.Marshal(c.then)
			if string(got) != string(want) {
				t.Errorf("%s after the revert resolves %s, want %s", c.who.did, got, want)
			}
		})
	}
	checkRPCError(t, "dev_revert 0x2 after 0x1", n.call("dev_revert", map[string]any{"id": "0x2"}), -32602, "Invalid params", "no snapshot 0x2")

	// Numbers work too, and ids are not given twice.
	n.result("dev_snapshot", nil, &snap)
	if snap.ID != "0x3" {
		t.Errorf("dev_snapshot after the revert: %q, want 0x3", snap.ID)
	}
	n.result("dev_revert", map[string]any{"id": 3}, &tip)
	if now := n.state(); now != then {
		t.Errorf("after dev_revert 3:\n%s\nwant\n%s", now, then)
	}
	n.result("dev_mine", nil, &tip)
	n.result("dev_revert", map[string]any{"id": "0x1"}, &tip)
	if now := n.state(); now != then {
		t.Errorf("after dev_revert 0x1 again:\n%s\nwant\n%s", now, then)
	}
	checkRPCError(t, "dev_revert 0x3 after 0x1", n.call("dev_revert", map[string]any{"id": "0x3"}), -32602, "Invalid params", "no snapshot 0x3")
}
