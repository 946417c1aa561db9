package chain

import (
	"fmt"
	"slices"
	"sync"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/ledger"
)

// RulePending is the rule an identity operation breaks when its DID has
// another operation in the mempool: one operation per DID may wait for a
// block, as the ID chain's mempool allows (Elastos.ELA.SideChain.ID
// mempool/txpool.go, its registerdid conflict slot).
const RulePending idop.Rule = "pending"

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

	id *identity // the identity operation it carries, or nil

	// Set under the mempool's lock.
	epoch     uint64     // the chain's epoch when it was pooled
	seq       uint64     // the pool bucket's key, once persisted
	persisted bool       // stored: a block may include it
	done      chan error // receives nil once in a block, or why it left the pool
}

// position is the chain state a validation was made against: the epoch
// (which a reset changes) and the tip.
type position struct {
	epoch  uint64
	height uint32
	tip    ela.Hash
}

// mempool holds the accepted transactions in arrival order, with the
// outputs they spend and the DIDs they change, so that no two of them
// conflict: a block may include any of them in any order.
type mempool struct {
	mu       sync.Mutex
	changed  *sync.Cond // broadcast when at changes
	at       position   // the state every entry was validated against
	max      int        // transactions
	maxBytes int
	bytes    int // the pooled transactions' size
	order    []*entry
	byID     map[ela.Hash]*entry
	spends   map[ela.Input]*entry // outpoints (Sequence zero) spent
	dids     map[string]*entry    // DID keys with a pending operation
}

func newMempool(max, maxBytes int, at position) *mempool {
	p := &mempool{max: max, maxBytes: maxBytes, at: at}
	p.changed = sync.NewCond(&p.mu)
	p.clear()
	return p
}

// clear empties the pool; the caller holds mu or owns p.
func (p *mempool) clear() {
	p.order, p.bytes = nil, 0
	p.byID = make(map[ela.Hash]*entry)
	p.spends = make(map[ela.Input]*entry)
	p.dids = make(map[string]*entry)
}

func outpoint(in ela.Input) ela.Input { return ela.Input{TxID: in.TxID, Index: in.Index} }

// add adds e, validated against the state at, unless it conflicts with a
// pooled transaction or the pool is full. It reports false, and adds
// nothing, when the chain has moved on since at: the caller validates again.
// A validation older than the pool's state is retried at once; a newer one
// (a block committed but not yet applied to the pool) waits for the pool.
func (p *mempool) add(e *entry, at position) (bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for at.epoch == p.at.epoch && at.height > p.at.height {
		p.changed.Wait()
	}
	if at != p.at {
		return false, nil
	}
	if _, ok := p.byID[e.txid]; ok {
		return false, rejectf(ledger.Duplicate, "transaction %s is already in the mempool", e.txid)
	}
	for i, in := range e.tx.Inputs {
		if other, ok := p.spends[outpoint(in)]; ok {
			return false, rejectf(ledger.DoubleSpend, "input %d spends %s:%d, which pooled transaction %s spends", i, in.TxID, in.Index, other.txid)
		}
	}
	if err := p.pendingLocked(e); err != nil {
		return false, err
	}
	switch {
	case len(p.byID) >= p.max:
		return false, rejectf(ledger.PoolFull, "the mempool holds %d transactions, its limit", len(p.byID))
	case p.bytes+len(e.raw) > p.maxBytes:
		return false, rejectf(ledger.PoolFull, "the mempool holds %d bytes; %d more would pass its limit of %d", p.bytes, len(e.raw), p.maxBytes)
	}
	e.epoch = at.epoch
	p.bytes += len(e.raw)
	p.order = append(p.order, e)
	p.byID[e.txid] = e
	for _, in := range e.tx.Inputs {
		p.spends[outpoint(in)] = e
	}
	if e.id != nil {
		p.dids[e.id.key] = e
	}
	return true, nil
}

// pending refuses an identity operation on a DID with an operation in the
// pool already.
func (p *mempool) pending(e *entry) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pendingLocked(e)
}

func (p *mempool) pendingLocked(e *entry) error {
	if e.id == nil {
		return nil
	}
	if other, ok := p.dids[e.id.key]; ok {
		return reject(ledger.Payload, &idop.RuleError{Rule: RulePending,
			Err: fmt.Errorf("%s has a pending operation in transaction %s", e.id.op.DID, other.txid)})
	}
	return nil
}

// removeLocked takes the given entries out; the caller holds mu.
func (p *mempool) removeLocked(gone map[*entry]bool) {
	if len(gone) == 0 {
		return
	}
	p.order = slices.DeleteFunc(p.order, func(e *entry) bool { return gone[e] })
	for e := range gone {
		delete(p.byID, e.txid)
		p.bytes -= len(e.raw)
		for _, in := range e.tx.Inputs {
			if p.spends[outpoint(in)] == e {
				delete(p.spends, outpoint(in))
			}
		}
		if e.id != nil && p.dids[e.id.key] == e {
			delete(p.dids, e.id.key)
		}
	}
}

// remove takes e out, if it is still in.
func (p *mempool) remove(e *entry) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.byID[e.txid] == e {
		p.removeLocked(map[*entry]bool{e: true})
	}
}

// holds reports whether e is in the pool.
func (p *mempool) holds(e *entry) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.byID[e.txid] == e
}

// markPersisted records that e is stored under seq.
func (p *mempool) markPersisted(e *entry, seq uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	e.seq, e.persisted = seq, true
}

// ready returns the stored entries in arrival order: those a block may
// include.
func (p *mempool) ready() []*entry {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]*entry, 0, len(p.order))
	for _, e := range p.order {
		if e.persisted {
			out = append(out, e)
		}
	}
	return out
}

// advance moves the pool to the state at after a block that removed gone.
func (p *mempool) advance(at position, gone map[*entry]bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.removeLocked(gone)
	p.at = at
	p.changed.Broadcast()
}

// reset empties the pool for the state at and returns what it held.
func (p *mempool) reset(at position) []*entry {
	p.mu.Lock()
	defer p.mu.Unlock()
	old := p.order
	p.clear()
	p.at = at
	p.changed.Broadcast()
	return old
}

// entries returns the pooled entries in arrival order.
func (p *mempool) entries() []*entry {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.order)
}

// txs returns the pooled transactions in arrival order.
func (p *mempool) txs() []*ela.Tx {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]*ela.Tx, len(p.order))
	for i, e := range p.order {
		out[i] = e.tx
	}
	return out
}

// get returns the pooled transaction with id h.
func (p *mempool) get(h ela.Hash) (*ela.Tx, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	e, ok := p.byID[h]
	if !ok {
		return nil, false
	}
	return e.tx, true
}

// len returns how many transactions the pool holds.
func (p *mempool) len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.order)
}

// spent reports whether a pooled transaction spends the outpoint.
func (p *mempool) spent(in ela.Input) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.spends[outpoint(in)]
	return ok
}
