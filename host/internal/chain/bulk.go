package chain

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/store"
)

// ErrPoolBusy is returned by MineTxs while the mempool holds transactions:
// a block made around them could spend what they spend.
var ErrPoolBusy = errors.New("chain: MineTxs needs an empty mempool")

// MineTxs makes a block now of exactly the raw transactions txs, in their
// order after the coinbase, and returns it: the way to build a large chain
// in bulk (a generator), block after block, without a mempool. Each
// transaction is checked as Apply checks a block's, against the state the
// earlier ones leave; one that breaks a rule gets a *BlockError naming it,
// and nothing changes. Signatures are verified on every core before the
// block's store Update begins. It fails with ErrPoolBusy while the mempool
// holds transactions, and with ErrFollower on a follower's chain.
func (c *Chain) MineTxs(ctx context.Context, txs [][]byte) (*ela.Block, error) {
	if err := c.produces(); err != nil {
		return nil, err
	}
	prepared, err := c.prepareAll(ctx, txs)
	if err != nil {
		return nil, err
	}
	return c.MinePrepared(ctx, prepared)
}

// prepareAll prepares the raw transactions of a block on every core
// (PrepareTx).
func (c *Chain) prepareAll(ctx context.Context, raws [][]byte) ([]*Prepared, error) {
	prepared := make([]*Prepared, len(raws))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				prepared[i] = c.PrepareTx(raws[i])
			}
		})
	}
	for i := range raws {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return prepared, ctx.Err()
}

// entriesOf returns the entries of the prepared transactions of a block,
// or the position (from 1: the coinbase is 0) of the first that does not
// decode, with why.
func entriesOf(txs []*Prepared) ([]*entry, int, error) {
	entries := make([]*entry, len(txs))
	for i, p := range txs {
		if p.err != nil {
			return nil, i + 1, p.err
		}
		entries[i] = p.e
	}
	return entries, 0, nil
}

// Prepared is a transaction PrepareTx made ready for MinePrepared.
type Prepared struct {
	e   *entry
	err error // why it does not decode, as a *RejectError
}

// PrepareTx decodes the raw transaction raw and verifies its signatures,
// as far as that needs no state that the blocks before its own leave, so
// that a bulk writer can do this on other cores, ahead, while the blocks
// before are being stored (MinePrepared). The signatures that verify are
// remembered (entry.sigs): checking the transaction in order, inside its
// block's Update, then verifies them no more; what this could not verify
// (a signer that the blocks before publish) is verified there. It is safe
// for concurrent use.
func (c *Chain) PrepareTx(raw []byte) *Prepared {
	e, err := c.prepare(raw)
	if err != nil {
		return &Prepared{err: err}
	}
	c.verifyAhead(e)
	return &Prepared{e: e}
}

// verifyAhead verifies the signatures of e that need no state of the
// blocks before its own, only for entry.sigs to remember: those of its
// programs, whoever they sign for (the check in order decides whose
// signatures it needs), and of its identity operation, checked against
// the stored state, except that a published document is checked without
// its predecessor (idop.ValidateDetached), which may be in the block just
// before. Neither decides anything; their errors are dropped. When the
// operation checks, what the indexes need of the document it publishes
// (its view and postings) is derived here too, rather than in the block's
// Update, where it would hold up the store writer.
func (c *Chain) verifyAhead(e *entry) {
	_ = c.engine.VerifyPrograms(e.tx, signers(e.tx), e.sigs)
	if e.id == nil {
		return
	}
	_ = c.db.View(func(tx store.Tx) error {
		s := snapshot{c: c, tx: tx}
		var err error
		switch e.id.Op.Request.Header.Operation {
		case idop.Create, idop.Update, idop.Transfer:
			if !e.id.Credential() {
				err = idop.ValidateDetached(e.id.Op, s.dids(), e.sigs, time.Time{})
				break
			}
			fallthrough
		default:
			err = c.validateIdentity(s, e.id, e.sigs, time.Time{})
		}
		if err == nil {
			e.id.PostAhead()
		}
		return nil
	})
}

