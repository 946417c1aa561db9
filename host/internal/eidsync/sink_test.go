package eidsync_test

import (
	"context"
	"fmt"
	"sync"

	"github.com/didlight/didlight/host/internal/eidsync"
)

// memSink is a Sink in memory that records what it was given, and checks
// that every Apply continues its head.
type memSink struct {
	mu        sync.Mutex
	blocks    []*eidsync.Block // applied, consecutive
	applies   []int            // the length of each Apply
	rollbacks []uint64         // the number each Rollback went back to
	onApply   func(s *memSink) // called after each Apply, unlocked
}

func (s *memSink) Head() (uint64, eidsync.Hash, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.blocks) == 0 {
		return 0, eidsync.Hash{}, false
	}
	b := s.blocks[len(s.blocks)-1]
	return b.Number, b.Hash, true
}

func (s *memSink) HashAt(n uint64) (eidsync.Hash, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.blocks) == 0 || n < s.blocks[0].Number || n > s.blocks[len(s.blocks)-1].Number {
		return eidsync.Hash{}, false
	}
	return s.blocks[n-s.blocks[0].Number].Hash, true
}

func (s *memSink) Apply(ctx context.Context, blocks []*eidsync.Block) error {
	s.mu.Lock()
	for i, b := range blocks {
		prev := (*eidsync.Block)(nil)
		if i > 0 {
			prev = blocks[i-1]
		} else if len(s.blocks) > 0 {
			prev = s.blocks[len(s.blocks)-1]
		}
		if prev != nil && (b.Number != prev.Number+1 || b.Parent != prev.Hash) {
			s.mu.Unlock()
			return fmt.Errorf("memSink: block %d %s does not follow block %d %s", b.Number, b.Parent, prev.Number, prev.Hash)
		}
	}
	s.blocks = append(s.blocks, blocks...)
	s.applies = append(s.applies, len(blocks))
	on := s.onApply
	s.mu.Unlock()
	if on != nil {
		on(s)
	}
	return nil
}

func (s *memSink) Rollback(n uint64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.blocks) == 0 || n+1 < s.blocks[0].Number {
		return fmt.Errorf("memSink: no block %d to roll back to", n)
	}
	s.blocks = s.blocks[:n+1-s.blocks[0].Number]
	s.rollbacks = append(s.rollbacks, n)
	return nil
}

// ops returns the operations applied, in order, as "block/index data".
func (s *memSink) ops() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, b := range s.blocks {
		for _, op := range b.Ops {
			out = append(out, fmt.Sprintf("%d/%d %s %s", b.Number, op.Index, op.TxHash, op.Data))
		}
	}
	return out
}
