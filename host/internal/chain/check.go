package chain

import (
	"fmt"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/mempool"
)

// prepare decodes a transaction and checks what needs no chain state.
func (c *Chain) prepare(raw []byte) (*entry, error) {
	if err := ledger.CheckSize(len(raw)); err != nil {
		return nil, asReject(err)
	}
	tx, err := ela.ParseTx(raw)
	if err != nil {
		return nil, reject(ledger.Malformed, err)
	}
	if err := c.params.CheckTx(tx); err != nil {
		return nil, asReject(err)
	}
	e := &entry{tx: tx, raw: raw, txid: tx.Hash(), sigs: &keys.Remembering{V: c.verifier}, Slot: mempool.Slot{Done: make(chan error, 1)}}
	if p, ok := tx.Payload.(*ela.Operation); ok {
		op, err := c.engine.DecodeOperation(requestOf(p))
		if err != nil {
			return nil, reject(ledger.Payload, err)
		}
		e.id = didindex.NewOperation(op)
	}
	return e, nil
}

// requestOf converts the ledger's operation payload to an idop.Request,
// field for field.
func requestOf(p *ela.Operation) idop.Request {
	return idop.Request{Header: idop.Header(p.Header), Payload: p.Payload, Proof: idop.Proof(p.Proof)}
}

// check validates e against the state s as the block at height, stamped
// t, would include it.
func (c *Chain) check(s snapshot, e *entry, height, t uint32) error {
	books := s.ledger()
	if books.HasTx(e.txid) {
		return rejectf(ledger.Duplicate, "transaction %s is already in the chain", e.txid)
	}
	spent, err := books.Spends(e.tx)
	if err != nil {
		return asReject(err)
	}
	fee, err := c.params.CheckSpends(e.tx, spent, height)
	if err != nil {
		return asReject(err)
	}
	if err := c.engine.VerifyPrograms(e.tx, ledger.Referenced(spent), e.sigs); err != nil {
		return reject(ledger.Signature, err)
	}
	if e.id != nil {
		if err := c.checkIdentity(s, e.id, e.sigs, t); err != nil {
			return err
		}
		if err := e.id.Derive(); err != nil {
			return err
		}
	}
	e.fee = fee
	return nil
}

// checkIdentity validates an identity operation against the state s at
// block time t.
func (c *Chain) checkIdentity(s snapshot, id *didindex.Operation, sigs *keys.Remembering, t uint32) error {
	err := c.validateIdentity(s, id, sigs, time.Unix(int64(t), 0))
	switch {
	case err == nil:
		return nil
	case idop.RuleOf(err) == idop.RuleLookup:
		return fmt.Errorf("chain: validating %s: %w", id.Op.DID, err)
	}
	return reject(ledger.Payload, err)
}

// validateIdentity has the engine validate a DID or credential operation
// against the state of its DID or credential id.
func (c *Chain) validateIdentity(s snapshot, id *didindex.Operation, sigs *keys.Remembering, now time.Time) error {
	dids := s.dids()
	if id.Credential() {
		st, err := dids.CredentialState(id.Key)
		if err != nil {
			return err
		}
		return c.engine.ValidateCredential(id.Op, st, dids, sigs, now)
	}
	st, err := dids.State(id.Key)
	if err != nil {
		return err
	}
	return c.engine.ValidateOperation(id.Op, st, dids, sigs, now)
}
