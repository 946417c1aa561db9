package mempool

import (
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/wal"
)

// Log is the mempool log: the transactions acknowledged but not yet in a
// block, in a file of its own next to a durable store (a [wal.Log]), so
// that a batch of them is appended and synced once before its submitters
// are answered, where a store commit would write and sync its pages, then
// its meta page. A record is the count of transactions received when it
// was appended (8 bytes, big-endian: the store keeps the count with each
// block, the log with each transaction since) followed by a
// [record.PoolTx], as the pool bucket holds. Once a block that took in (or
// evicted) a transaction is stored, the chain drops its record; a record
// dropped but still in the file after a crash names a transaction the
// chain holds already, or one of an earlier epoch, which the chain drops
// again when it pools the log's records. Log has a lock of its own (the
// wal.Log's), a leaf.
type Log struct{ wal *wal.Log }

// OpenLog opens the mempool log at path, creating it if need be, and
// returns the records it holds, oldest first, for [ParseLogRecord].
func OpenLog(path string) (*Log, []wal.Record, error) {
	l, recs, err := wal.Open(filepath.Clean(path))
	if err != nil {
		return nil, nil, err
	}
	return &Log{wal: l}, recs, nil
}

// Append appends txs, received being the count of transactions received,
// in one synced batch, and returns their records' ids, which Drop takes.
// A closed log gets ErrClosed.
func (l *Log) Append(received uint64, txs []record.PoolTx) ([]uint64, error) {
	bodies := make([][]byte, len(txs))
	for i, p := range txs {
		bodies[i] = append(binary.BigEndian.AppendUint64(nil, received), p.Bytes()...)
	}
	ids, err := l.wal.Append(bodies)
	if errors.Is(err, wal.ErrClosed) {
		return nil, ErrClosed // closed while the batch waited
	}
	return ids, err
}

// ParseLogRecord decodes the body of a mempool log record: the count of
// transactions received when it was appended, and the pooled transaction.
func ParseLogRecord(body []byte) (received uint64, p *record.PoolTx, err error) {
	if len(body) < 8 {
		return 0, nil, fmt.Errorf("%d bytes, too short for a count", len(body))
	}
	p, err = record.ParsePoolTx(body[8:])
	return binary.BigEndian.Uint64(body), p, err
}

// Drop drops the records ids.
func (l *Log) Drop(ids []uint64) error { return l.wal.Drop(ids) }

// DropAll drops every record, once a reset or a revert has emptied the
// mempool.
func (l *Log) DropAll() error { return l.wal.DropAll() }

// Appends returns how many batches Append has synced.
func (l *Log) Appends() uint64 { return l.wal.Appends() }

// Close closes the log's file.
func (l *Log) Close() error { return l.wal.Close() }
