package eidindex

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/didlight/didlight/core/eid"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/eidsync"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// Apply applies blocks, consecutive and each the child of the one before,
// the first the child of the head (or, in an empty index, any block): each
// operation is decoded from its didLog data, checked as EID checked it in
// its block against the index's state before it, and indexed; one that
// fails is counted and logged, not indexed. All of blocks and the new head
// are one store update (eidsync.Sink).
func (ix *Index) Apply(ctx context.Context, blocks []*eidsync.Block) error {
	if len(blocks) == 0 {
		return nil
	}
	if err := ix.chained(blocks); err != nil {
		return err
	}
	ready := ix.prepareAll(blocks)
	var counts Counts
	var refused []Refusal
	err := ix.update(func(tx store.Tx) error {
		var err error
		if counts, err = readCounts(tx); err != nil {
			return err
		}
		final := &finalWrites{tx: newSortedTx(tx)}
		for i, b := range blocks {
			if err := ctx.Err(); err != nil {
				return err
			}
			r, err := ix.applyBlock(tx, final, b, ready(i), &counts)
			if err != nil {
				return fmt.Errorf("eidindex: block %d: %w", b.Number, err)
			}
			refused = append(refused, r...)
		}
		if err := final.flush(); err != nil {
			return err
		}
		return ix.prune(tx, blocks[len(blocks)-1].Number)
	})
	if err != nil {
		return err
	}
	for _, r := range refused {
		ix.log.Warn("EID operation refused: not indexed", "block", r.Block, "txid", r.Txid, "did", r.DID, "reason", r.Reason)
	}
	last := blocks[len(blocks)-1]
	ix.mu.Lock()
	ix.head, ix.headOK, ix.counts = Head{Number: last.Number, Hash: last.Hash, Time: last.Time}, true, counts
	ix.mu.Unlock()
	return nil
}

// chained checks that blocks follow the head and each other.
func (ix *Index) chained(blocks []*eidsync.Block) error {
	number, hash, ok := ix.Head()
	for i, b := range blocks {
		if i > 0 || ok {
			if b.Number != number+1 || b.Parent != hash {
				return fmt.Errorf("eidindex: block %d (parent %x) does not follow block %d (%x)", b.Number, b.Parent, number, hash)
			}
		}
		number, hash = b.Number, b.Hash
		if number > maxNumber {
			return fmt.Errorf("eidindex: block %d is above the highest an index keeps, %d", number, uint64(maxNumber))
		}
	}
	return nil
}

// maxNumber is the highest block number the DID index's records hold
// (their heights are 32 bits).
const maxNumber = 1<<32 - 1

// update runs fn in a store Update, unless the index is closed.
func (ix *Index) update(fn func(store.Tx) error) error {
	if err := ix.open(); err != nil {
		return err
	}
	return ix.db.Update(fn)
}

// applyBlock applies one block's operations, prepared, in tx and makes it
// the head, its writes logged after a mark kept with the block's hash; a
// block Keep or more below the upstream's head is not logged (final), its
// writes to the DID index left in final, which a logged block flushes
// first. A logged block's writes to the DID index are written in the
// order of their keys at its end.
func (ix *Index) applyBlock(tx store.Tx, final *finalWrites, b *eidsync.Block, ready []*prepared, counts *Counts) ([]Refusal, error) {
	ltx := tx
	var logged *sortedTx // a logged block's writes to the DID index
	var w *didindex.Batch
	if ix.final(b) {
		if err := ix.forget(tx); err != nil {
			return nil, err
		}
		w = final.at(ix.index, uint32(b.Time))
	} else {
		if err := final.flush(); err != nil {
			return nil, err
		}
		mark, err := undoLog.Mark(tx)
		if err != nil {
			return nil, err
		}
		if err := putKept(tx, b.Number, kept{hash: b.Hash, mark: mark}); err != nil {
			return nil, err
		}
		ltx = undoLog.Tx(tx) // a logged transaction of its own: each block logs what it changes
		logged = newSortedTx(ltx)
		w = ix.index.Write(logged, uint32(b.Time))
	}
	var refused []Refusal
	seen := map[string]bool{} // the DIDs of the block's operations so far
	for i, op := range b.Ops {
		id, waiver, err := ix.check(w, b, op, ready[i], seen)
		if err != nil {
			if idop.RuleOf(err) == "" || idop.RuleOf(err) == idop.RuleLookup {
				return nil, err // the store failed, not the operation
			}
			r := Refusal{Block: b.Number, Txid: hex.EncodeToString(op.TxHash[:]), Reason: err.Error()}
			if id != nil {
				r.DID = id.Key
			}
			refused = append(refused, r)
			counts.Refused++
			counts.LastRefused = &r
			continue
		}
		if err := w.Apply(id, txid(op.TxHash), uint32(b.Number), op.Index); err != nil {
			return nil, err
		}
		counts.Applied++
		if waiver != resolve.WaiveNone {
			counts.Waived++
		}
	}
	if logged != nil {
		if err := w.Flush(); err != nil {
			return nil, err
		}
		if err := logged.flush(); err != nil {
			return nil, err
		}
	}
	if err := putCounts(ltx, *counts); err != nil {
		return nil, err
	}
	return refused, putHead(ltx, Head{Number: b.Number, Hash: b.Hash, Time: b.Time})
}

