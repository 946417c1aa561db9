package ledger

import (
	"fmt"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
)

// PoolTx is a transaction as the pool's rules see it.
type PoolTx struct {
	Tx   *ela.Tx
	Txid ela.Hash
	Size int      // its serialized size in bytes
	Op   *idop.Op // the identity operation it carries, or nil
}

// Pool applies the rules a node's transaction pool adds to those a
// transaction meets against the chain, so that any set of pooled
// transactions fits in one block in any order: no transaction twice, no
// output spent by two of them, at most one pending operation per DID or
// credential (the ID chain's mempool keeps one conflict slot per DID,
// Elastos.ELA.SideChain.ID mempool/txpool.go), and bounds on their count
// and bytes. It holds a value of the caller's with each transaction. A
// Pool is not safe for concurrent use; its owner locks around it.
type Pool[V any] struct {
	maxTxs, maxBytes int
	bytes            int
	txs              map[ela.Hash]pooled[V]
	spends           map[ela.Input]ela.Hash // outpoints (Sequence zero) spent
	pending          map[string]ela.Hash    // Op.Subject of the pending operations
}

type pooled[V any] struct {
	tx PoolTx
	v  V
}

// NewPool returns an empty pool that holds at most maxTxs transactions of
// at most maxBytes bytes together.
func NewPool[V any](maxTxs, maxBytes int) *Pool[V] {
	return &Pool[V]{maxTxs: maxTxs, maxBytes: maxBytes, txs: make(map[ela.Hash]pooled[V]),
		spends: make(map[ela.Input]ela.Hash), pending: make(map[string]ela.Hash)}
}

// Clear empties the pool, keeping its bounds.
func (p *Pool[V]) Clear() { *p = *NewPool[V](p.maxTxs, p.maxBytes) }

// outpoint is the key of the output in spends.
func outpoint(in ela.Input) ela.Input { return ela.Input{TxID: in.TxID, Index: in.Index} }

// Add pools t with v, or returns the *RuleError of the rule it breaks
// (Duplicate, [DoubleSpend], Payload with [idop.RulePending], [PoolFull]) and
// changes nothing.
func (p *Pool[V]) Add(t PoolTx, v V) error {
	if _, ok := p.txs[t.Txid]; ok {
		return Errorf(Duplicate, "transaction %s is already in the mempool", t.Txid)
	}
	for i, in := range t.Tx.Inputs {
		if other, ok := p.spends[outpoint(in)]; ok {
			return Errorf(DoubleSpend, "input %d spends %s:%d, which pooled transaction %s spends", i, in.TxID, in.Index, other)
		}
	}
	if err := p.CheckPending(t.Op); err != nil {
		return err
	}
	switch {
	case len(p.txs) >= p.maxTxs:
		return Errorf(PoolFull, "the mempool holds %d transactions, its limit", len(p.txs))
	case p.bytes+t.Size > p.maxBytes:
		return Errorf(PoolFull, "the mempool holds %d bytes; %d more would pass its limit of %d", p.bytes, t.Size, p.maxBytes)
	}
	p.txs[t.Txid] = pooled[V]{t, v}
	p.bytes += t.Size
	for _, in := range t.Tx.Inputs {
		p.spends[outpoint(in)] = t.Txid
	}
	if t.Op != nil {
		p.pending[t.Op.Subject()] = t.Txid
	}
	return nil
}

// CheckPending refuses an identity operation (nil is none) whose DID or
// credential has an operation in the pool already: a *RuleError with code
// Payload wrapping an *idop.RuleError with [idop.RulePending].
func (p *Pool[V]) CheckPending(op *idop.Op) error {
	if op == nil {
		return nil
	}
	if other, ok := p.pending[op.Subject()]; ok {
		return &RuleError{Code: Payload, Err: &idop.RuleError{Rule: idop.RulePending,
			Err: fmt.Errorf("%s has a pending operation in transaction %s", op.DID, other)}}
	}
	return nil
}

// Remove takes the transaction txid out, reporting whether it was in.
func (p *Pool[V]) Remove(txid ela.Hash) bool {
	e, ok := p.txs[txid]
	if !ok {
		return false
	}
	delete(p.txs, txid)
	p.bytes -= e.tx.Size
	for _, in := range e.tx.Tx.Inputs {
		if p.spends[outpoint(in)] == txid {
			delete(p.spends, outpoint(in))
		}
	}
	if e.tx.Op != nil && p.pending[e.tx.Op.Subject()] == txid {
		delete(p.pending, e.tx.Op.Subject())
	}
	return true
}

// Get returns the value pooled with transaction txid.
func (p *Pool[V]) Get(txid ela.Hash) (V, bool) {
	e, ok := p.txs[txid]
	return e.v, ok
}

// Spender returns the pooled transaction spending the output in names.
func (p *Pool[V]) Spender(in ela.Input) (ela.Hash, bool) {
	h, ok := p.spends[outpoint(in)]
	return h, ok
}

// Len returns how many transactions the pool holds.
func (p *Pool[V]) Len() int { return len(p.txs) }
