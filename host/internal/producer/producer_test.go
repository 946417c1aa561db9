package producer

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeMaker counts the blocks it is asked for, refusing them with err.
type fakeMaker struct {
	waiting atomic.Bool
	made    atomic.Int64
	err     error
}

func (m *fakeMaker) Waiting() bool { return m.waiting.Load() }

func (m *fakeMaker) Make(context.Context, bool) error {
	m.made.Add(1)
	return m.err
}

// Run's wait between blocks ends once no admission is under way: nothing
// more is about to join the block.
func TestAwaitGapEndsWithAdmissions(t *testing.T) {
	p := New(&fakeMaker{}, 0, false, make(chan struct{}), slog.New(slog.DiscardHandler))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	later := time.Now().Add(time.Hour)
	if !p.awaitGap(ctx, later) {
		t.Fatal("awaitGap with no admission under way reported a stop")
	}
	p.Admitting()
	done := make(chan bool)
	go func() { done <- p.awaitGap(ctx, later) }()
	p.Admitted()
	if !<-done {
		t.Error("awaitGap reported a stop when the admission ended")
	}
	p.Admitting()
	go func() { done <- p.awaitGap(ctx, later) }()
	cancel()
	if <-done {
		t.Error("awaitGap went on after its context ended")
	}
	p.Admitted()
}

// Run asks for a block once transactions wait and it is signalled, never
// while it is off, and logs a block its maker cannot make; it returns
// when done is closed.
func TestRunMakesWhenSignalled(t *testing.T) {
	m := &fakeMaker{err: errors.New("the store failed")}
	var mu sync.Mutex
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&lockedWriter{mu: &mu, w: &logs}, nil))
	done := make(chan struct{})
	p := New(m, 0, true, done, log)
	stopped := make(chan error)
	go func() { stopped <- p.Run(context.Background()) }()

	m.waiting.Store(true)
	p.Signal()
	time.Sleep(20 * InstantGap) // many times what Run waits before a block
	if n := m.made.Load(); n != 0 {
		t.Fatalf("%d blocks asked for while off, want none", n)
	}
	p.SetOn(true)
	for deadline := time.Now().Add(5 * time.Second); m.made.Load() == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no block asked for once on")
		}
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		mu.Lock()
		logged := strings.Contains(logs.String(), LogCannotMake)
		mu.Unlock()
		if logged {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the refused block was never logged")
		}
	}
	close(done)
	if err := <-stopped; err != nil {
		t.Errorf("Run: %v", err)
	}
}

// lockedWriter writes to w under mu, for a log read while Run writes it.
type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}
