package eidsync

import (
	"context"
	"strings"
	"testing"

	"github.com/didlight/didlight/host/client/eid"
	"github.com/didlight/didlight/host/internal/eidtest"
)

// TestBloomOfRecordedBlocks checks against the blocks a real EID node
// made that its header bloom holds the recipient of every transaction:
// each block with a transaction to the DID contract or the precompile is
// kept by the bloom test for that address, and a block without any such
// transaction is ruled out for it.
func TestBloomOfRecordedBlocks(t *testing.T) {
	up := eidtest.NewUpstream(t, eidtest.Options{})
	c, err := eid.New(eid.Config{Network: eid.Network{Endpoints: []string{up.URL}}, Budget: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	head, err := c.BlockNumber(ctx)
	if err != nil {
		t.Fatal(err)
	}
	numbers := make([]uint64, head+1)
	for i := range numbers {
		numbers[i] = uint64(i)
	}
	blocks, err := c.Blocks(ctx, numbers, true)
	if err != nil {
		t.Fatal(err)
	}
	contract := strings.ToLower(up.Manifest.Contract)
	kept := 0
	for _, addr := range []string{contract, Precompile} {
		bits := addressBits(addr)
		for _, b := range blocks {
			has := false
			for _, tx := range b.Txs {
				has = has || tx.To == addr
			}
			if inBloom(b.Bloom, bits) != has {
				t.Errorf("block %d, %d transactions: bloom test for %s %v, a transaction to it %v", b.Number, len(b.Txs), addr, !has, has)
			}
			if has {
				kept++
			}
		}
	}
	if kept < len(up.Manifest.Steps) {
		t.Errorf("%d blocks with DID transactions, the scenario has %d steps", kept, len(up.Manifest.Steps))
	}
}