// check checks op, prepared as p, as EID checked it in block b, against
// the state w reads and the DIDs seen earlier in the block, to which it
// adds op's. A refusal is a *idop.RuleError.
func (ix *Index) check(w *didindex.Batch, b *eidsync.Block, op eidsync.Op, p *prepared, seen map[string]bool) (*didindex.Operation, resolve.Waiver, error) {
	if p.err != nil {
		return nil, 0, p.err
	}
	id, o := p.id, p.id.Op
	var st *idop.State
	var err error
	var cst *idop.CredentialState
	if id.Credential() {
		cst, err = w.CredentialState(id.Key)
	} else {
		st, err = w.State(id.Key)
	}
	if err != nil {
		return id, 0, err
	}
	at := eid.Recorded{Block: b.Number, Time: time.Unix(int64(b.Time), 0).UTC(), From: op.From}
	if !id.Credential() {
		at.Earlier = seen[id.Key]
		seen[id.Key] = true
	}
	waiver, err := ix.net.Accept(o, st, cst, w, p.sigs, at)
	if err != nil {
		return id, waiver, err
	}
	if err := id.Derive(); err != nil {
		return id, waiver, &idop.RuleError{Rule: idop.RuleMalformed, Err: err}
	}
	return id, waiver, nil
}

// asRule returns err as a *idop.RuleError: decoding errors are rules
// broken by the operation.
func asRule(err error) error {
	if _, ok := errors.AsType[*idop.RuleError](err); ok {
		return err
	}
	return &idop.RuleError{Rule: idop.RuleMalformed, Err: err}
}

// txid returns an EVM transaction hash as the DID index stores a txid: so
// that ela.Hash.String, which reverses the bytes, writes it as EID's
// answers do (64 lower-case hex digits in the hash's own order).
func txid(h eidsync.Hash) ela.Hash {
	t := ela.Hash(h)
	slices.Reverse(t[:])
	return t
}

// final reports whether b is so far below the upstream's head that no
// reorganisation the index could roll back reaches it: Keep or more
// blocks below.
func (ix *Index) final(b *eidsync.Block) bool {
	return b.UpstreamHead >= ix.keep && b.Number <= b.UpstreamHead-ix.keep
}

// forget drops all undo and every kept block, before a block applied
// without undo: no rollback may cross that block, and one to a block
// before it would undo only part of what came after.
func (ix *Index) forget(tx store.Tx) error {
	blocks := record.Bucket(tx, bucketBlocks)
	var all [][]byte
	for key := range blocks.Scan(store.Range{}) {
		all = append(all, key)
	}
	if len(all) == 0 {
		return nil
	}
	mark, err := undoLog.Mark(tx)
	if err != nil {
		return err
	}
	if _, err := undoLog.Drop(tx, mark); err != nil {
		return err
	}
	for _, key := range all {
		if err := blocks.Delete(key); err != nil {
			return err
		}
	}
	return nil
}

// prune drops the undo of blocks more than Keep below number.
func (ix *Index) prune(tx store.Tx, number uint64) error {
	if number < ix.keep {
		return nil
	}
	oldest := number - ix.keep + 1
	k, ok := readKept(tx, oldest)
	if !ok {
		return nil
	}
	if _, err := undoLog.Drop(tx, k.mark); err != nil {
		return err
	}
	blocks := record.Bucket(tx, bucketBlocks)
	var old [][]byte
	for key := range blocks.Scan(store.Range{}) {
		if string(key) >= string(record.U64(oldest)) {
			break
		}
		old = append(old, key)
	}
	for _, key := range old {
		if err := blocks.Delete(key); err != nil {
			return err
		}
	}
	return nil
}
