package mempool

import (
	"sync"
	"time"
)

// GroupCommit writes items in batches: the first caller to arrive commits
// what is queued, callers arriving meanwhile queue up for the next batch,
// and each caller returns once its item is committed. Under load many
// items share one store Update (one disk sync), while a lone item is
// committed at once. Another writer about to write anyway may hold the
// queue (Hold), so that no commit starts on what arrives meanwhile, then
// take it (Take) and make it durable in its own Update (Settle), and
// release it once its Update is done (Release): what queued after the
// take is committed then, in one batch, rather than by a commit that
// would only wait for the writer's Update to end.
//
// A commit may also wait for items on their way (gather): a batch holds
// only the items queued when it starts, and a durable store's commit costs
// a disk sync however few items it holds, so under load a batch that
// waits a moment for the callers still validating takes fewer syncs per
// item. It waits until half of them have queued, no more: a batch of
// every caller would leave none validating while its sync runs, and the
// cores idle for the sync's length each batch; the other half validates
// meanwhile, and joins the next batch. It waits no longer than the last
// commit took: about what a caller that misses the batch would wait for
// the next one. A commit that costs nothing (an in-memory store's) is
// worth no waiting, which would only leave cores idle.
type GroupCommit[T any] struct {
	commit func(items []T) error

	// coming, when set, counts the callers that have called or will soon
	// call do (queued ones included); a commit waits for half of them to
	// queue, woken by Arrived, up to the time the last commit took and
	// never more than gatherWait. Whoever lowers the count calls Arrived.
	coming     func() int
	gatherWait time.Duration
	wake       chan struct{} // an item queued, a caller stopped coming, or a hold began

	mu    *sync.Mutex   // the owner's lock (the mempool's), which guards the fields below
	busy  bool          // a caller is committing
	held  bool          // between Hold and Release
	took  time.Duration // how long the last commit took; gatherWait until one is timed
	timed bool          // took holds a commit's time
	queue []Pending[T]
}

// NewGroupCommit returns a GroupCommit that stores batches with commit,
// guarded by mu, the owner's lock; coming, if not nil, counts the callers
// on their way, for whom a commit waits up to gatherWait.
func NewGroupCommit[T any](mu *sync.Mutex, commit func(items []T) error, coming func() int, gatherWait time.Duration) *GroupCommit[T] {
	return &GroupCommit[T]{mu: mu, commit: commit, coming: coming, gatherWait: gatherWait, wake: make(chan struct{}, 1)}
}

// Queued returns how many items wait for a commit that has not started.
func (g *GroupCommit[T]) Queued() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.queue)
}

// Pending is an item waiting for its commit, taken by a holder (Take),
// which answers its caller with Settle.
type Pending[T any] struct {
	Item T // what the caller queued
	done chan error
}

// Do commits item and returns the commit's error.
func (g *GroupCommit[T]) Do(item T) error {
	done := make(chan error, 1)
	g.mu.Lock()
	g.queue = append(g.queue, Pending[T]{item, done})
	if g.busy || g.held {
		g.mu.Unlock()
		g.Arrived()
		return <-done
	}
	g.busy = true
	g.lead()
	g.mu.Unlock()
	return <-done
}

// lead commits the queue, batch after batch, until it is empty or held;
// the caller holds g.mu and has set busy, which lead clears.
func (g *GroupCommit[T]) lead() {
	for len(g.queue) > 0 && !g.held {
		g.gather()
		if g.held || len(g.queue) == 0 { // a writer took the queue meanwhile
			break
		}
		batch := g.queue
		g.queue = nil
		g.mu.Unlock()
		items := make([]T, len(batch))
		for i, p := range batch {
			items[i] = p.Item
		}
		start := time.Now()
		err := g.commit(items)
		took := time.Since(start)
		for _, p := range batch {
			p.Settle(err)
		}
		g.mu.Lock()
		g.took, g.timed = took, true
	}
	g.busy = false
}

// gather waits, with g.mu held (and released while it waits), until half
// the callers coming have queued, a hold begins or takes the queue, or the
// time the last commit took (at most gatherWait) has passed.
func (g *GroupCommit[T]) gather() {
	wait := g.gatherWait
	if g.timed {
		wait = min(wait, g.took)
	}
	if g.coming == nil || wait <= 0 || g.gathered() {
		return
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for !g.held && len(g.queue) > 0 && !g.gathered() {
		g.mu.Unlock()
		select {
		case <-g.wake:
		case <-timer.C:
			g.mu.Lock()
			return
		}
		g.mu.Lock()
	}
}

// gathered reports whether half the callers coming (or more) have queued;
// the caller holds g.mu.
func (g *GroupCommit[T]) gathered() bool { return 2*len(g.queue) >= g.coming() }

// Arrived wakes a commit gathering items: one was queued, or a caller
// counted by coming no longer comes.
func (g *GroupCommit[T]) Arrived() {
	select {
	case g.wake <- struct{}{}:
	default:
	}
}

// Hold keeps the items queued from now on for the caller, which must call
// Take, then Release.
func (g *GroupCommit[T]) Hold() {
	g.mu.Lock()
	g.held = true
	g.mu.Unlock()
	g.Arrived()
}

// Take removes the queued items that no commit has started on and returns
// them; the caller makes them durable and reports each with Settle. Items
// queued from now on wait for Release.
func (g *GroupCommit[T]) Take() []Pending[T] {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.takeLocked()
}

// takeLocked is Take with the owner's lock held.
func (g *GroupCommit[T]) takeLocked() []Pending[T] {
	q := g.queue
	g.queue = nil
	return q
}

// Release ends a hold: the items queued since are committed, by a new
// goroutine unless a commit is under way, which goes on to them.
func (g *GroupCommit[T]) Release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.held = false
	if g.busy || len(g.queue) == 0 {
		return
	}
	g.busy = true
	go func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.lead()
	}()
}

// Settle tells the caller waiting for an item what became of it: the one
// place a commit's answer is sent from.
func (p Pending[T]) Settle(err error) { p.done <- err }
