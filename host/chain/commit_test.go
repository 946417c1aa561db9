package chain

import (
	"errors"
	"slices"
	"testing"
	"time"
)

// Items queued during a hold are left to the holder: the running commit
// does not go on to them, and their callers return what the holder says.
func TestGroupCommitHold(t *testing.T) {
	release := make(chan struct{})
	var committed [][]int
	g := groupCommit[int]{commit: func(items []int) error {
		committed = append(committed, slices.Clone(items))
		<-release
		return nil
	}}
	leader, others := make(chan error, 1), make(chan error, 2)
	go func() { leader <- g.do(1) }() // held in its commit
	waitQueued(t, &g, 0)
	g.hold()
	go func() { others <- g.do(2) }()
	go func() { others <- g.do(3) }()
	waitQueued(t, &g, 2)
	close(release)
	if err := <-leader; err != nil {
		t.Fatal(err)
	}
	if len(committed) != 1 || !slices.Equal(committed[0], []int{1}) {
		t.Fatalf("committed %v, want only the leader's item", committed)
	}
	taken := g.take()
	if len(taken) != 2 {
		t.Fatalf("took %d items, want 2", len(taken))
	}
	refused := errors.New("refused")
	for _, p := range taken {
		err := error(nil)
		if p.item == 3 {
			err = refused
		}
		p.settle(err)
	}
	got := map[error]int{}
	for range 2 {
		got[<-others]++
	}
	if got[nil] != 1 || got[refused] != 1 {
		t.Errorf("callers got %v, want nil once and the refusal once", got)
	}
	// After take, a new item is committed at once again.
	if err := g.do(4); err != nil || len(committed) != 2 || !slices.Equal(committed[1], []int{4}) {
		t.Errorf("after take: %v, committed %v", err, committed)
	}
}

// waitQueued waits until n items wait in g's queue while a commit runs.
func waitQueued(t *testing.T, g *groupCommit[int], n int) {
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
