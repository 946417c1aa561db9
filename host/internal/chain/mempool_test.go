package chain

import (
	"testing"

	"github.com/didlight/didlight/core/ela"
)

// Funding requests claim dev outputs: two at once get two outputs, an
// output spent by a pooled transaction or claimed is busy, and an output
// unclaimed is free again.
func TestMempoolClaim(t *testing.T) {
	p := newMempool(10, 1<<20, position{}, nil, nil)
	small := UTXO{Txid: ela.Hash{1}, Index: 0, Value: 1}
	big := []UTXO{{Txid: ela.Hash{2}, Index: 0, Value: 100}, {Txid: ela.Hash{2}, Index: 1, Value: 100}}
	outputs := append([]UTXO{small}, big...)
	type claim struct{ i, free, busy int }
	check := func(what string, want claim) {
		t.Helper()
		i, free, busy := p.claim(outputs, 10)
		if got := (claim{i, free, busy}); got != want {
			t.Errorf("%s: claim = %+v, want %+v", what, got, want)
		}
	}
	check("first", claim{1, 3, 0})
	check("second", claim{2, 2, 1}) // the first's output is claimed
	check("third", claim{-1, 1, 2}) // only the small output is free
	p.unclaim(big[0])
	check("after unclaim", claim{1, 2, 1})
	spender := &entry{tx: &ela.Tx{Inputs: []ela.Input{{TxID: small.Txid, Index: small.Index}}}, txid: ela.Hash{9}, raw: []byte{0}}
	if ok, err := p.add(spender, position{}); !ok || err != nil {
		t.Fatalf("add: %v, %v", ok, err)
	}
	check("the small output spent by a pooled transaction", claim{-1, 0, 3})
}
