package chain

import (
	"errors"
	"slices"
	"testing"
	"time"
)

// A writer that takes the queued items settles them: their callers return
// what it says, and the group commit does not write them again.
func TestGroupCommitTake(t *testing.T) {
	release := make(chan struct{})
	var committed [][]int
	g := groupCommit[int]{commit: func(items []int) error {
		committed = append(committed, slices.Clone(items))
		<-release
		return nil
	}}
	results := make(chan error, 3)
	go func() { results <- g.do(1) }() // the leader, held in its commit
	waitQueued(t, &g, 0)
	go func() { results <- g.do(2) }()
	go func() { results <- g.do(3) }()
	waitQueued(t, &g, 2)
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
		got[<-results]++
	}
	close(release)
	got[<-results]++
	if got[nil] != 2 || got[refused] != 1 {
		t.Errorf("callers got %v, want nil twice and the refusal once", got)
	}
	if len(committed) != 1 || !slices.Equal(committed[0], []int{1}) {
		t.Errorf("committed %v, want only the leader's item", committed)
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
