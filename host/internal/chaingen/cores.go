package chaingen

import "sync"

// cores shares the machine's cores between the store writer and the
// workers that sign and verify blocks ahead of it. The writer is the one
// serial stage, which every block waits for, so it gets a core as soon as
// it asks (the workers take no more until it has one); the workers take a
// core for each transaction, and so fill every core the writer leaves.
// Its fields are guarded by mu.
type cores struct {
	mu      sync.Mutex
	changed *sync.Cond // free or writer changed
	free    int        // cores no one holds
	writer  bool       // the writer waits for a core
}

func newCores(n int) *cores {
	c := &cores{free: n}
	c.changed = sync.NewCond(&c.mu)
	return c
}

// take waits for a core; the writer's turn comes before any worker's.
func (c *cores) take(writer bool) {
	c.mu.Lock()
	c.writer = c.writer || writer
	for c.free == 0 || !writer && c.writer {
		c.changed.Wait()
	}
	c.free--
	if writer {
		c.writer = false
		c.changed.Broadcast() // the workers may take what is left
	}
	c.mu.Unlock()
}

// give returns a core taken.
func (c *cores) give() {
	c.mu.Lock()
	c.free++
	c.mu.Unlock()
	c.changed.Broadcast()
}
