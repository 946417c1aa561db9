package chain

// subscribers are the channels Subscribe handed out; the chain's mu
// guards them, so that a subscriber hears of every tip set after it
// subscribed.
type subscribers struct {
	next int
	m    map[int]chan uint32
}

// Subscribe returns a channel that receives the height of each new tip
// (after a reset, 0), and a function that ends the subscription. A slow
// reader misses intermediate heights but always gets the latest; the
// channel is closed when the subscription ends or the chain closes.
func (c *Chain) Subscribe() (<-chan uint32, func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := &c.subs
	ch := make(chan uint32, 1)
	if s.m == nil {
		s.m = make(map[int]chan uint32)
	}
	if c.closed {
		close(ch)
		return ch, func() {}
	}
	id := s.next
	s.next++
	s.m[id] = ch
	return ch, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if ch, ok := s.m[id]; ok {
			delete(s.m, id)
			close(ch)
		}
	}
}

// notify sends height to every subscriber, replacing a height not yet
// read; the caller holds c.mu.
func (s *subscribers) notify(height uint32) {
	for _, ch := range s.m {
		select {
		case <-ch:
		default:
		}
		ch <- height
	}
}

// closeAll ends every subscription; the caller holds c.mu.
func (s *subscribers) closeAll() {
	for id, ch := range s.m {
		delete(s.m, id)
		close(ch)
	}
}
