package chain

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// Items queued during a hold are left to the holder: the running commit
// does not go on to them, and their callers return what the holder says.
// Those queued after the holder took the queue wait for its release, then
// share a commit.
func TestGroupCommitHold(t *testing.T) {
	release := make(chan struct{})
	var committed [][]int
	g := groupCommit[int]{mu: new(sync.Mutex), commit: func(items []int) error {
		committed = append(committed, slices.Clone(items))
		<-release
		return nil
	}}
	leader, others := make(chan error, 1), make(chan error, 2)
	go func() { leader <- g.do(1) }() // held in its commit
	waitQueued(t, &g, 0)
	g.hold()
	go func() { others <- g.do(2) }()
	go func() { others <- g.do(3) }()
	waitQueued(t, &g, 2)
	close(release)
	if err := <-leader; err != nil {
		t.Fatal(err)
	}
	if len(committed) != 1 || !slices.Equal(committed[0], []int{1}) {
		t.Fatalf("committed %v, want only the leader's item", committed)
	}
	taken := g.take()
	if len(taken) != 2 {
		t.Fatalf("took %d items, want 2", len(taken))
	}
	refused := errors.New("refused")
	for _, p := range taken {
		err := error(nil)
		if p.item == 3 {
			err = refused
		}
		p.settle(err)
	}
	got := map[error]int{}
	for range 2 {
		got[<-others]++
	}
	if got[nil] != 1 || got[refused] != 1 {
		t.Errorf("callers got %v, want nil once and the refusal once", got)
	}
	// Items queued after take wait for release, then share a commit.
	late := make(chan error, 2)
	go func() { late <- g.do(4) }()
	go func() { late <- g.do(5) }()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		g.mu.Lock()
		n := len(g.queue)
		g.mu.Unlock()
		if n == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the late items never queued")
		}
	}
	if len(committed) != 1 {
		t.Fatalf("committed %v before release", committed)
	}
	g.release()
	for range 2 {
		if err := <-late; err != nil {
			t.Fatal(err)
		}
	}
	if len(committed) != 2 || !slices.Equal(slices.Sorted(slices.Values(committed[1])), []int{4, 5}) {
		t.Errorf("after release: committed %v, want the late items in one commit", committed)
	}
	// After release, a new item is committed at once again.
	if err := g.do(6); err != nil || len(committed) != 3 || !slices.Equal(committed[2], []int{6}) {
		t.Errorf("after release: %v, committed %v", err, committed)
	}
}

