package chain

import "sync"

// subscribers are the channels Subscribe handed out.
type subscribers struct {
	mu   sync.Mutex
	next int
	m    map[int]chan uint32
}

// Subscribe returns a channel that receives the height of each new tip
// (after a reset, 0), and a function that ends the subscription. A slow
// reader misses intermediate heights but always gets the latest; the
// channel is closed when the subscription ends or the chain closes.
func (c *Chain) Subscribe() (<-chan uint32, func()) {
	s := &c.subs
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := make(chan uint32, 1)
	if s.m == nil {
		s.m = make(map[int]chan uint32)
	}
	if c.isClosed() {
		close(ch)
		return ch, func() {}
	}
	id := s.next
	s.next++
	s.m[id] = ch
	return ch, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if ch, ok := s.m[id]; ok {
			delete(s.m, id)
			close(ch)
		}
	}
}

// notify sends height to every subscriber, replacing a height not yet read.
func (s *subscribers) notify(height uint32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ch := range s.m {
		select {
		case <-ch:
		default:
		}
		ch <- height
	}
}

func (s *subscribers) closeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, ch := range s.m {
		delete(s.m, id)
		close(ch)
	}
}
