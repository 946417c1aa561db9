package mempool

import (
	"errors"
	"slices"
	"testing"
	"time"

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

// newEntry returns an entry spending an output of its own, so that no two
// conflict, with a submitter waiting for its answer.
func newEntry(id byte) *testEntry {
	tx := &ela.Tx{Inputs: []ela.Input{{TxID: ela.Hash{0xee, id}}}}
	return &testEntry{Slot: Slot{Done: make(chan error, 1)}, tx: ledger.PoolTx{Tx: tx, Txid: ela.Hash{id}, Size: 1}}
}

// answered returns the answer e's submitter got, failing if it has none.
func answered(t *testing.T, e *testEntry) error {
	t.Helper()
	select {
	case err := <-e.Done:
		return err
	default:
		t.Fatalf("entry %x has no answer", e.tx.Txid[0])
		return nil
	}
}

// An entry validated at the pool's position is added; one validated at
// an older position is not (the caller validates again); one validated
// at a newer position waits until the pool advances there; one that may
// enter only another epoch is refused with ErrReset; a duplicate breaks a
// rule of ledger.Pool.
func TestPoolAdd(t *testing.T) {
	at := Position{Epoch: 1, Height: 5, Tip: ela.Hash{5}}
	next := Position{Epoch: 1, Height: 6, Tip: ela.Hash{6}}
	p := New[*testEntry](10, 1<<20, at, nil, nil, 0)
	first := newEntry(1)
	if ok, err := p.Add(first, at); !ok || err != nil {
		t.Fatalf("Add at the pool's position: %v, %v", ok, err)
	}
	if first.Epoch != 1 {
		t.Errorf("the entry's epoch is %d, want the pool's 1", first.Epoch)
	}
	if ok, err := p.Add(newEntry(2), Position{Epoch: 1, Height: 4}); ok || err != nil {
		t.Errorf("Add at an older position: %v, %v; want false, nil", ok, err)
	}
	if _, err := p.Add(newEntry(1), at); ledger.CodeOf(err) == 0 {
		t.Errorf("Add of a duplicate: %v, want a rule error", err)
	}
	within := newEntry(3)
	within.Within, within.WantIn = true, 2
	if _, err := p.Add(within, at); !errors.Is(err, ErrReset) {
		t.Errorf("Add of an entry for epoch 2 in epoch 1: %v, want ErrReset", err)
	}
	waiting := newEntry(4)
	added := make(chan bool)
	go func() {
		ok, _ := p.Add(waiting, next)
		added <- ok
	}()
	select {
	case <-added:
		t.Fatal("Add at a newer position did not wait for the pool")
	case <-time.After(20 * time.Millisecond):
	}
	p.Advance(next, map[*testEntry]error{first: nil})
	if !<-added {
		t.Error("Add at a newer position refused once the pool got there")
	}
	if err := answered(t, first); err != nil {
		t.Errorf("the entry a block took in got %v, want nil", err)
	}
	if got := p.Entries(); !slices.Equal(got, []*testEntry{waiting}) {
		t.Errorf("entries %v, want only the one added after the block", got)
	}
}

// Entries become ready once stored (or kept); those not in the bucket are
// the unstored ones; a reset answers every entry with ErrReset and empties
// the pool; Close answers with ErrClosed and refuses to keep any more.
func TestPoolLifecycle(t *testing.T) {
	p := New[*testEntry](10, 1<<20, Position{}, nil, nil, 0)
	a, b, c := newEntry(1), newEntry(2), newEntry(3)
	for _, e := range []*testEntry{a, b, c} {
		if ok, err := p.Add(e, Position{}); !ok || err != nil {
			t.Fatalf("Add: %v, %v", ok, err)
		}
	}
	if n := len(p.Ready()); n != 0 {
		t.Fatalf("%d ready before any is stored", n)
	}
	p.MarkPersisted([]*testEntry{a}, InBucket([]uint64{7}))
	p.MarkPersisted([]*testEntry{b}, InLog([]uint64{9}))
	if err := p.Keep(c); err != nil {
		t.Fatal(err)
	}
	if a.Seq != 7 || b.Logged != 9 {
		t.Errorf("stored at seq %d and log record %d, want 7 and 9", a.Seq, b.Logged)
	}
	if got := p.Ready(); !slices.Equal(got, []*testEntry{a, b, c}) {
		t.Errorf("ready %v, want all three in order", got)
	}
	if got := p.Unstored(); !slices.Equal(got, []*testEntry{b, c}) {
		t.Errorf("unstored %v, want the logged and the kept", got)
	}
	refused := errors.New("refused")
	p.Remove(c, refused)
	if err := answered(t, c); err != refused {
		t.Errorf("the removed entry got %v, want %v", err, refused)
	}
	p.Reset(Position{Epoch: 1})
	for _, e := range []*testEntry{a, b} {
		if err := answered(t, e); !errors.Is(err, ErrReset) {
			t.Errorf("after Reset: %v, want ErrReset", err)
		}
	}
	if p.Len() != 0 {
		t.Errorf("%d entries after Reset", p.Len())
	}
	d := newEntry(4)
	if ok, err := p.Add(d, Position{Epoch: 1}); !ok || err != nil {
		t.Fatalf("Add after Reset: %v, %v", ok, err)
	}
	p.Close()
	if err := answered(t, d); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v, want ErrClosed", err)
	}
	if err := p.Keep(newEntry(5)); !errors.Is(err, ErrClosed) {
		t.Errorf("Keep after Close: %v, want ErrClosed", err)
	}
}

// A block being made takes the entries waiting for their commit along
// with the stored ones, and learns which of them the pool no longer holds.
func TestPoolForBlock(t *testing.T) {
	p := New[*testEntry](10, 1<<20, Position{}, func([]*testEntry) error { return nil }, nil, 0)
	stored, queued, gone := newEntry(1), newEntry(2), newEntry(3)
	for _, e := range []*testEntry{stored, queued, gone} {
		if ok, err := p.Add(e, Position{}); !ok || err != nil {
			t.Fatalf("Add: %v, %v", ok, err)
		}
	}
	p.MarkPersisted([]*testEntry{stored}, InBucket([]uint64{1}))
	p.Commits().Hold()
	results := make(chan error, 2)
	go func() { results <- p.Commits().Do(queued) }()
	go func() { results <- p.Commits().Do(gone) }()
	for deadline := time.Now().Add(5 * time.Second); p.Commits().Queued() != 2; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the commits never queued")
		}
	}
	p.Remove(gone, ErrReset)
	entries, taken, dropped := p.ForBlock(true)
	if !slices.Contains(entries, stored) || !slices.Contains(entries, queued) || slices.Contains(entries, gone) {
		t.Errorf("the block is offered %v, want the stored and the queued entry", entries)
	}
	if len(taken) != 2 || !dropped[gone] || dropped[queued] {
		t.Errorf("took %d, dropped %v; want 2 taken, the removed one dropped", len(taken), dropped)
	}
	for _, q := range taken {
		q.Settle(nil)
	}
	p.Commits().Release()
	for range 2 {
		if err := <-results; err != nil {
			t.Errorf("a taken commit got %v, want the block's nil", err)
		}
	}
}

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
