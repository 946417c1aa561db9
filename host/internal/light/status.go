package light

import (
	"sync"
	"sync/atomic"
	"time"
)

// logEvery is how often a kind of event (an answer refused, the upstream
// failing) is logged at most; the line says how many happened since.
const logEvery = 10 * time.Second

// counters count what the Resolver did, and remember the last refusal and
// upstream failure; mu guards the two logs.
type counters struct {
	kept, asked, verified, reused, refused, failed atomic.Uint64

	mu                 sync.Mutex
	refusals, failures eventLog
}

// eventLog is the last event of a kind and when the kind was last logged.
type eventLog struct {
	last     *Event
	loggedAt time.Time
	unlogged int // events since the last line
}

// event records what as the last event of l's kind and calls log, at most
// every logEvery, with the number of such events since the last line.
func (c *counters) event(l *eventLog, what string, log func(more int)) {
	now := time.Now()
	c.mu.Lock()
	l.last = &Event{At: now.UTC(), What: what}
	more, due := l.unlogged, now.Sub(l.loggedAt) >= logEvery
	if due {
		l.loggedAt, l.unlogged = now, 0
	} else {
		l.unlogged++
	}
	c.mu.Unlock()
	if due {
		log(more)
	}
}

// Event is a refusal or failure as the status shows it.
type Event struct {
	At   time.Time
	What string
}

// Status is what the node state shows of a light node (its Light member).
type Status struct {
	Mode     string     // "light"
	Upstream []Endpoint // in the order the client asks them, the chosen one first
	ChainID  uint64     // 0 until the upstream has said it
	Head     *HeadState // nil until one is known
	Answers  Counts
	Kept     Kept
	// LastRefused is the last answer refused, LastFailure the last
	// request the upstream did not answer; nil for none.
	LastRefused *Event `json:",omitempty"`
	LastFailure *Event `json:",omitempty"`
}

// Endpoint is an upstream endpoint as its client knows it.
type Endpoint struct {
	URL      string
	Answered bool   // it answered the last probe
	Block    uint64 // the block it said was its head then
	Error    string `json:",omitempty"` // its last failure, if it has not answered since
}

// HeadState is the head the answers are kept for.
type HeadState struct {
	Height    uint64
	Time      time.Time // the block's time, at which expiry is judged
	Confirmed time.Time // when the upstream last said it is its head
}

// Counts are the answers the Resolver gave since it started.
type Counts struct {
	Kept     uint64 // served from what was kept for the head, unasked
	Asked    uint64 // asked of the upstream (other DIDs' and transactions for verification included)
	Verified uint64 // verified in full
	Reused   uint64 // asked again at a new head, the same bytes: their verification reused
	Refused  uint64 // failed verification: never served, never kept
	Failed   uint64 // requests the upstream did not answer
}

// Kept is what the Resolver keeps.
type Kept struct {
	Answers  int
	Bytes    int64
	MaxBytes int64
}

// Status returns the Resolver's state: for the node state (api.Light).
func (r *Resolver) Status() any { return r.State() }

// State returns the Resolver's state.
func (r *Resolver) State() Status {
	s := Status{Mode: "light"}
	for _, e := range r.client.Endpoints() {
		ep := Endpoint{URL: e.URL, Answered: e.Answered, Block: e.Block}
		if e.Err != nil {
			ep.Error = e.Err.Error()
		}
		s.Upstream = append(s.Upstream, ep)
	}
	s.ChainID, _ = r.ChainID()
	if h := r.heads.cur.Load(); h != nil {
		s.Head = &HeadState{Height: h.Number, Time: h.Time, Confirmed: h.Confirmed.UTC()}
	}
	c := &r.counts
	s.Answers = Counts{Kept: c.kept.Load(), Asked: c.asked.Load(), Verified: c.verified.Load(), Reused: c.reused.Load(),
		Refused: c.refused.Load(), Failed: c.failed.Load()}
	s.Kept.Answers, s.Kept.Bytes, s.Kept.MaxBytes = r.cache.stats()
	c.mu.Lock()
	s.LastRefused, s.LastFailure = c.refusals.last, c.failures.last
	c.mu.Unlock()
	return s
}
