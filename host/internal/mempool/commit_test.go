package mempool

import (
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Items queued during a hold are left to the holder: the running commit
// does not go on to them, and their callers return what the holder says.
// Those queued after the holder took the queue wait for its release, then
// share a commit.
func TestGroupCommitHold(t *testing.T) {
	release := make(chan struct{})
	var committed [][]int
	g := GroupCommit[int]{mu: new(sync.Mutex), commit: func(items []int) error {
		committed = append(committed, slices.Clone(items))
		<-release
		return nil
	}}
	leader, others := make(chan error, 1), make(chan error, 2)
	go func() { leader <- g.Do(1) }() // held in its commit
	waitQueued(t, &g, 0)
	g.Hold()
	go func() { others <- g.Do(2) }()
	go func() { others <- g.Do(3) }()
	waitQueued(t, &g, 2)
	close(release)
	if err := <-leader; err != nil {
		t.Fatal(err)
	}
	if len(committed) != 1 || !slices.Equal(committed[0], []int{1}) {
		t.Fatalf("committed %v, want only the leader's item", committed)
	}
	taken := g.Take()
	if len(taken) != 2 {
		t.Fatalf("took %d items, want 2", len(taken))
	}
	refused := errors.New("refused")
	for _, p := range taken {
		err := error(nil)
		if p.Item == 3 {
			err = refused
		}
		p.Settle(err)
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
	go func() { late <- g.Do(4) }()
	go func() { late <- g.Do(5) }()
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
	g.Release()
	for range 2 {
		if err := <-late; err != nil {
			t.Fatal(err)
		}
	}
	if len(committed) != 2 || !slices.Equal(slices.Sorted(slices.Values(committed[1])), []int{4, 5}) {
		t.Errorf("after release: committed %v, want the late items in one commit", committed)
	}
	// After release, a new item is committed at once again.
	if err := g.Do(6); err != nil || len(committed) != 3 || !slices.Equal(committed[2], []int{6}) {
		t.Errorf("after release: %v, committed %v", err, committed)
	}
}

// waitQueued waits until n items wait in g's queue while a commit runs.
func waitQueued(t *testing.T, g *GroupCommit[int], n int) {
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

// A commit waits for half the callers coming to queue, and they share it;
// a caller that stops coming wakes it; the time the last commit took
// bounds its wait, and gatherWait bounds that.
func TestGroupCommitGathers(t *testing.T) {
	var mu sync.Mutex
	var committed [][]int
	var coming atomic.Int64
	g := GroupCommit[int]{
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
	go func() { done <- g.Do(0) }()
	waitQueued(t, &g, 1) // one of four: the commit waits
	go func() { done <- g.Do(1) }()
	for range 2 {
		wait("two of four queued", done)
	}
	for i := 2; i < 4; i++ { // the other half, queued in turn: each waits as long as the last commit took
		go func() { done <- g.Do(i) }()
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
	go func() { done <- g.Do(4) }()
	waitQueued(t, &g, 1)
	coming.Store(2)
	g.Arrived()
	wait("one stops coming", done)

	untimed()
	coming.Store(5)
	g.gatherWait = 10 * time.Millisecond
	wait("gatherWait passes", func() chan error { c := make(chan error, 1); c <- g.Do(5); return c }())

	coming.Store(5)
	g.gatherWait = time.Hour
	g.mu.Lock()
	g.took, g.timed = 10*time.Millisecond, true
	g.mu.Unlock()
	wait("the last commit's time passes", func() chan error { c := make(chan error, 1); c <- g.Do(6); return c }())

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
	g := GroupCommit[int]{
		mu:         new(sync.Mutex),
		commit:     func([]int) error { commits.Add(1); return nil },
		coming:     func() int { return 3 }, // more than twice what will ever queue
		gatherWait: time.Hour,
		wake:       make(chan struct{}, 1),
	}
	done := make(chan error, 1)
	go func() { done <- g.Do(1) }()
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
	g.Hold()
	taken := g.Take()
	if len(taken) != 1 || taken[0].Item != 1 {
		t.Fatalf("took %v, want the item 1", taken)
	}
	refused := errors.New("refused")
	taken[0].Settle(refused)
	if err := <-done; err != refused {
		t.Errorf("the caller got %v, want the holder's %v", err, refused)
	}
	if n := commits.Load(); n != 0 {
		t.Errorf("%d commits, want none", n)
	}
}
