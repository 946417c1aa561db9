package ledgerstore

import (
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// Reader reads the ledger inside one store transaction: a View for
// readers and admission, or the Update that makes a block, which then sees
// the block's earlier transactions.
type Reader struct {
	tx store.Tx
}

// Read returns a Reader of the ledger in tx.
func Read(tx store.Tx) Reader { return Reader{tx: tx} }

// Batch writes a block and its transactions inside one store Update: the
// block, its transactions, and the unspent outputs, addresses and balances
// they change. Balances are kept in the batch until PutBlock, so that a
// block paying the same addresses many times writes each balance once.
type Batch struct {
	Reader
	txs, utxos, addrs, bals store.Bucket
	balances                map[balanceKey]ela.Fixed64 // changes to BucketBalances not yet written (see addBalance)
}

// Write returns a Batch writing in tx.
func Write(tx store.Tx) *Batch {
	return &Batch{
		Reader:   Read(tx),
		txs:      bucket(tx, BucketTxs),
		utxos:    bucket(tx, BucketUTXOs),
		addrs:    bucket(tx, BucketAddresses),
		bals:     bucket(tx, BucketBalances),
		balances: map[balanceKey]ela.Fixed64{},
	}
}

// ApplyTx writes transaction t (id txid, encoding raw) at position pos of
// the block at height: spends its inputs and adds its outputs.
func (w *Batch) ApplyTx(t *ela.Tx, txid ela.Hash, raw []byte, height, pos uint32) error {
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
	return nil
}

// PutBlock writes the batch's balances and stores block b (whose
// transactions have ids txids) and its confirm.
func (w *Batch) PutBlock(b *ela.Block, txids []ela.Hash, cf *ela.Confirm) error {
	if err := w.flushBalances(); err != nil {
		return err
	}
	h := b.Hash()
	height := b.Header.Height
	rec := record.Block{Hash: h, Header: b.Header, TxIDs: txids}
	if err := bucket(w.tx, BucketBlocks).Put(record.HeightKey(height), rec.Bytes()); err != nil {
		return err
	}
	if err := bucket(w.tx, BucketHashes).Put(h[:], record.HeightKey(height)); err != nil {
		return err
	}
	return bucket(w.tx, BucketConfirms).Put(record.HeightKey(height), cf.Bytes())
}

// Balance returns what addr holds of an asset in the unspent outputs.
func (s Reader) Balance(addr ela.ProgramHash, asset ela.Hash) (ela.Fixed64, error) {
	v, ok := bucket(s.tx, BucketBalances).Get(record.BalanceKey(addr, asset))
	if !ok {
		return 0, nil
	}
	return record.ParseAmount(v)
}
