package chain

import (
	"context"
	"errors"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/ledgerstore"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// batch writes a block and everything it changes inside one store Update:
// the ledger (through ledgerstore.Batch), the DID index (through
// didindex.Batch) and the tip.
type batch struct {
	snapshot
	time        uint32             // the block's
	ledgerBatch *ledgerstore.Batch // the ledger's changes
	didBatch    *didindex.Batch    // the DID index's changes
}

func newBatch(c *Chain, tx store.Tx, time uint32) *batch {
	return &batch{
		snapshot:    snapshot{c: c, tx: tx},
		time:        time,
		ledgerBatch: ledgerstore.Write(tx),
		didBatch:    c.index.Write(tx, time),
	}
}

// applyTx writes transaction t (id txid, encoding raw) at position pos of
// the block at height: spends its inputs, adds its outputs, and applies its
// identity operation id (nil for none) at the block's time.
func (w *batch) applyTx(t *ela.Tx, txid ela.Hash, raw []byte, height, pos uint32, id *didindex.Operation) error {
	if err := w.ledgerBatch.ApplyTx(t, txid, raw, height, pos); err != nil {
		return err
	}
	if id != nil {
		return w.didBatch.Apply(id, txid, height, pos)
	}
	return nil
}

// putBlock stores block b (whose transactions have ids txids) and its
// confirm, makes it the tip, and counts its transactions.
func (w *batch) putBlock(b *ela.Block, txids []ela.Hash, cf *ela.Confirm) error {
	if err := w.didBatch.Flush(); err != nil {
		return err
	}
	if err := w.ledgerBatch.PutBlock(b, txids, cf); err != nil {
		return err
	}
	h, height := b.Hash(), b.Header.Height
	tip := record.Tip{Height: height, Hash: h, Time: b.Header.Timestamp}
	if err := putMeta(w.tx, metaTip, tip.Bytes()); err != nil {
		return err
	}
	n, err := getU64(w.tx, metaTxnCount)
	if err != nil {
		return err
	}
	if err := putMeta(w.tx, metaTxnCount, record.U64(n+uint64(len(txids)))); err != nil {
		return err
	}
	return putMeta(w.tx, metaReceived, record.U64(w.c.received.Load()))
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
