package chain

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/devnet"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// A block takes in the transactions waiting for their mempool commit: its
// Update makes them durable, and they never get a mempool record (on a
// durable store without a log).
func TestBlockTakesQueued(t *testing.T) {
	f := newFixture(t, Config{DB: onDisk{mem.New()}})
	u := newUser("queued")
	tx := f.opTx(f.dev(), u.create(t, u.document(t, f.clock.Now().AddDate(1, 0, 0), nil)))
	errc := submitHeld(f, tx.Bytes())
	b := f.mine()
	if err := settled(t, errc); err != nil {
		t.Fatal(err)
	}
	if len(b.Transactions) != 2 || b.Transactions[1].Hash() != tx.Hash() {
		t.Fatalf("block %d holds %d transactions, want the coinbase and %s", b.Header.Height, len(b.Transactions), tx.Hash())
	}
	if n := poolRecords(t, f.c); n != 0 || f.c.Stats().Mempool != 0 {
		t.Errorf("%d mempool records, %d pooled transactions after the block", n, f.c.Stats().Mempool)
	}
	f.resolveDID(u.did(), false).want(t, "taken in", 0, []string{tx.Hash().String()}, idop.Create)
	checkIndexes(t, f.c)
}

// A transaction a block takes in before its mempool commit and finds no
// longer valid is refused to its submitter; never acknowledged, it is not
// logged as evicted.
func TestBlockRefusesQueued(t *testing.T) {
	var mu sync.Mutex
	var evicted []string
	say := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		evicted = append(evicted, fmt.Sprintf(format, args...))
	}
	f := newFixture(t, Config{DB: onDisk{mem.New()}, Logger: slog.New(evictions{say})})
	u := newUser("refused")
	tx := f.opTx(f.dev(), u.create(t, u.document(t, f.clock.Now().Add(time.Minute), nil)))
	errc := submitHeld(f, tx.Bytes())
	f.clock.advance(time.Hour)
	b := f.mine()
	err := settled(t, errc)
	if wantReject(t, "expired before its block", err, ledger.Payload); idop.RuleOf(err) != idop.RuleExpired {
		t.Errorf("SubmitTx: %v, want rule %s", err, idop.RuleExpired)
	}
	if len(b.Transactions) != 1 || f.c.Stats().Mempool != 0 || poolRecords(t, f.c) != 0 {
		t.Errorf("block %d holds %d transactions, the mempool %d", b.Header.Height, len(b.Transactions), f.c.Stats().Mempool)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(evicted) != 0 {
		t.Errorf("logged %q for a transaction never acknowledged", evicted)
	}
	checkIndexes(t, f.c)
}

// submitHeld holds the chain's mempool commits, as a block about to be
// written does, submits raw, and returns once it waits for its commit;
// the channel gets SubmitTx's error.
func submitHeld(f *fixture, raw []byte) <-chan error {
	f.t.Helper()
	f.c.pool.Commits().Hold()
	errc := make(chan error, 1)
	go func() {
		_, err := f.c.SubmitTx(raw)
		errc <- err
	}()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		if f.c.pool.Commits().Queued() == 1 {
			return errc
		}
		if time.Now().After(deadline) {
			f.t.Fatal("the transaction never waited for its commit")
		}
	}
}

// settled returns what SubmitTx returned, failing the test if it still
// waits: the block must have settled it.
func settled(t *testing.T, errc <-chan error) error {
	t.Helper()
	select {
	case err := <-errc:
		return err
	case <-time.After(5 * time.Second):
		t.Fatal("SubmitTx still waits after the block")
		return nil
	}
}

// poolRecords counts the records of the stored mempool.
func poolRecords(t *testing.T, c *Chain) int {
	t.Helper()
	n := 0
	err := c.db.View(func(tx store.Tx) error {
		for range bucket(tx, bucketPool).Scan(store.Range{}) {
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// A transaction waiting for its mempool commit when the chain is reset is
// refused with ErrReset by the next block, which does not take it in (the
// block once took it and then hung, telling its waiter twice).
func TestResetRefusesQueued(t *testing.T) {
	f := newFixture(t, Config{DB: onDisk{mem.New()}})
	u := newUser("reset while queued")
	tx := f.opTx(f.dev(), u.create(t, u.document(t, f.clock.Now().AddDate(1, 0, 0), nil)))
	errc := submitHeld(f, tx.Bytes())
	if err := devnet.Reset(context.Background(), f.c); err != nil {
		t.Fatal(err)
	}
	mined := make(chan *ela.Block, 1)
	go func() {
		b, err := f.c.Mine(context.Background())
		if err != nil {
			t.Error(err)
		}
		mined <- b
	}()
	var b *ela.Block
	select {
	case b = <-mined:
	case <-time.After(5 * time.Second):
		t.Fatal("Mine after Reset never returned")
	}
	if err := settled(t, errc); !errors.Is(err, ErrReset) {
		t.Errorf("SubmitTx: %v, want ErrReset", err)
	}
	if b == nil || b.Header.Height != 1 || len(b.Transactions) != 1 {
		t.Fatalf("the block after the reset: %+v, want block 1 with its coinbase alone", b)
	}
	if n := poolRecords(t, f.c); n != 0 || f.c.Stats().Mempool != 0 {
		t.Errorf("%d mempool records, %d pooled transactions", n, f.c.Stats().Mempool)
	}
	checkIndexes(t, f.c)
}

// A block holds no more transactions than its limits allow, by count and
// by bytes; the rest wait in the mempool, stored (a transaction the block
// took from the commit queue included), in their order, for the next
// blocks.
func TestBlockLimits(t *testing.T) {
	for _, tc := range []struct {
		name   string
		limits func(txBytes int) ledger.BlockLimits
	}{
		{"transactions", func(int) ledger.BlockLimits { return ledger.BlockLimits{Txs: 3, Bytes: 1 << 20} }},
		{"bytes", func(n int) ledger.BlockLimits { return ledger.BlockLimits{Txs: 100, Bytes: 2*n + n/2} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, Config{DB: onDisk{mem.New()}})
			f.split(f.dev(), 5)
			var want []ela.Hash
			for range 4 {
				want = append(want, f.submit(f.transfer(f.dev(), f.dev().ph, ela.OneELA)))
			}
			last := f.transfer(f.dev(), f.dev().ph, ela.OneELA)
			want = append(want, last.Hash())
			f.c.limits = tc.limits(len(last.Bytes()))
			errc := submitHeld(f, last.Bytes())
			var got []ela.Hash
			for i, pooled := range []int{3, 1, 0} {
				b := f.mine()
				if i == 0 {
					if err := settled(t, errc); err != nil {
						t.Fatalf("SubmitTx of the transaction waiting for its commit: %v", err)
					}
				}
				if n := len(b.Transactions) - 1; n != 2 && pooled > 0 || n > 2 {
					t.Fatalf("block %d holds %d transactions, want 2 and the coinbase", b.Header.Height, n)
				}
				for _, tx := range b.Transactions[1:] {
					got = append(got, tx.Hash())
				}
				if n := poolRecords(t, f.c); n != pooled || f.c.Stats().Mempool != pooled {
					t.Fatalf("after block %d: %d mempool records, %d pooled, want %d", b.Header.Height, n, f.c.Stats().Mempool, pooled)
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("blocks took %v, want %v in arrival order", got, want)
			}
			checkIndexes(t, f.c)
		})
	}
}
