package chain

import (
	"slices"
	"sync"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/mempool"
)

// The mempool's limits when Config leaves them 0: how many transactions it
// holds, and how many bytes they may take together.
const (
	DefaultMempoolSize  = 100_000
	DefaultMempoolBytes = 256 << 20
)

// entry is a transaction the chain has accepted into its mempool, with
// what admission learned about it so that making its block redoes nothing
// costly.
type entry struct {
	tx   *ela.Tx
	raw  []byte
	txid ela.Hash
	fee  ela.Fixed64
	sigs *verified // the signatures that verified, to check the operation again for free

	id *didindex.Operation // the identity operation it carries, or nil

	within bool   // it may be pooled only while the chain's epoch is in (SubmitRequestIn)
	wantIn uint64 // that epoch

	// Set under the mempool's lock.
	epoch     uint64     // the chain's epoch when it was pooled
	seq       uint64     // the pool bucket's key, if stored there, else 0
	logged    uint64     // the record's id in the mempool log, if stored there, else 0
	persisted bool       // stored (in the bucket or the log), or kept in memory (Chain.poolInMemory): a block may include it
	answered  bool       // done has its answer
	done      chan error // the submitter's answer (mempool.answer): nil once in a block, or why it will not be
}

// poolTx is e as the pool's rules see it.
func (e *entry) poolTx() ledger.PoolTx {
	t := ledger.PoolTx{Tx: e.tx, Txid: e.txid, Size: len(e.raw)}
	if e.id != nil {
		t.Op = e.id.Op
	}
	return t
}

// position is the chain state a validation was made against: the epoch
// (which a reset changes) and the tip.
type position struct {
	epoch  uint64
	height uint32
	tip    ela.Hash
}

// txPool owns the transactions the chain has accepted and what is under
// way for them: the entries in arrival order, kept free of conflicts by
// the rules of ledger.Pool, so that a block may include any of them in any
// order; the queue of entries waiting to be stored (persist); and the dev
// outputs SubmitRequest has claimed to fund a request. mu guards all of
// it, and no other lock is taken while it is held.
type txPool struct {
	mu      sync.Mutex
	changed *sync.Cond // broadcast when at changes
	at      position   // the state every entry was validated against
	rules   *ledger.Pool[*entry]
	order   []*entry
	claimed map[ela.Input]bool // dev outputs a funding transaction is being built on
	persist *mempool.GroupCommit[*entry]
	closed  bool // by close: keep refuses entries
}

// newMempool returns an empty pool at the state at whose entries are
// stored by commit, in batches that wait for the admissions coming counts
// (see groupCommit).
func newMempool(max, maxBytes int, at position, commit func([]*entry) error, coming func() int) *txPool {
	p := &txPool{at: at, rules: ledger.NewPool[*entry](max, maxBytes), claimed: make(map[ela.Input]bool)}
	p.changed = sync.NewCond(&p.mu)
	p.persist = mempool.NewGroupCommit(&p.mu, commit, coming, gatherWait)
	return p
}

// add adds e, validated against the state at, unless it breaks a rule of
// the pool. It reports false, and adds nothing, when the chain has moved
// on since at: the caller validates again. A validation older than the
// pool's state is retried at once; a newer one (a block committed but not
// yet applied to the pool) waits for the pool.
func (p *txPool) add(e *entry, at position) (bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for at.epoch == p.at.epoch && at.height > p.at.height {
		p.changed.Wait()
	}
	if at != p.at {
		return false, nil
	}
	if e.within && at.epoch != e.wantIn {
		return false, ErrReset
	}
	if err := p.rules.Add(e.poolTx(), e); err != nil {
		return false, asReject(err)
	}
	e.epoch = at.epoch
	p.order = append(p.order, e)
	return true, nil
}

// pending refuses an identity operation on a DID or credential with an
// operation in the pool already.
func (p *txPool) pending(e *entry) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return asReject(p.rules.CheckPending(e.poolTx().Op))
}

// answer gives e's submitter its answer, once; the caller holds mu. It is
// the one place that answers: a block took e in (nil), evicted it, a reset
// dropped it, or the chain closed.
func (p *txPool) answer(e *entry, err error) {
	if !e.answered {
		e.answered = true
		e.done <- err
	}
}

// leave takes the entries of gone out and answers each with its error;
// the caller holds mu.
func (p *txPool) leave(gone map[*entry]error) {
	if len(gone) == 0 {
		return
	}
	p.order = slices.DeleteFunc(p.order, func(e *entry) bool {
		_, out := gone[e]
		return out
	})
	for e, err := range gone {
		p.rules.Remove(e.txid)
		p.answer(e, err)
	}
}

