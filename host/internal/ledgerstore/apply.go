package ledgerstore

import (
	"fmt"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// balanceKey names a balance: an asset held by a program hash.
type balanceKey struct {
	ph    ela.ProgramHash
	asset ela.Hash
}

func (w *Batch) spend(in ela.Input) error {
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

func (w *Batch) addOutput(txid ela.Hash, index uint16, o ela.Output, height, pos uint32, coinbase bool) error {
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
// PutBlock, so that a block paying the same addresses many times
// (a wallet funding each of its transactions) writes each balance once.
func (w *Batch) addBalance(ph ela.ProgramHash, asset ela.Hash, d ela.Fixed64) {
	w.balances[balanceKey{ph, asset}] += d
}

// flushBalances writes the batch's changes to the balances.
func (w *Batch) flushBalances() error {
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
func (w *Batch) changeBalance(k balanceKey, d ela.Fixed64) error {
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
