package chaingen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/mem"
	"github.com/didlight/didlight/host/internal/synth"
)

// generated is a chain Generate wrote, shared by the tests: 700 DIDs, two
// waves, so that customized DIDs and issued credentials are in it.
func generated(t *testing.T, seed string) (store.DB, Report, []Progress) {
	t.Helper()
	db := mem.New()
	var seen []Progress
	rep, err := Generate(context.Background(), db, Options{Seed: seed, DIDs: 700, Progress: func(p Progress) { seen = append(seen, p) }})
	if err != nil {
		t.Fatal(err)
	}
	return db, rep, seen
}

func open(t *testing.T, db store.DB, follower bool) *chain.Chain {
	t.Helper()
	c, err := chain.Open(chain.Config{DB: db, Follower: follower})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// A generated chain holds every operation of the plan, reports its
// progress block by block, and a follower applying its blocks, which
// validates each as the chain does, reaches the same tip.
func TestGenerate(t *testing.T) {
	db, rep, seen := generated(t, "generate")
	plan, err := synth.NewPlan("generate", 700, chain.GenesisTime, Interval)
	if err != nil {
		t.Fatal(err)
	}
	ops := 0
	for i := range plan.DIDs {
		ops += len(plan.Shape(i).Ops())
	}
	if rep.DIDs != 700 || rep.Ops != ops || rep.Block != plan.Blocks() || rep.Blocks != plan.Blocks() {
		t.Errorf("report %+v, want 700 DIDs, %d operations, %d blocks", rep, ops, plan.Blocks())
	}
	if len(seen) != plan.Blocks()+1 || seen[len(seen)-1] != rep.Progress {
		t.Errorf("progress reported %d times, last %+v; want %d times, last %+v", len(seen), seen[len(seen)-1], plan.Blocks()+1, rep.Progress)
	}
	producer := open(t, db, false)
	height, tip, _ := producer.Tip()
	if height != rep.Height {
		t.Errorf("tip at %d, the report says %d", height, rep.Height)
	}
	follower := open(t, mem.New(), true)
	for h := uint32(1); h <= height; h++ {
		b, _, err := producer.BlockByHeight(h)
		if err != nil {
			t.Fatal(err)
		}
		cf, err := producer.Confirm(b.Hash())
		if err != nil {
			t.Fatal(err)
		}
		if err := follower.Apply(context.Background(), b, cf); err != nil {
			t.Fatalf("the follower refuses block %d: %v", h, err)
		}
	}
	if fh, ftip, _ := follower.Tip(); fh != height || ftip != tip {
		t.Errorf("the follower's tip is %d %s, the generated chain's %d %s", fh, ftip, height, tip)
	}
	if got, want := producer.Stats().TxnCnt, follower.Stats().TxnCnt; got != want {
		t.Errorf("%d transactions generated, %d followed", got, want)
	}
	checkDIDs(t, producer, plan)
}

// checkDIDs resolves a few of the plan's DIDs and checks their status.
func checkDIDs(t *testing.T, c *chain.Chain, plan *synth.Plan) {
	t.Helper()
	checked := map[string]int{}
	for i := range plan.DIDs {
		d := plan.Shape(i)
		kind := "standard"
		switch {
		case d.Deactivate:
			kind = "deactivated"
		case d.Name != "":
			kind = "customized"
		}
		if checked[kind] >= 3 {
			continue
		}
		checked[kind]++
		subject, err := plan.Subject(d)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := c.ResolveDID(context.Background(), subject, true)
		if err != nil {
			t.Fatal(err)
		}
		var res struct {
			Status      int
			Transaction []json.RawMessage
		}
		if err := json.Unmarshal(raw, &res); err != nil {
			t.Fatal(err)
		}
		didOps := len(d.Ops())
		if d.Declare {
			didOps--
		}
		if d.Revoke {
			didOps--
		}
		wantStatus := 0
		if d.Deactivate {
			wantStatus = 2
		}
		if res.Status != wantStatus || len(res.Transaction) != didOps {
			t.Errorf("DID %d (%s): status %d with %d transactions, want %d with %d", i, kind, res.Status, len(res.Transaction), wantStatus, didOps)
		}
	}
	if len(checked) != 3 {
		t.Errorf("the plan lacks a kind of DID: checked %v", checked)
	}
}

// The same seed gives the same chain, block for block.
func TestGenerateDeterministic(t *testing.T) {
	a, _, _ := generated(t, "same")
	b, _, _ := generated(t, "same")
	ca, cb := open(t, a, false), open(t, b, false)
	ha, tipA, _ := ca.Tip()
	hb, tipB, _ := cb.Tip()
	if ha != hb || tipA != tipB {
		t.Fatalf("two generations of one seed end at %d %s and %d %s", ha, tipA, hb, tipB)
	}
	for h := range ha + 1 {
		ba, _, _ := ca.BlockByHeight(h)
		bb, _, _ := cb.BlockByHeight(h)
		if !bytes.Equal(ba.Bytes(), bb.Bytes()) {
			t.Fatalf("block %d differs", h)
		}
	}
}

// Generate adds nothing to a store holding a chain beyond its genesis.
func TestGenerateRefusesAChain(t *testing.T) {
	db := mem.New()
	c := open(t, db, false)
	if _, err := c.Mine(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.Close()
	_, err := Generate(context.Background(), db, Options{Seed: "x", DIDs: 10})
	if !errors.Is(err, ErrNotFresh) {
		t.Fatalf("Generate on a chain at height 1: %v, want ErrNotFresh", err)
	}
	if h, _, _ := open(t, db, false).Tip(); h != 1 {
		t.Errorf("the chain is at height %d after the refusal, want 1", h)
	}
}

// A planned block too large for one block is spread over several, in
// order, each within the limits.
func TestChunks(t *testing.T) {
	tx := func(n int) []byte { return make([]byte, n) }
	big := maxBlockBytes / 3
	for _, tc := range []struct {
		name  string
		raws  [][]byte
		sizes []int // transactions per block
	}{
		{"one", [][]byte{tx(10)}, []int{1}},
		{"by bytes", [][]byte{tx(big), tx(big), tx(big), tx(big), tx(10)}, []int{3, 2}},
		{"a transaction larger than the limit alone", [][]byte{tx(10), tx(maxBlockBytes + 1), tx(10)}, []int{1, 1, 1}},
		{"by count", make([][]byte, 2*maxBlockTxs+1), []int{maxBlockTxs, maxBlockTxs, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sizes []int
			for _, c := range chunks(tc.raws) {
				sizes = append(sizes, len(c))
			}
			if !slices.Equal(sizes, tc.sizes) {
				t.Errorf("%s: blocks of %v transactions, want %v", tc.name, sizes, tc.sizes)
			}
		})
	}
}
