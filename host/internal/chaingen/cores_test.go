package chaingen

import (
	"testing"
	"time"
)

// A core given back goes to the writer, though a worker asked first; the
// worker takes the next.
func TestCoresWriterFirst(t *testing.T) {
	c := newCores(2)
	c.take(false)
	c.take(false)
	took := make(chan string, 2)
	go func() { c.take(false); took <- "worker" }()
	time.Sleep(10 * time.Millisecond) // the worker most likely waits first; the order holds either way
	go func() { c.take(true); took <- "writer" }()
	for waiting := false; !waiting; {
		c.mu.Lock()
		waiting = c.writer
		c.mu.Unlock()
	}
	c.give()
	if got := <-took; got != "writer" {
		t.Fatalf("the core given back went to the %s, want the writer", got)
	}
	c.give()
	if got := <-took; got != "worker" {
		t.Fatalf("the next core went to the %s, want the worker", got)
	}
	if c.free != 0 || c.writer {
		t.Errorf("%d cores free, writer waiting %v; want 0, false", c.free, c.writer)
	}
}
