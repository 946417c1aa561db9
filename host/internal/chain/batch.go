package chain

import (
	"context"
	"errors"
	"fmt"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// batch writes a block and everything it changes inside one store Update:
// the block, its transactions, the unspent outputs, addresses and balances
// they change, and the DID index (through didindex.Batch).
type batch struct {
	snapshot
	time                    uint32 // the block's
	txs, utxos, addrs, bals store.Bucket
	balances                map[balanceKey]ela.Fixed64 // changes to bucketBalances not yet written (see addBalance)
	dids                    *didindex.Batch            // the DID index's changes
}

// balanceKey names a balance: an asset held by a program hash.
type balanceKey struct {
	ph    ela.ProgramHash
	asset ela.Hash
}

func newBatch(c *Chain, tx store.Tx, time uint32) *batch {
	return &batch{
		snapshot: snapshot{c: c, tx: tx},
		time:     time,
		txs:      bucket(tx, bucketTxs),
		utxos:    bucket(tx, bucketUTXOs),
		addrs:    bucket(tx, bucketAddresses),
		bals:     bucket(tx, bucketBalances),
		balances: map[balanceKey]ela.Fixed64{},
		dids:     c.index.Write(tx, time),
	}
}

// applyTx writes transaction t (id txid, encoding raw) at position pos of
// the block at height: spends its inputs, adds its outputs, and applies its
// identity operation id (nil for none) at the block's time.
func (w *batch) applyTx(t *ela.Tx, txid ela.Hash, raw []byte, height, pos uint32, id *didindex.Operation) error {
	rec := record.Tx{Height: height, Pos: pos, Raw: raw}
	if err := w.txs.Put(txid[:], rec.Bytes()); err != nil {
		return err
	}
	coinbase := t.Type() == ela.TxCoinBase
	if !coinbase {
		for _, in := range t.Inputs {
			if err := w.spend(in); err != nil {
				return err
			}
		}
	}
	for i, o := range t.Outputs {
		if err := w.addOutput(txid, uint16(i), o, height, pos, coinbase); err != nil {
			return err
		}
	}
	if id != nil {
		return w.dids.Apply(id, txid, height, pos)
	}
	return nil
}

func (w *batch) spend(in ela.Input) error {
	key := record.OutpointKey(in.TxID, in.Index)
	v, ok := w.utxos.Get(key)
	if !ok {
		return fmt.Errorf("chain: spending %s:%d, which is not unspent: %w", in.TxID, in.Index, store.ErrCorrupt)
	}
	u, err := record.ParseUTXO(v)
	if err != nil {
		return err
	}
	if err := w.utxos.Delete(key); err != nil {
		return err
	}
	o := u.Output
	if err := w.addrs.Delete(record.AddressKey(o.ProgramHash, u.Height, u.Pos, in.Index)); err != nil {
		return err
	}
	w.addBalance(o.ProgramHash, o.AssetID, -o.Value)
	return nil
}

func (w *batch) addOutput(txid ela.Hash, index uint16, o ela.Output, height, pos uint32, coinbase bool) error {
	u := record.UTXO{Output: o, Height: height, Pos: pos, Coinbase: coinbase}
	if err := w.utxos.Put(record.OutpointKey(txid, index), u.Bytes()); err != nil {
		return err
	}
	a := record.AddressUTXO{TxID: txid, Asset: o.AssetID, Value: o.Value}
	if err := w.addrs.Put(record.AddressKey(o.ProgramHash, height, pos, index), a.Bytes()); err != nil {
		return err
	}
	w.addBalance(o.ProgramHash, o.AssetID, o.Value)
	return nil
}

// addBalance adds d to a balance. The change is kept in the batch until
// flushBalances, so that a block paying the same addresses many times
// (a wallet funding each of its transactions) writes each balance once.
func (w *batch) addBalance(ph ela.ProgramHash, asset ela.Hash, d ela.Fixed64) {
	w.balances[balanceKey{ph, asset}] += d
}

// flushBalances writes the batch's changes to the balances.
func (w *batch) flushBalances() error {
	for k, d := range w.balances {
		if d == 0 {
			continue
		}
		if err := w.changeBalance(k, d); err != nil {
			return err
		}
	}
	clear(w.balances)
	return nil
}

// changeBalance adds d to the stored balance k; a balance that reaches
// zero is deleted.
func (w *batch) changeBalance(k balanceKey, d ela.Fixed64) error {
	key := record.BalanceKey(k.ph, k.asset)
	var bal ela.Fixed64
	if v, ok := w.bals.Get(key); ok {
		var err error
		if bal, err = record.ParseAmount(v); err != nil {
			return err
		}
	}
	bal += d
	switch {
	case bal < 0:
		return fmt.Errorf("chain: the balance of %s would be %s: %w", k.ph, bal, store.ErrCorrupt)
	case bal == 0:
		return w.bals.Delete(key)
	}
	return w.bals.Put(key, record.Amount(bal))
}

// putBlock stores block b (whose transactions have ids txids) and its
// confirm, makes it the tip, and counts its transactions.
func (w *batch) putBlock(b *ela.Block, txids []ela.Hash, cf *ela.Confirm) error {
	if err := w.dids.Flush(); err != nil {
		return err
	}
	if err := w.flushBalances(); err != nil {
		return err
	}
	h := b.Hash()
	height := b.Header.Height
	rec := record.Block{Hash: h, Header: b.Header, TxIDs: txids}
	if err := bucket(w.tx, bucketBlocks).Put(record.HeightKey(height), rec.Bytes()); err != nil {
		return err
	}
	if err := bucket(w.tx, bucketHashes).Put(h[:], record.HeightKey(height)); err != nil {
		return err
	}
	if err := bucket(w.tx, bucketConfirms).Put(record.HeightKey(height), cf.Bytes()); err != nil {
		return err
	}
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
