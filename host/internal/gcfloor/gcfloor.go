// Package gcfloor keeps the garbage collector from running too often on a small heap.
//
// Go collects when the heap has grown by GOGC percent of what the last
// collection found live (4 MB at least): a node with a small live heap,
// serving many requests a second that each allocate a few kilobytes,
// collects many times a second, each cycle's fixed costs and
// stop-the-world pauses paid over and over. With a floor, the heap may grow
// by at least that many bytes between collections; once the live heap
// outgrows it, GOGC rules as before, so that a large heap costs no more
// memory than without.
package gcfloor

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// minHeap is the runtime's least heap goal at GOGC=100 (defaultHeapMinimum
// in runtime/mgcpacer.go).
const minHeap = 4 << 20

// Node is how far `didlight node`'s heap may grow past its live heap before
// the collector runs, at least, unless GOGC or GOMEMLIMIT say otherwise.
// Serving, a node allocates a few KB a request and keeps little, so the
// room saves CPU a request (docs/benchmarks.md has the figures). A heap
// past 64 MB live is collected as GOGC=100 would.
const Node = 64 << 20

// liveMetric is the heap the last collection found live (runtime/metrics).
const liveMetric = "/gc/heap/live:bytes"

// running is set while a floor runs in this process.
var running atomic.Bool

// floor is the policy while it runs. The runtime's cleanup goroutine calls
// it after each collection, and stop may run meanwhile: mu orders them, so
// that no percent is set after stop has restored base.
type floor struct {
	bytes uint64 // the least the heap may grow by between collections
	base  int    // the GOGC percent in force at Start, the least set

	mu      sync.Mutex
	percent int  // the percent set last
	stopped bool // by stop: set no percent, arm no call
	sample  []metrics.Sample
}

// Start has the collector let the heap grow by at least bytes past the
// live heap before it collects again: after each collection it sets the
// GOGC percent to bytes over the live heap, or to the percent in force
// when it started if that is more. The returned stop restores that percent.
// With the collector off (GOGC=off), or a floor already started and not
// stopped (a process runs one policy: a second would take the first's
// percent for its base), it does nothing.
func Start(bytes uint64) (stop func()) {
	if !running.CompareAndSwap(false, true) {
		return func() {}
	}
	base := debug.SetGCPercent(100)
	debug.SetGCPercent(base)
	if base < 0 {
		running.Store(false)
		return func() {}
	}
	f := &floor{bytes: bytes, base: base, percent: base, sample: []metrics.Sample{{Name: liveMetric}}}
	f.adjust()
	f.arm()
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.stopped = true
		debug.SetGCPercent(base)
		running.Store(false)
	}
}

// arm has the runtime call f.collected after the next collection: a
// cleanup of an object that nothing holds. (A pointer-holding object,
// never batched by the tiny allocator with others that might live on.)
func (f *floor) arm() {
	runtime.AddCleanup(new(*int), (*floor).collected, f)
}

// collected runs after a collection: it sets the percent for the live heap
// the collection found and arms the next call.
func (f *floor) collected() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped {
		return
	}
	f.adjust()
	f.arm()
}

// adjust sets the percent for the live heap; f.mu is held, or f not yet
// shared.
func (f *floor) adjust() {
	metrics.Read(f.sample)
	if p := percent(f.bytes, f.sample[0].Value.Uint64(), f.base); p != f.percent {
		f.percent = p
		debug.SetGCPercent(p)
	}
}

// percent is the GOGC percent that lets a heap of live bytes grow by
// floor bytes, or base if that is more. A live heap under 4 MB gets the
// percent of a 4 MB one: the runtime collects no heap smaller than 4 MB
// times GOGC/100 (its heapMinimum, runtime/mgcpacer.go), which a larger
// percent would raise past live+floor.
func percent(floor, live uint64, base int) int {
	live = max(live, minHeap)
	return max(base, int(floor*100/live))
}
