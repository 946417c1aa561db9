package chain

import (
	"context"
	"runtime"
	"sync"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/host/internal/store"
)

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
