package node

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// A node started with a budget trims its store at once, the process's
// RssFile being over a byte, and no more once Stop returns.
func TestStartTrims(t *testing.T) {
	c, err := chain.Open(chain.Config{DB: mem.New()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	f := &countingMapped{trimmed: make(chan struct{}, 1)}
	n, err := Start(c, Config{Mapped: f, MapBudget: 1})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-f.trimmed:
	case <-time.After(10 * time.Second):
		t.Error("no trim")
	}
	if err := n.Stop(); err != nil {
		t.Fatal(err)
	}
	before := f.trims.Load()
	time.Sleep(TrimInterval + TrimInterval/2)
	if after := f.trims.Load(); after != before {
		t.Errorf("%d trims after Stop", after-before)
	}
}

// countingMapped is a MappedStore that counts its trims, for a node.
type countingMapped struct {
	trims   atomic.Int64
	trimmed chan struct{} // receives after a trim
}

func (f *countingMapped) Trim() error {
	f.trims.Add(1)
	select {
	case f.trimmed <- struct{}{}:
	default:
	}
	return nil
}

func (f *countingMapped) Scanned() <-chan struct{} { return nil }
