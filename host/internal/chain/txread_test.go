package chain

import (
	"errors"
	"testing"

	"github.com/didlight/didlight/core/ela"
)

// A transaction the mempool accepted is found by Tx from then on, pooled
// or mined, even while the block that takes it is being stored: reading
// the store before the mempool once missed a transaction that moved
// between the two reads.
func TestTxFoundWhileMined(t *testing.T) {
	f := newFixture(t, Config{})
	const rounds = 200
	f.split(f.dev(), rounds)
	for range rounds {
		h := f.submit(f.transfer(f.dev(), f.c.dev.ProgramHash, ela.OneELA))
		stop, failed := make(chan struct{}), make(chan error, 1)
		go func() {
			for {
				select {
				case <-stop:
					failed <- nil
					return
				default:
				}
				if _, _, err := f.c.Tx(h); err != nil {
					failed <- err
					return
				}
			}
		}()
		f.mine()
		close(stop)
		if err := <-failed; err != nil {
			t.Fatalf("Tx(%s) while its block was made: %v", h, err)
		}
		if _, ctx, err := f.c.Tx(h); err != nil || ctx.Confirmations != 1 {
			t.Fatalf("Tx(%s) after its block: confirmations %d, %v", h, ctx.Confirmations, err)
		}
	}
	if _, _, err := f.c.Tx(ela.Hash{1}); !errors.Is(err, ErrNotFound) {
		t.Errorf("Tx of an unknown hash: %v, want ErrNotFound", err)
	}
}
