package chain

import (
	"sync"
	"time"
)

// groupCommit writes items in batches: the first caller to arrive commits
// what is queued, callers arriving meanwhile queue up for the next batch,
// and each caller returns once its item is committed. Under load many
// items share one store Update (one disk sync), while a lone item is
// committed at once. Another writer about to write anyway may hold the
// queue (hold), so that no commit starts on what arrives meanwhile, then
// take it (take) and make it durable in its own Update (settle), and
// release it once its Update is done (release): what queued after the
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
type groupCommit[T any] struct {
	commit func(items []T) error

	// coming, when set, counts the callers that have called or will soon
	// call do (queued ones included); a commit waits for half of them to
	// queue, woken by arrived, up to the time the last commit took and
	// never more than gatherWait. Whoever lowers the count calls arrived.
	coming     func() int
	gatherWait time.Duration
	wake       chan struct{} // an item queued, a caller stopped coming, or a hold began

	mu    *sync.Mutex   // the owner's lock (the mempool's), which guards the fields below
	busy  bool          // a caller is committing
	held  bool          // between hold and release
	took  time.Duration // how long the last commit took; gatherWait until one is timed
	timed bool          // took holds a commit's time
	queue []pending[T]
}

type pending[T any] struct {
	item T
	done chan error
}

// do commits item and returns the commit's error.
func (g *groupCommit[T]) do(item T) error {
	done := make(chan error, 1)
	g.mu.Lock()
	g.queue = append(g.queue, pending[T]{item, done})
	if g.busy || g.held {
		g.mu.Unlock()
		g.arrived()
		return <-done
	}
	g.busy = true
	g.lead()
	g.mu.Unlock()
	return <-done
}

// lead commits the queue, batch after batch, until it is empty or held;
// the caller holds g.mu and has set busy, which lead clears.
func (g *groupCommit[T]) lead() {
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
			items[i] = p.item
		}
		start := time.Now()
		err := g.commit(items)
		took := time.Since(start)
		for _, p := range batch {
			p.settle(err)
		}
		g.mu.Lock()
		g.took, g.timed = took, true
	}
	g.busy = false
}

// gather waits, with g.mu held (and released while it waits), until half
// the callers coming have queued, a hold begins or takes the queue, or the
// time the last commit took (at most gatherWait) has passed.
func (g *groupCommit[T]) gather() {
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
func (g *groupCommit[T]) gathered() bool { return 2*len(g.queue) >= g.coming() }

// arrived wakes a commit gathering items: one was queued, or a caller
// counted by coming no longer comes.
func (g *groupCommit[T]) arrived() {
	select {
	case g.wake <- struct{}{}:
	default:
	}
}

// hold keeps the items queued from now on for the caller, which must call
// take, then release.
func (g *groupCommit[T]) hold() {
	g.mu.Lock()
	g.held = true
	g.mu.Unlock()
	g.arrived()
}

// take removes the queued items that no commit has started on and returns
// them; the caller makes them durable and reports each with settle. Items
// queued from now on wait for release.
func (g *groupCommit[T]) take() []pending[T] {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.takeLocked()
}

// takeLocked is take with g.mu held.
func (g *groupCommit[T]) takeLocked() []pending[T] {
	q := g.queue
	g.queue = nil
	return q
}

// release ends a hold: the items queued since are committed, by a new
// goroutine unless a commit is under way, which goes on to them.
func (g *groupCommit[T]) release() {
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

// settle tells the caller waiting for an item what became of it: the one
// place a commit's answer is sent from.
func (p pending[T]) settle(err error) { p.done <- err }
