package chain

import (
	"fmt"

	"github.com/didlight/didlight/host/internal/mempool"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/wal"
)

// The mempool log (Config.MempoolLog, a mempool.Log) keeps the
// transactions acknowledged but not yet in a block in a file of its own,
// next to a durable store. A block stays one store Update; once it is
// committed, the records of the transactions it took in (or evicted) are
// dropped (unlog). A record dropped but still in the file after a crash
// names a transaction the chain holds already, or one of an earlier epoch,
// which reloadPool drops again. The pool bucket still holds what a block's
// Update stores itself (the transactions it had no room for) and what a
// snapshot copies (moveUnstored).
//
// On a store that keeps nothing past the process (store.DB.Durable false,
// the memory store) and without a log, the mempool is kept in memory only
// (Chain.poolInMemory): writing it into the store would make nothing more
// durable, and cost an Update an admission (ingest of DID creates 5% more
// CPU an operation, BenchmarkIngest/mem). A snapshot stores the kept
// entries in the bucket, as it does the log's, and so does Close, so that
// a chain opened again on the same store in this process pools them again.

// openPoolLog opens the mempool log at path ("" for none) and returns the
// records it holds.
func (c *Chain) openPoolLog(path string) ([]wal.Record, error) {
	if path == "" {
		return nil, nil
	}
	l, recs, err := mempool.OpenLog(path)
	if err != nil {
		return nil, err
	}
	c.poolLog = l
	return recs, nil
}

// logPool appends entries to the mempool log, in one synced batch.
func (c *Chain) logPool(entries []*entry) error {
	txs := make([]record.PoolTx, len(entries))
	for i, e := range entries {
		txs[i] = record.PoolTx{Epoch: e.Epoch, Raw: e.raw}
	}
	ids, err := c.poolLog.Append(c.received.Load(), txs)
	if err != nil {
		return err
	}
	c.pool.MarkPersisted(entries, mempool.InLog(ids))
	return nil
}

// parseLogged decodes a mempool log record, and counts the transactions
// received that it says were.
func (c *Chain) parseLogged(r wal.Record) (*record.PoolTx, error) {
	received, p, err := mempool.ParseLogRecord(r.Body)
	if err != nil {
		return nil, fmt.Errorf("chain: mempool log record %d: %w", r.ID, err)
	}
	if received > c.received.Load() {
		c.received.Store(received)
	}
	return p, nil
}

// unlog drops the log records of the entries a stored block took in or
// evicted.
func (c *Chain) unlog(m *newTip) error {
	if c.poolLog == nil {
		return nil
	}
	var ids []uint64
	for _, e := range m.included {
		if e.Logged != 0 {
			ids = append(ids, e.Logged)
		}
	}
	for e := range m.evicted {
		if e.Logged != 0 {
			ids = append(ids, e.Logged)
		}
	}
	return c.poolLog.Drop(ids)
}

// moveUnstored records that the unstored entries (logged or kept) are
// stored in the pool bucket under seqs now, and drops their log records.
func (c *Chain) moveUnstored(unstored []*entry, seqs []uint64) error {
	var ids []uint64
	for _, e := range unstored {
		if e.Logged != 0 {
			ids = append(ids, e.Logged)
		}
	}
	c.pool.MarkPersisted(unstored, func(i int, s *mempool.Slot) { s.Seq, s.Logged = seqs[i], 0 })
	if c.poolLog == nil {
		return nil
	}
	return c.poolLog.Drop(ids)
}

// storeKept stores the entries kept in memory in the pool bucket, once
// the pool is closed, so that a chain opened again on the same store (in
// this process) pools them again.
func (c *Chain) storeKept() error {
	kept := c.pool.Unstored()
	if len(kept) == 0 {
		return nil
	}
	var seqs []uint64
	err := c.update(func(tx store.Tx) (err error) {
		seqs, err = c.storePool(tx, kept)
		return err
	})
	if err != nil {
		return fmt.Errorf("chain: close: storing the mempool: %w", err)
	}
	return c.moveUnstored(kept, seqs)
}

// dropPoolLog drops every record of the mempool log, once a reset or a
// revert has emptied the mempool.
func (c *Chain) dropPoolLog() error {
	if c.poolLog == nil {
		return nil
	}
	return c.poolLog.DropAll()
}
