package light

import (
	"context"
	"sync"
	"time"
)

// kind is what a request asks for.
type kind uint8

const (
	kindHead kind = iota
	kindDID
	kindCredential
	kindList
)

// key names a request to the upstream: what flights share and the cache
// keeps answers by. subject is the DID or credential id as asked, in full
// form.
type key struct {
	kind        kind
	subject     string
	all         bool
	issuer      string
	skip, limit int
}

// flightTimeout bounds a request shared by its askers, every upstream call
// and verification it makes together: each call has the client's own
// timeouts, and this stops a verification that keeps needing more.
const flightTimeout = 2 * time.Minute

// flights are the requests to the upstream in progress, so that the
// askers of one request (the same DID after the head moved, say) share
// one answer and one verification.
type flights struct {
	mu sync.Mutex
	m  map[key]*flight
}

// flight is one request in progress; val and err are set before done is
// closed.
type flight struct {
	done chan struct{}
	val  any
	err  error
}

// do returns what fn returns for k, running it once for all who ask while
// it runs. The first asker runs it, in its own goroutine, with a context
// that keeps ctx's deadline (within flightTimeout) but not its
// cancellation: others may wait for the answer. They stop waiting when
// their own ctx ends, and get its error.
func (f *flights) do(ctx context.Context, k key, fn func(context.Context) (any, error)) (any, error) {
	f.mu.Lock()
	if fl, ok := f.m[k]; ok {
		f.mu.Unlock()
		select {
		case <-fl.done:
			return fl.val, fl.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	fl := &flight{done: make(chan struct{})}
	f.m[k] = fl
	f.mu.Unlock()
	deadline := time.Now().Add(flightTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	fctx, cancel := context.WithDeadline(context.WithoutCancel(ctx), deadline)
	fl.val, fl.err = fn(fctx)
	cancel()
	f.mu.Lock()
	delete(f.m, k)
	f.mu.Unlock()
	close(fl.done)
	return fl.val, fl.err
}
