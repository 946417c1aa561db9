package mempool

import (
	"testing"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/core/spend"
)

// testEntry is an Entry holding a bare transaction.
type testEntry struct {
	Slot
	tx ledger.PoolTx
}

func (e *testEntry) PoolTx() ledger.PoolTx { return e.tx }

// Funding requests claim dev outputs: two at once get two outputs, an
// output spent by a pooled transaction or claimed is busy, and an output
// unclaimed is free again.
func TestMempoolClaim(t *testing.T) {
	p := New[*testEntry](10, 1<<20, Position{}, nil, nil, 0)
	small := spend.Coin{Txid: ela.Hash{1}, Index: 0, Value: 1}
	big := []spend.Coin{{Txid: ela.Hash{2}, Index: 0, Value: 100}, {Txid: ela.Hash{2}, Index: 1, Value: 100}}
	coins := append([]spend.Coin{small}, big...)
	type claim struct{ i, free, busy int }
	check := func(what string, want claim) {
		t.Helper()
		i, free, busy := p.Claim(coins, 10)
		if got := (claim{i, free, busy}); got != want {
			t.Errorf("%s: claim = %+v, want %+v", what, got, want)
		}
	}
	check("first", claim{1, 3, 0})
	check("second", claim{2, 2, 1}) // the first's output is claimed
	check("third", claim{-1, 1, 2}) // only the small output is free
	p.Unclaim(ela.Input{TxID: big[0].Txid, Index: big[0].Index})
	check("after unclaim", claim{1, 2, 1})
	tx := &ela.Tx{Inputs: []ela.Input{{TxID: small.Txid, Index: small.Index}}}
	spender := &testEntry{tx: ledger.PoolTx{Tx: tx, Txid: ela.Hash{9}, Size: 1}}
	if ok, err := p.Add(spender, Position{}); !ok || err != nil {
		t.Fatalf("Add: %v, %v", ok, err)
	}
	check("the small output spent by a pooled transaction", claim{-1, 0, 3})
}
