package api_test

import (
	"encoding/json"
	"testing"
	"time"
)

// The devnet controls take their params by position, as the Anvil and
// Hardhat methods they mirror take theirs (anvil_mine [blocks, interval],
// evm_increaseTime [seconds], evm_revert [id], evm_setNextBlockTimestamp
// [time]), numbers or hex quantities, as well as by name, and as an array
// holding the object.
func TestDevControlsPositional(t *testing.T) {
	n := startNode(t, time.Hour)
	tipTime := func() int64 { return n.blockTime(n.height()) }
	var tip struct {
		Height uint32
		Hash   string
	}
	var moved struct{ Time int64 }

	n.result("dev_mine", []any{3}, &tip)
	if tip.Height != 3 || n.height() != 3 {
		t.Fatalf("dev_mine [3]: %+v, chain at %d; want 3 blocks", tip, n.height())
	}
	n.result("dev_mine", []any{"0x2", 3600}, &tip)
	if tip.Height != 5 || tipTime()-n.blockTime(4) != 3600 {
		t.Errorf("dev_mine [\"0x2\", 3600]: %+v, blocks 4 and 5 at %d and %d; want height 5, an hour apart", tip, n.blockTime(4), tipTime())
	}
	n.result("dev_mine", map[string]any{"blocks": 2}, &tip)
	if tip.Height != 7 {
		t.Errorf("dev_mine {blocks: 2}: height %d, want 7", tip.Height)
	}

	before := tipTime()
	n.result("dev_increaseTime", []any{2592000}, &moved)
	if moved.Time < before+2592000-10 || tipTime() != moved.Time { // the tip may be a few seconds ahead of the clock
		t.Errorf("dev_increaseTime [2592000]: %d, tip at %d; want a block 30 days after %d", moved.Time, tipTime(), before)
	}
	n.result("dev_increaseTime", []any{"0x3c"}, &moved)
	n.result("dev_increaseTime", []any{map[string]any{"seconds": 60}}, &moved)

	next := tipTime() + 86400
	n.result("dev_setNextBlockTime", []any{next}, &moved)
	n.result("dev_mine", []any{}, &tip)
	if moved.Time != next || tipTime() != next {
		t.Errorf("dev_setNextBlockTime [%d]: %d, the next block at %d", next, moved.Time, tipTime())
	}

	var snap struct{ ID string }
	n.result("dev_snapshot", []any{}, &snap)
	then := n.state()
	n.result("dev_mine", []any{1}, &tip)
	n.result("dev_revert", []any{snap.ID}, &tip)
	if now := n.state(); now != then {
		t.Errorf("dev_revert [%q]:\n%s\nwant\n%s", snap.ID, now, then)
	}
	n.result("dev_mine", []any{1}, &tip)
	n.result("dev_revert", []any{map[string]any{"id": snap.ID}}, &tip)
	if now := n.state(); now != then {
		t.Errorf("dev_revert [{id: %q}]:\n%s\nwant\n%s", snap.ID, now, then)
	}

	for _, c := range []struct {
		method string
		params any
		want   string
	}{
		{"dev_mine", []any{0}, "blocks must be a whole number from 1 to"},
		{"dev_mine", []any{1000001}, "blocks must be a whole number from 1 to"},
		{"dev_mine", []any{1, 2, 3}, "params holds 3 values; the method takes at most 2: blocks, interval"},
		{"dev_mine", []any{"three"}, "blocks: want a whole number"},
		{"dev_increaseTime", []any{}, "seconds is missing"},
		{"dev_increaseTime", []any{-5}, "seconds: want a whole number"},
		{"dev_increaseTime", []any{1.5}, "seconds: want a whole number"},
		{"dev_setNextBlockTime", []any{1}, "is not after the tip's"},
		{"dev_setNextBlockTime", []any{"soon"}, "neither an RFC 3339 time"},
		{"dev_revert", []any{"0x99"}, "no snapshot 0x99"},
		{"dev_revert", []any{"0x1", "0x2"}, "params holds 2 values"},
		{"dev_snapshot", []any{1}, "params holds 1 values; the method takes none"},
		{"dev_reset", []any{"yesterday"}, "neither an RFC 3339 time"},
	} {
		before := n.state()
		checkRPCError(t, c.method, n.call(c.method, c.params), -32602, "Invalid params", c.want)
		n.unchanged(c.method, before)
	}
}

