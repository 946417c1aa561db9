package mempool

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/core/spend"
	"github.com/didlight/didlight/host/internal/store"
)

// The answers of submitters whose entries leave the pool without a block;
// the chain returns them as its own.
var (
	// ErrReset answers an entry a reset of the chain took out, or one
	// that may enter only an epoch the chain has left (Slot.Within).
	ErrReset = errors.New("chain: the chain was reset")
	// ErrClosed answers the entries pooled when the pool closed, and an
	// entry kept after that.
	ErrClosed = fmt.Errorf("chain: %w", store.ErrClosed)
)

// Position is the chain state a validation was made against: the epoch
// (which a reset changes) and the tip.
type Position struct {
	Epoch  uint64
	Height uint32
	Tip    ela.Hash
}

// Slot is what the pool keeps with each entry: an entry type embeds it,
// which makes it an [Entry].
type Slot struct {
	Within bool   // it may be pooled only while the chain's epoch is WantIn (SubmitRequestIn)
	WantIn uint64 // that epoch

	// Set under the pool's lock.
	Epoch     uint64     // the chain's epoch when it was pooled
	Seq       uint64     // the pool bucket's key, if stored there, else 0
	Logged    uint64     // the record's id in the mempool log, if stored there, else 0
	Persisted bool       // stored (in the bucket or the log), or kept in memory (Keep): a block may include it
	answered  bool       // Done has its answer
	Done      chan error // the submitter's answer (Pool.answer): nil once in a block, or why it will not be
}

// PoolSlot returns s: through it, a type that embeds a Slot is an
// [Entry].
func (s *Slot) PoolSlot() *Slot { return s }

// Entry is a transaction the pool holds: a pointer to a type that embeds
// a [Slot] and says what the pool's rules see of it.
type Entry interface {
	comparable
	PoolSlot() *Slot
	PoolTx() ledger.PoolTx
}

// InBucket and InLog are MarkPersisted's at for entries stored under seqs
// in the pool bucket, or as the records ids of the mempool log.
func InBucket(seqs []uint64) func(int, *Slot) { return func(i int, s *Slot) { s.Seq = seqs[i] } }

// InLog is MarkPersisted's at for entries appended to the mempool log as
// the records ids.
func InLog(ids []uint64) func(int, *Slot) { return func(i int, s *Slot) { s.Logged = ids[i] } }

// Pool owns the transactions the chain has accepted and what is under way
// for them: the entries in arrival order, kept free of conflicts by the
// rules of ledger.Pool, so that a block may include any of them in any
// order; the queue of entries waiting to be stored (Commits); and the dev
// outputs SubmitRequest has claimed to fund a request. mu guards all of
// it, and no other lock is taken while it is held: it comes after the
// chain's locks.
type Pool[E Entry] struct {
	mu      sync.Mutex
	changed *sync.Cond // broadcast when at changes
	at      Position   // the state every entry was validated against
	rules   *ledger.Pool[E]
	order   []E
	claimed map[ela.Input]bool // dev outputs a funding transaction is being built on
	persist *GroupCommit[E]
	closed  bool // by Close: Keep refuses entries
}

// New returns an empty pool at the state at, holding at most max entries
// of maxBytes together, whose entries are stored by commit, in batches
// that wait up to gatherWait for the admissions coming counts (see
// [GroupCommit]).
func New[E Entry](max, maxBytes int, at Position, commit func([]E) error, coming func() int, gatherWait time.Duration) *Pool[E] {
	p := &Pool[E]{at: at, rules: ledger.NewPool[E](max, maxBytes), claimed: make(map[ela.Input]bool)}
	p.changed = sync.NewCond(&p.mu)
	p.persist = NewGroupCommit(&p.mu, commit, coming, gatherWait)
	return p
}

// Commits returns the queue of entries waiting to be stored: admissions
// commit through it, and a block being made may hold and take it.
func (p *Pool[E]) Commits() *GroupCommit[E] { return p.persist }

// Add adds e, validated against the state at, unless it breaks a rule of
// the pool (a *ledger.RuleError). It reports false, and adds nothing, when
// the chain has moved on since at: the caller validates again. A
// validation older than the pool's state is retried at once; a newer one
// (a block committed but not yet applied to the pool) waits for the pool.
func (p *Pool[E]) Add(e E, at Position) (bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for at.Epoch == p.at.Epoch && at.Height > p.at.Height {
		p.changed.Wait()
	}
	if at != p.at {
		return false, nil
	}
	s := e.PoolSlot()
	if s.Within && at.Epoch != s.WantIn {
		return false, ErrReset
	}
	if err := p.rules.Add(e.PoolTx(), e); err != nil {
		return false, err
	}
	s.Epoch = at.Epoch
	p.order = append(p.order, e)
	return true, nil
}

// Pending refuses (with a *ledger.RuleError) an identity operation on a
// DID or credential with an operation in the pool already.
func (p *Pool[E]) Pending(e E) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rules.CheckPending(e.PoolTx().Op)
}

// answer gives e's submitter its answer, once; the caller holds mu. It is
// the one place that answers: a block took e in (nil), evicted it, a reset
// dropped it, or the pool closed.
func (p *Pool[E]) answer(e E, err error) {
	if s := e.PoolSlot(); !s.answered {
		s.answered = true
		s.Done <- err
	}
}

