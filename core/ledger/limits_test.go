package ledger_test

import (
	"fmt"
	"testing"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/ledger"
)

func TestBlockLimits(t *testing.T) {
	l := ledger.BlockLimits{Txs: 3, Bytes: 100}
	for i, c := range []struct {
		txs, size, n int
		want         bool
	}{
		{1, 0, 100, true},
		{1, 0, 101, false},
		{2, 60, 40, true},
		{2, 60, 41, false},
		{3, 0, 1, false},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if got := l.Fits(c.txs, c.size, c.n); got != c.want {
				t.Errorf("Fits(%d, %d, %d) = %v, want %v", c.txs, c.size, c.n, got, c.want)
			}
		})
	}
	if m := ledger.MaxBlockLimits(); m.Txs != ela.MaxTxPerBlock || m.Bytes != ela.MaxBlockSize-ledger.BlockReserve {
		t.Errorf("MaxBlockLimits = %+v", m)
	}
}

func TestCheckNext(t *testing.T) {
	if err := ledger.CheckNext(&ela.Header{Height: 7, Timestamp: ledger.MaxBlockTime - 1}); err != nil {
		t.Errorf("a block a second before the last time: %v", err)
	}
	err := ledger.CheckNext(&ela.Header{Height: 7, Timestamp: ledger.MaxBlockTime})
	if want := "block 7 is stamped 4294967295, the last time a block can carry"; err == nil || err.Error() != want {
		t.Errorf("after the last time: %v, want %q", err, want)
	}
}
