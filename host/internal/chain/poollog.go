package chain

import (
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/didlight/didlight/host/internal/chain/internal/record"
	"github.com/didlight/didlight/host/internal/chain/internal/wal"
)

// The mempool log (Config.MempoolLog) keeps the transactions acknowledged
// but not yet in a block in a file of its own, next to a durable store:
// a batch of them is appended and synced once (wal.Log.Append) before its
// submitters are answered, where a store commit would write and sync its
// pages, then its meta page. Each record is a record.PoolTx, as the pool
// bucket holds. A block stays one store Update; once it is committed, the
// records of the transactions it took in (or evicted) are dropped
// (unlog). A record is the count of transactions received when it was
// appended (8 bytes, big-endian: the store keeps the count with each block,
// the log with each transaction since) followed by a record.PoolTx. A
// record dropped but still in the file after a crash names a
// transaction the chain holds already, or one of an earlier epoch, which
// reloadPool drops again. The pool bucket still holds what a block's
// Update stores itself (the transactions it had no room for) and what a
// snapshot copies (moveLogged).

// openPoolLog opens the mempool log at path ("" for none) and returns the
// records it holds.
func (c *Chain) openPoolLog(path string) ([]wal.Record, error) {
	if path == "" {
		return nil, nil
	}
	l, recs, err := wal.Open(filepath.Clean(path))
	if err != nil {
		return nil, err
	}
	c.poolLog = l
	return recs, nil
}

// logPool appends entries to the mempool log, in one synced batch.
func (c *Chain) logPool(entries []*entry) error {
	bodies := make([][]byte, len(entries))
	received := c.received.Load()
	for i, e := range entries {
		rec := record.PoolTx{Epoch: e.epoch, Raw: e.raw}
		bodies[i] = append(binary.BigEndian.AppendUint64(nil, received), rec.Bytes()...)
	}
	ids, err := c.poolLog.Append(bodies)
	if errors.Is(err, wal.ErrClosed) {
		return errClosed // the chain closed while the batch waited
	}
	if err != nil {
		return err
	}
	c.pool.markPersisted(entries, inLog(ids))
	return nil
}

// parseLogged decodes a mempool log record, and counts the transactions
// received that it says were.
func (c *Chain) parseLogged(r wal.Record) (*record.PoolTx, error) {
	received, p, err := parseLogBody(r.Body)
	if err != nil {
		return nil, fmt.Errorf("chain: mempool log record %d: %w", r.ID, err)
	}
	if received > c.received.Load() {
		c.received.Store(received)
	}
	return p, nil
}

// parseLogBody decodes the body of a mempool log record.
func parseLogBody(body []byte) (received uint64, p *record.PoolTx, err error) {
	if len(body) < 8 {
		return 0, nil, fmt.Errorf("%d bytes, too short for a count", len(body))
	}
	p, err = record.ParsePoolTx(body[8:])
	return binary.BigEndian.Uint64(body), p, err
}

// unlog drops the log records of the entries a stored block took in or
// evicted.
func (c *Chain) unlog(m *made) error {
	if c.poolLog == nil {
		return nil
	}
	var ids []uint64
	for _, e := range m.included {
		if e.logged != 0 {
			ids = append(ids, e.logged)
		}
	}
	for e := range m.evicted {
		if e.logged != 0 {
			ids = append(ids, e.logged)
		}
	}
	return c.poolLog.Drop(ids)
}

// moveLogged records that the logged entries are stored in the pool bucket
// under seqs too, and drops their log records.
func (c *Chain) moveLogged(logged []*entry, seqs []uint64) error {
	ids := make([]uint64, len(logged))
	for i, e := range logged {
		ids[i] = e.logged
	}
	c.pool.markPersisted(logged, func(i int, e *entry) { e.seq, e.logged = seqs[i], 0 })
	if c.poolLog == nil {
		return nil
	}
	return c.poolLog.Drop(ids)
}

// dropPoolLog drops every record of the mempool log, once a reset or a
// revert has emptied the mempool.
func (c *Chain) dropPoolLog() error {
	if c.poolLog == nil {
		return nil
	}
	return c.poolLog.DropAll()
}