// remove takes e out after its admission failed, if it is still in.
func (p *txPool) remove(e *entry, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.holdsLocked(e) {
		p.leave(map[*entry]error{e: err})
	}
}

func (p *txPool) holdsLocked(e *entry) bool {
	got, ok := p.rules.Get(e.txid)
	return ok && got == e
}

// markPersisted records that entries are stored, each where at (which
// sets seq or logged for the i-th) says.
func (p *txPool) markPersisted(entries []*entry, at func(i int, e *entry)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, e := range entries {
		at(i, e)
		e.persisted = true
	}
}

// inBucket and inLog are markPersisted's at for entries stored under seqs
// in the pool bucket, or as the records ids of the mempool log.
func inBucket(seqs []uint64) func(int, *entry) { return func(i int, e *entry) { e.seq = seqs[i] } }
func inLog(ids []uint64) func(int, *entry)     { return func(i int, e *entry) { e.logged = ids[i] } }

// keep records that e is kept in memory only, on a store that keeps
// nothing past the process (Chain.poolInMemory), unless the pool is
// closed: an entry kept after Close stored the kept ones would be lost.
func (p *txPool) keep(e *entry) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return errClosed
	}
	e.persisted = true
	return nil
}

// unstored returns the entries a block may include that the pool bucket
// does not hold (those of the mempool log, or kept in memory), in arrival
// order.
func (p *txPool) unstored() []*entry {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []*entry
	for _, e := range p.order {
		if e.persisted && e.seq == 0 {
			out = append(out, e)
		}
	}
	return out
}

// ready returns the stored entries in arrival order: those a block may
// include.
func (p *txPool) ready() []*entry {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.readyLocked()
}

func (p *txPool) readyLocked() []*entry {
	out := make([]*entry, 0, len(p.order))
	for _, e := range p.order {
		if e.persisted {
			out = append(out, e)
		}
	}
	return out
}

// forBlock returns the entries a block may take: the stored ones and, if
// take, then those waiting for their commit, whose queue the block being
// made holds (persist.hold) and takes, as its Update makes them durable.
// It returns the waiting ones too, to settle once it is done, with those
// the pool no longer holds (a Reset took them out).
func (p *txPool) forBlock(take bool) (entries []*entry, taken []mempool.Pending[*entry], dropped map[*entry]bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	entries, dropped = p.readyLocked(), make(map[*entry]bool)
	if take {
		taken = p.persist.TakeLocked()
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

// advance moves the pool to the state at after a block, taking out and
// answering the entries of gone.
func (p *txPool) advance(at position, gone map[*entry]error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.leave(gone)
	p.at = at
	p.changed.Broadcast()
}

// reset empties the pool for the state at; its entries' submitters get
// ErrReset.
func (p *txPool) reset(at position) {
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

// close answers every entry's submitter with errClosed and holds no more
// entries; the entries stay, as the stored mempool keeps them.
func (p *txPool) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for _, e := range p.order {
		p.answer(e, errClosed)
	}
}

// txs returns the pooled transactions in arrival order.
func (p *txPool) txs() []*ela.Tx {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]*ela.Tx, len(p.order))
	for i, e := range p.order {
		out[i] = e.tx
	}
	return out
}

// get returns the pooled transaction with id h.
func (p *txPool) get(h ela.Hash) (*ela.Tx, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	e, ok := p.rules.Get(h)
	if !ok {
		return nil, false
	}
	return e.tx, true
}

// len returns how many transactions the pool holds.
func (p *txPool) len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.order)
}

// spent reports whether a pooled transaction spends the outpoint.
func (p *txPool) spent(in ela.Input) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.rules.Spender(in)
	return ok
}

// claim claims the first output of outputs that no pooled transaction
// spends, no other funder has claimed and that holds at least min, for
// the caller to spend; the caller releases it (unclaim) once its
// transaction is pooled or refused. It returns the output's index, -1 if
// none, and how many outputs are free (neither spent nor claimed) and how
// many busy.
func (p *txPool) claim(outputs []UTXO, min ela.Fixed64) (i, free, busy int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	i = -1
	for j, u := range outputs {
		in := ela.Input{TxID: u.Txid, Index: u.Index}
		if _, spent := p.rules.Spender(in); spent || p.claimed[in] {
			busy++
			continue
		}
		free++
		if i < 0 && u.Value >= min {
			i = j
			p.claimed[in] = true
		}
	}
	return i, free, busy
}

// unclaim releases an output claim returned.
func (p *txPool) unclaim(u UTXO) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.claimed, ela.Input{TxID: u.Txid, Index: u.Index})
}
