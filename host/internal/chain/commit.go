package chain

import "sync"

// groupCommit writes items in batches: the first caller to arrive commits
// what is queued, callers arriving meanwhile queue up for the next batch,
// and each caller returns once its item is committed. Under load many
// items share one store Update (one disk sync), while a lone item is
// committed at once. Another writer about to write anyway may hold the
// queue (hold), so that no commit starts on what arrives meanwhile, then
// take it (take) and make it durable in its own Update (settle).
type groupCommit[T any] struct {
	commit func(items []T) error

	mu    sync.Mutex
	busy  bool // a caller is committing
	held  bool // between hold and take
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
		return <-done
	}
	g.busy = true
	for len(g.queue) > 0 && !g.held {
		batch := g.queue
		g.queue = nil
		g.mu.Unlock()
		items := make([]T, len(batch))
		for i, p := range batch {
			items[i] = p.item
		}
		err := g.commit(items)
		for _, p := range batch {
			p.done <- err
		}
		g.mu.Lock()
	}
	g.busy = false
	g.mu.Unlock()
	return <-done
}

// hold keeps the items queued from now on for the caller, which must call
// take.
func (g *groupCommit[T]) hold() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.held = true
}

// take ends a hold: it removes the queued items that no commit has started
// on and returns them; the caller makes them durable and reports each with
// settle.
func (g *groupCommit[T]) take() []pending[T] {
	g.mu.Lock()
	defer g.mu.Unlock()
	q := g.queue
	g.queue, g.held = nil, false
	return q
}

// settle tells the caller waiting for a taken item what became of it.
func (p pending[T]) settle(err error) { p.done <- err }