// signers returns, for each input of tx, a program hash of one of its
// programs, so that VerifyPrograms verifies every program's signature
// without knowing what the inputs spend: a guess, as signers go, which
// the check in order, with the outputs spent, corrects.
func signers(tx *ela.Tx) []ela.ProgramHash {
	if len(tx.Programs) == 0 || len(tx.Programs) > len(tx.Inputs) {
		return nil
	}
	hs := make([]ela.ProgramHash, len(tx.Inputs))
	for i := range hs {
		hs[i] = ela.ToProgramHash(ela.PrefixStandard, tx.Programs[min(i, len(tx.Programs)-1)].Code)
	}
	return hs
}

// MinePrepared is MineTxs of transactions PrepareTx prepared, in their
// order after the coinbase.
func (c *Chain) MinePrepared(ctx context.Context, txs []*Prepared) (*ela.Block, error) {
	if err := c.produces(); err != nil {
		return nil, err
	}
	c.mining.Lock()
	defer c.mining.Unlock()
	switch {
	case c.isClosed():
		return nil, errClosed
	case c.pool.len() > 0:
		return nil, ErrPoolBusy
	}
	c.mu.RLock()
	prev := c.tipHeader
	c.mu.RUnlock()
	if err := ledger.CheckNext(&prev); err != nil {
		return nil, fmt.Errorf("chain: %w", err)
	}
	height, t := prev.Height+1, c.nextBlockTime(prev.Timestamp)
	entries, pos, err := entriesOf(txs)
	if err != nil {
		return nil, &BlockError{Height: height, Tx: pos, Err: err}
	}
	var b *ela.Block
	err = c.update(func(tx store.Tx) error {
		w := newBatch(c, tx, t)
		refuse := func(pos int, err error) error { return &BlockError{Height: height, Tx: pos, Err: err} }
		txids, fees, err := c.applyAll(ctx, w, entries, height, refuse)
		if err != nil {
			return err
		}
		cb := c.params.Coinbase(height, c.producer, fees+c.params.Subsidy)
		txids[0] = cb.Hash()
		if err := w.applyTx(cb, txids[0], cb.Bytes(), height, 0, nil); err != nil {
			return err
		}
		all := make([]*ela.Tx, len(entries)+1)
		all[0] = cb
		for i, e := range entries {
			all[i+1] = e.tx
		}
		b = c.params.NewBlockOf(&prev, t, all, txids)
		return w.putBlock(b, txids, c.confirm(b.Hash()))
	})
	if err != nil {
		if _, ok := errors.AsType[*BlockError](err); ok || ctx.Err() != nil {
			return nil, err
		}
		return nil, fmt.Errorf("chain: making block %d: %w", height, err)
	}
	c.advance(&made{block: b})
	return b, nil
}

// applyAll checks each entry, at positions 1 on of the block at height,
// against the state the earlier ones leave (check), and writes it; a
// transaction that breaks a rule is refused with refuse. It returns the
// block's transaction ids (position 0, the coinbase's, left zero) and
// the fees the transactions pay.
func (c *Chain) applyAll(ctx context.Context, w *batch, entries []*entry, height uint32, refuse func(int, error) error) ([]ela.Hash, ela.Fixed64, error) {
	txids := make([]ela.Hash, len(entries)+1)
	var fees ela.Fixed64
	for i, e := range entries {
		pos := i + 1
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		if err := c.check(w.snapshot, e, height, w.time); err != nil {
			if _, ok := errors.AsType[*RejectError](err); ok {
				return nil, 0, refuse(pos, err)
			}
			return nil, 0, err
		}
		if err := w.applyTx(e.tx, e.txid, e.raw, height, uint32(pos), e.id); err != nil {
			return nil, 0, err
		}
		txids[pos] = e.txid
		fees += e.fee
	}
	return txids, fees, nil
}
