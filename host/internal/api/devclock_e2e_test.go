package api_test

import (
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
)

// vectorIdentity is the SDK vector v1/user1, whose document expires on
// 2026-01-18, with its key, and the create operation of that document.
func vectorIdentity(t *testing.T) (identity, idop.Request) {
	t.Helper()
	read := func(name string) []byte {
		b, err := os.ReadFile("../../../core/internal/vectors/data/elastos-did-sdk/v1/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	doc, err := did.ParseDocument(read("user1.id.json"))
	if err != nil {
		t.Fatal(err)
	}
	key, err := keys.ParseExtendedPrivateKey(strings.TrimSpace(string(read("user1.id.primary.sk"))))
	if err != nil {
		t.Fatal(err)
	}
	pk, _ := doc.DefaultKey()
	req, err := idop.NewCreate(doc, pk.ID, key)
	if err != nil {
		t.Fatal(err)
	}
	return identity{t: t, key: key, did: doc.Subject(), primary: pk.ID}, req
}

// genesis is dev_reset's answer.
type genesis struct {
	Height uint32
	Hash   string
	Time   int64
}

// blockTime returns the time of the block at height, read over REST.
func (n *node) blockTime(height uint32) int64 {
	n.t.Helper()
	var b struct{ Time int64 }
	n.ok("/block/details/height/"+itoa(height), &b)
	return b.Time
}

// A chain reset to a time before the SDK vectors expire takes their
// documents; dev_setNextBlockTime then moves it past their expiry.
func TestDevClock(t *testing.T) {
	n := startNode(t, 0) // blocks only when dev_mine or /idtx asks
	began := time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC)
	var g genesis
	n.result("dev_reset", map[string]any{"time": "2025-12-01T00:00:00.000Z"}, &g)
	if g.Height != 0 || g.Time != began.Unix() || n.height() != 0 || n.blockTime(0) != began.Unix() {
		t.Fatalf("dev_reset to %s: %+v, height %d, genesis time %d", began, g, n.height(), n.blockTime(0))
	}
	var hash string
	if n.ok("/block/hash/0", &hash); hash != g.Hash {
		t.Errorf("dev_reset named genesis %s, the chain's is %s", g.Hash, hash)
	}

	id, create := vectorIdentity(t)
	n.publish(id, create)
	if bt := n.blockTime(1); bt <= began.Unix() || bt > began.Unix()+60 {
		t.Errorf("the vector's block at %d, want within a minute after %d", bt, began.Unix())
	}
	if res := n.resolve("resolvedid", id.did.String(), false); res.Status != 0 {
		t.Errorf("the vector resolves with status %d, want 0 (valid) before 2026-01-18", res.Status)
	}

	next := time.Date(2026, 1, 19, 0, 0, 0, 0, time.UTC).Unix()
	var set struct{ Time int64 }
	n.result("dev_setNextBlockTime", map[string]any{"time": next}, &set)
	if set.Time != next || n.height() != 1 {
		t.Errorf("dev_setNextBlockTime %d: %+v at height %d, want that time and no block", next, set, n.height())
	}
	n.result("dev_mine", nil, &struct{}{})
	if bt := n.blockTime(2); bt != next {
		t.Errorf("the next block is stamped %d, want %d exactly", bt, next)
	}
	if res := n.resolve("resolvedid", id.did.String(), false); res.Status != 1 {
		t.Errorf("the vector resolves with status %d, want 1 (expired) after 2026-01-18", res.Status)
	}

	// A plain dev_reset begins at the same time again.
	n.result("dev_reset", nil, &g)
	if g.Time != began.Unix() || n.height() != 0 {
		t.Errorf("dev_reset without a time: %+v, want the genesis at %d", g, began.Unix())
	}
	// /reset takes the time too, as a query parameter.
	if status, _, body := n.do("POST", n.rpcURL+"reset?time=1735689600", "", nil); status != http.StatusOK {
		t.Fatalf("/reset?time=1735689600: %d %s", status, body)
	}
	if bt := n.blockTime(0); bt != 1735689600 {
		t.Errorf("/reset?time=1735689600: genesis time %d", bt)
	}
}

// A clock control given a bad time says why, and changes nothing.
func TestDevClockRefusals(t *testing.T) {
	n := startNode(t, 0)
	n.result("dev_reset", map[string]any{"time": "2025-12-01T00:00:00Z"}, &struct{}{})
	n.result("dev_mine", nil, &struct{}{})
	tip := n.blockTime(1)
	for _, c := range []struct {
		method string
		params any
		want   string
	}{
		{"dev_setNextBlockTime", nil, "time is missing"},
		{"dev_setNextBlockTime", map[string]any{}, "time is missing"},
		{"dev_setNextBlockTime", map[string]any{"time": tip}, "next block time 2025-12-01T00:00:01Z is not after the tip's 2025-12-01T00:00:01Z"},
		{"dev_setNextBlockTime", map[string]any{"time": "2025-11-30T00:00:00Z"}, "is not after the tip's"},
		{"dev_setNextBlockTime", map[string]any{"time": int64(1) << 32}, "past the last a block can carry"},
		{"dev_setNextBlockTime", map[string]any{"time": "tomorrow"}, `tomorrow\" is neither an RFC 3339 time`},
		{"dev_setNextBlockTime", map[string]any{"time": 1.5}, `1.5\" is neither`},
		{"dev_setNextBlockTime", map[string]any{"time": true}, `true\" is neither`},
		{"dev_setNextBlockTime", map[string]any{"time": tip + 10, "seconds": 1}, "unknown parameter"},
		{"dev_reset", map[string]any{"time": 0}, "genesis time 0 is out of range"},
		{"dev_reset", map[string]any{"time": "1969-12-31T23:59:59Z"}, "genesis time -1 is out of range"},
		{"dev_reset", map[string]any{"time": "2025-13-01T00:00:00Z"}, "is neither an RFC 3339 time"},
		{"dev_reset", []any{1, 2}, "params holds 2 values; the method takes at most 1: time"},
	} {
		before := n.state()
		checkRPCError(t, c.method, n.call(c.method, c.params), -32602, "Invalid params", c.want)
		n.unchanged(c.method, before)
	}
	for _, q := range []string{"time=soon", "time=0", "time="} {
		before := n.state()
		status, _, body := n.do("POST", n.rpcURL+"reset?"+q, "", nil)
		if status != http.StatusBadRequest || !strings.Contains(string(body), `"code":42002`) || !strings.Contains(string(body), "time") {
			t.Errorf("/reset?%s: %d %s, want 400 with 42002 naming the time", q, status, body)
		}
		n.unchanged("/reset?"+q, before)
	}
	n.result("dev_mine", nil, &struct{}{})
	if bt := n.blockTime(2); bt <= tip || bt > tip+60 {
		t.Errorf("after the refusals the next block is stamped %d, want a little after %d", bt, tip)
	}
}