// The evm_* names test helpers call are served, with the shapes of their
// results in Anvil, Hardhat and ganache: evm_snapshot a hex quantity,
// evm_revert a boolean (false for an id that names no snapshot),
// evm_mine "0x0", evm_increaseTime the chain clock's lead on the wall
// clock in seconds (a number, as Anvil and ganache answer), without a
// block, evm_setNextBlockTimestamp null.
func TestEVMAliases(t *testing.T) {
	n := startNode(t, time.Hour)
	raw := func(method string, params any) string {
		t.Helper()
		var r json.RawMessage
		n.result(method, params, &r)
		return string(r)
	}
	if got := raw("evm_snapshot", []any{}); got != `"0x1"` {
		t.Errorf("evm_snapshot: %s, want \"0x1\"", got)
	}
	then := n.state()
	if got := raw("evm_mine", []any{}); got != `"0x0"` || n.height() != 1 {
		t.Errorf("evm_mine: %s, chain at %d; want \"0x0\" and a block", got, n.height())
	}
	tip := n.blockTime(1)
	if got := raw("evm_mine", []any{tip + 100}); got != `"0x0"` || n.blockTime(2) != tip+100 {
		t.Errorf("evm_mine [%d]: %s, block 2 at %d", tip+100, got, n.blockTime(2))
	}
	var offset int64
	n.result("evm_increaseTime", []any{3600}, &offset)
	if offset < 3600 || n.height() != 2 {
		t.Errorf("evm_increaseTime [3600]: %d, chain at %d; want at least an hour's lead and no block", offset, n.height())
	}
	n.result("evm_increaseTime", []any{"0xe10"}, &offset)
	if got := raw("evm_mine", []any{map[string]any{"blocks": 2}}); got != `"0x0"` || n.height() != 4 {
		t.Errorf("evm_mine [{blocks: 2}]: %s, chain at %d; want 4", got, n.height())
	}
	if n.blockTime(3) < time.Now().Unix()+7200-5 {
		t.Errorf("the block after two evm_increaseTime of an hour is at %d, want two hours ahead of the wall clock", n.blockTime(3))
	}
	next := n.blockTime(4) + 1000
	if got := raw("evm_setNextBlockTimestamp", []any{next}); got != "null" {
		t.Errorf("evm_setNextBlockTimestamp: %s, want null", got)
	}
	raw("evm_mine", nil)
	if n.blockTime(5) != next {
		t.Errorf("after evm_setNextBlockTimestamp [%d] the block is at %d", next, n.blockTime(5))
	}
	if got := raw("evm_revert", []any{"0x1"}); got != "true" {
		t.Errorf("evm_revert [\"0x1\"]: %s, want true", got)
	}
	if now := n.state(); now != then {
		t.Errorf("after evm_revert:\n%s\nwant\n%s", now, then)
	}
	before := n.state()
	if got := raw("evm_revert", []any{"0x7"}); got != "false" {
		t.Errorf("evm_revert of an unknown id: %s, want false", got)
	}
	n.unchanged("evm_revert of an unknown id", before)
	if got := raw("evm_revert", []any{"0x1"}); got != "true" {
		t.Errorf("evm_revert [\"0x1\"] again: %s, want true (the snapshot is kept)", got)
	}
	for _, c := range []struct {
		method string
		params any
		want   string
	}{
		{"evm_revert", []any{}, "id is missing"},
		{"evm_mine", []any{1}, "is not after the tip's"},
		{"evm_increaseTime", []any{0}, "seconds must be a whole number from 1 to"},
		{"evm_setNextBlockTimestamp", []any{}, "time is missing"},
	} {
		before := n.state()
		checkRPCError(t, c.method, n.call(c.method, c.params), -32602, "Invalid params", c.want)
		n.unchanged(c.method, before)
	}
}