// leave takes the entries of gone out and answers each with its error;
// the caller holds mu.
func (p *Pool[E]) leave(gone map[E]error) {
	if len(gone) == 0 {
		return
	}
	p.order = slices.DeleteFunc(p.order, func(e E) bool {
		_, out := gone[e]
		return out
	})
	for e, err := range gone {
		p.rules.Remove(e.PoolTx().Txid)
		p.answer(e, err)
	}
}

// Remove takes e out after its admission failed, if it is still in.
func (p *Pool[E]) Remove(e E, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.holdsLocked(e) {
		p.leave(map[E]error{e: err})
	}
}

func (p *Pool[E]) holdsLocked(e E) bool {
	got, ok := p.rules.Get(e.PoolTx().Txid)
	return ok && got == e
}

// MarkPersisted records that entries are stored, each where at (which
// sets Seq or Logged for the i-th) says.
func (p *Pool[E]) MarkPersisted(entries []E, at func(i int, s *Slot)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, e := range entries {
		s := e.PoolSlot()
		at(i, s)
		s.Persisted = true
	}
}

// Keep records that e is kept in memory only, on a store that keeps
// nothing past the process, unless the pool is closed (ErrClosed): an
// entry kept after Close stored the kept ones would be lost.
func (p *Pool[E]) Keep(e E) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return ErrClosed
	}
	e.PoolSlot().Persisted = true
	return nil
}

// Unstored returns the entries a block may include that the pool bucket
// does not hold (those of the mempool log, or kept in memory), in arrival
// order.
func (p *Pool[E]) Unstored() []E {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []E
	for _, e := range p.order {
		if s := e.PoolSlot(); s.Persisted && s.Seq == 0 {
			out = append(out, e)
		}
	}
	return out
}

// Ready returns the stored entries in arrival order: those a block may
// include.
func (p *Pool[E]) Ready() []E {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.readyLocked()
}

func (p *Pool[E]) readyLocked() []E {
	out := make([]E, 0, len(p.order))
	for _, e := range p.order {
		if e.PoolSlot().Persisted {
			out = append(out, e)
		}
	}
	return out
}

// ForBlock returns the entries a block may take: the stored ones and, if
// take, then those waiting for their commit, whose queue the block being
// made holds (Commits().Hold) and takes, as its Update makes them durable.
// It returns the waiting ones too, to settle once it is done, with those
// the pool no longer holds (a Reset took them out).
func (p *Pool[E]) ForBlock(take bool) (entries []E, taken []Pending[E], dropped map[E]bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	entries, dropped = p.readyLocked(), make(map[E]bool)
	if take {
		taken = p.persist.takeLocked()
	}
	for _, t := range taken {
		if p.holdsLocked(t.Item) {
			entries = append(entries, t.Item)
		} else {
			dropped[t.Item] = true
		}
	}
	return entries, taken, dropped
}

// Advance moves the pool to the state at after a block, taking out and
// answering the entries of gone.
func (p *Pool[E]) Advance(at Position, gone map[E]error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.leave(gone)
	p.at = at
	p.changed.Broadcast()
}

// Reset empties the pool for the state at; its entries' submitters get
// ErrReset.
func (p *Pool[E]) Reset(at Position) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range p.order {
		p.answer(e, ErrReset)
	}
	p.order = nil
	p.rules.Clear()
	p.at = at
	p.changed.Broadcast()
}

// Close answers every entry's submitter with ErrClosed and keeps no more
// entries; the entries stay, as the stored mempool keeps them.
func (p *Pool[E]) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for _, e := range p.order {
		p.answer(e, ErrClosed)
	}
}

// Entries returns the pooled entries in arrival order.
func (p *Pool[E]) Entries() []E {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.order)
}

// Get returns the pooled entry whose transaction has id h.
func (p *Pool[E]) Get(h ela.Hash) (E, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rules.Get(h)
}

// Len returns how many transactions the pool holds.
func (p *Pool[E]) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.order)
}

// Spent reports whether a pooled transaction spends the outpoint.
func (p *Pool[E]) Spent(in ela.Input) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.rules.Spender(in)
	return ok
}

// Claim claims the first of coins that no pooled transaction spends, no
// other funder has claimed and that holds at least min, for the caller to
// spend; the caller releases it (Unclaim) once its transaction is pooled
// or refused. It returns the coin's index, -1 if none, and how many coins
// are free (neither spent nor claimed) and how many busy.
func (p *Pool[E]) Claim(coins []spend.Coin, min ela.Fixed64) (i, free, busy int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	i = -1
	for j, c := range coins {
		in := ela.Input{TxID: c.Txid, Index: c.Index}
		if _, spent := p.rules.Spender(in); spent || p.claimed[in] {
			busy++
			continue
		}
		free++
		if i < 0 && c.Value >= min {
			i = j
			p.claimed[in] = true
		}
	}
	return i, free, busy
}

// Unclaim releases an output Claim returned.
func (p *Pool[E]) Unclaim(in ela.Input) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.claimed, in)
}