// waitQueued waits until n items wait in g's queue while a commit runs.
func waitQueued(t *testing.T, g *groupCommit[int], n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		g.mu.Lock()
		ok := g.busy && len(g.queue) == n
		g.mu.Unlock()
		if ok {
			return
		}
	}
	t.Fatalf("%d items never queued", n)
}

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
	f.c.pool.persist.hold()
	errc := make(chan error, 1)
	go func() {
		_, err := f.c.SubmitTx(raw)
		errc <- err
	}()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		f.c.pool.persist.mu.Lock()
		n := len(f.c.pool.persist.queue)
		f.c.pool.persist.mu.Unlock()
		if n == 1 {
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

// Run's wait between blocks ends once no admission is under way: nothing
// more is about to join the block.
func TestAwaitGapEndsWithAdmissions(t *testing.T) {
	f := newFixture(t, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	later := time.Now().Add(time.Hour)
	if !f.c.awaitGap(ctx, later) {
		t.Fatal("awaitGap with no admission under way reported a stop")
	}
	f.c.admitting.Add(1)
	done := make(chan bool)
	go func() { done <- f.c.awaitGap(ctx, later) }()
	f.c.admitted()
	if !<-done {
		t.Error("awaitGap reported a stop when the admission ended")
	}
	f.c.admitting.Add(1)
	go func() { done <- f.c.awaitGap(ctx, later) }()
	cancel()
	if <-done {
		t.Error("awaitGap went on after its context ended")
	}
	f.c.admitted()
}

// A transaction waiting for its mempool commit when the chain is reset is
// refused with ErrReset by the next block, which does not take it in (the
// block once took it and then hung, telling its waiter twice).
func TestResetRefusesQueued(t *testing.T) {
	f := newFixture(t, Config{DB: onDisk{mem.New()}})
	u := newUser("reset while queued")
	tx := f.opTx(f.dev(), u.create(t, u.document(t, f.clock.Now().AddDate(1, 0, 0), nil)))
	errc := submitHeld(f, tx.Bytes())
	if err := f.c.Reset(context.Background()); err != nil {
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

// A commit waits for half the callers coming to queue, and they share it;
// a caller that stops coming wakes it; the time the last commit took
// bounds its wait, and gatherWait bounds that.
func TestGroupCommitGathers(t *testing.T) {
	var mu sync.Mutex
	var committed [][]int
	var coming atomic.Int64
	g := groupCommit[int]{
		mu: new(sync.Mutex),
		commit: func(items []int) error {
			mu.Lock()
			defer mu.Unlock()
			committed = append(committed, slices.Sorted(slices.Values(items)))
			return nil
		},
		coming:     func() int { return int(coming.Load()) },
		gatherWait: time.Hour,
		wake:       make(chan struct{}, 1),
	}
	wait := func(what string, done <-chan error) {
		t.Helper()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the commit is still waiting", what)
		}
	}

	coming.Store(4)
	done := make(chan error, 4)
	go func() { done <- g.do(0) }()
	waitQueued(t, &g, 1) // one of four: the commit waits
	go func() { done <- g.do(1) }()
	for range 2 {
		wait("two of four queued", done)
	}
	for i := 2; i < 4; i++ { // the other half, queued in turn: each waits as long as the last commit took
		go func() { done <- g.do(i) }()
		wait("one of four", done)
	}

	untimed := func() { // as if no commit had been timed: gatherWait bounds the wait
		t.Helper()
		g.mu.Lock()
		defer g.mu.Unlock()
		if !g.timed {
			t.Fatal("the last commit was not timed")
		}
		g.timed = false
	}
	untimed()
	coming.Store(3) // two callers validate, then one is refused: it never queues
	go func() { done <- g.do(4) }()
	waitQueued(t, &g, 1)
	coming.Store(2)
	g.arrived()
	wait("one stops coming", done)

	untimed()
	coming.Store(5)
	g.gatherWait = 10 * time.Millisecond
	wait("gatherWait passes", func() chan error { c := make(chan error, 1); c <- g.do(5); return c }())

	coming.Store(5)
	g.gatherWait = time.Hour
	g.mu.Lock()
	g.took, g.timed = 10*time.Millisecond, true
	g.mu.Unlock()
	wait("the last commit's time passes", func() chan error { c := make(chan error, 1); c <- g.do(6); return c }())

	want := [][]int{{0, 1}, {2}, {3}, {4}, {5}, {6}}
	if diff := cmp.Diff(want, committed); diff != "" {
		t.Errorf("commits (-want +got):\n%s", diff)
	}
}

// A commit gathering items whose queue a holder takes meanwhile commits
// nothing (an empty commit would cost a disk sync for no item); the holder
// answers the items.
func TestGroupCommitTakenWhileGathering(t *testing.T) {
	var commits atomic.Int64
	g := groupCommit[int]{
		mu:         new(sync.Mutex),
		commit:     func([]int) error { commits.Add(1); return nil },
		coming:     func() int { return 3 }, // more than twice what will ever queue
		gatherWait: time.Hour,
		wake:       make(chan struct{}, 1),
	}
	done := make(chan error, 1)
	go func() { done <- g.do(1) }()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		g.mu.Lock()
		queued := g.busy && len(g.queue) == 1
		g.mu.Unlock()
		if queued {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the item never queued")
		}
	}
	g.hold()
	taken := g.take()
	if len(taken) != 1 || taken[0].item != 1 {
		t.Fatalf("took %v, want the item 1", taken)
	}
	refused := errors.New("refused")
	taken[0].settle(refused)
	if err := <-done; err != refused {
		t.Errorf("the caller got %v, want the holder's %v", err, refused)
	}
	if n := commits.Load(); n != 0 {
		t.Errorf("%d commits, want none", n)
	}
}
