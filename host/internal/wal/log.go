package wal

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/didlight/didlight/host/internal/fsync"
)

// compactSize is the least size at which a log mostly of dropped records
// is rewritten with only its live ones: below it, the file waits to be
// emptied by its last live record's drop, which costs nothing.
const compactSize = 1 << 20

// growStep is how much the file grows by when records outgrow it. It
// grows by zeros, synced, so that an append writes over blocks the file
// already has: its sync then flushes data alone, with no change of
// length or allocation to commit to the file system's journal, which
// halves its cost (BenchmarkAppend).
const growStep = 1 << 20

// Record is a record replayed by Open: its id, which Drop takes, and its
// body.
type Record struct {
	ID   uint64
	Body []byte
}

// Log is an open log. Its methods are safe for concurrent use; mu guards
// everything below it, and no other lock is taken while it is held.
type Log struct {
	mu        sync.Mutex
	path      string
	f         *os.File
	size      int64           // where the next record goes: the end of the records
	capacity  int64           // the file's length; past size it holds zeros, or records dropped
	next      uint64          // the id the next record gets
	live      map[uint64]span // the records not dropped, by id
	liveBytes int64
	buf       []byte // the batch being appended, kept for its capacity
	appends   uint64 // batches appended (each one sync), for Appends
	err       error  // a failed write or sync: the file's state is unknown, every later call fails
}

// span is where a record is in the file: its offset and length, header
// included.
type span struct{ off, n int64 }

// Open opens the log at path, creating it if needed, and returns it with
// the records it holds, in the order they were appended. A torn or corrupt
// record ends them (it and what follows were never acknowledged), and the
// next append writes over it.
func Open(path string) (*Log, []Record, error) {
	_, err := os.Stat(path)
	created := errors.Is(err, fs.ErrNotExist)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("wal: %w", err)
	}
	l := &Log{path: path, f: f, next: 1, live: make(map[uint64]span)}
	recs, err := l.replay(created)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	os.Remove(tmpPath(path)) // a compaction a crash interrupted; the log itself is whole
	return l, recs, nil
}

// replay reads the file's records up to the first that is not intact;
// created says the file is new, so that its directory entry is made
// durable.
func (l *Log) replay(created bool) ([]Record, error) {
	data, err := os.ReadFile(l.path)
	if err != nil {
		return nil, fmt.Errorf("wal: %w", err)
	}
	bodies, offsets, end := Decode(data)
	recs := make([]Record, len(bodies))
	for i, body := range bodies {
		id := l.next
		l.next++
		n := int64(headerSize + len(body))
		l.live[id] = span{offsets[i], n}
		l.liveBytes += n
		recs[i] = Record{ID: id, Body: body}
	}
	l.size, l.capacity = int64(end), int64(len(data))
	if created {
		return recs, fsync.Dir(filepath.Dir(l.path))
	}
	return recs, nil
}

// Append appends bodies as records, syncs them to disk, and returns their
// ids. A record is durable, and may be acknowledged, once Append returns.
func (l *Log) Append(bodies [][]byte) ([]uint64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return nil, l.err
	}
	l.buf = l.buf[:0]
	for _, body := range bodies {
		if len(body) > MaxBody {
			return nil, fmt.Errorf("wal: a record of %d bytes, more than %d", len(body), MaxBody)
		}
		l.buf = appendRecord(l.buf, body)
	}
	if err := l.grow(l.size + int64(len(l.buf))); err != nil {
		l.err = err
		return nil, err
	}
	if _, err := l.f.WriteAt(l.buf, l.size); err != nil {
		l.err = fmt.Errorf("wal: write %s: %w", l.path, err)
		return nil, l.err
	}
	if err := syncData(l.f); err != nil {
		l.err = fmt.Errorf("wal: sync %s: %w", l.path, err)
		return nil, l.err
	}
	l.appends++
	ids := make([]uint64, len(bodies))
	for i, body := range bodies {
		n := int64(headerSize + len(body))
		ids[i] = l.next
		l.live[l.next] = span{l.size, n}
		l.next++
		l.size += n
		l.liveBytes += n
	}
	return ids, nil
}

// grow makes the file at least need bytes long, by growSteps of zeros,
// synced with its new length; the caller holds mu.
func (l *Log) grow(need int64) error {
	if need <= l.capacity {
		return nil
	}
	grown := (need + growStep - 1) / growStep * growStep
	if _, err := l.f.WriteAt(make([]byte, grown-l.capacity), l.capacity); err != nil {
		return fmt.Errorf("wal: grow %s to %d bytes: %w", l.path, grown, err)
	}
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("wal: sync %s: %w", l.path, err)
	}
	l.capacity = grown
	return nil
}

// Appends returns how many batches Append has written: each cost a sync.
func (l *Log) Appends() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.appends
}

// Drop forgets the records ids: their owner no longer needs them. A log
// left with no live record is emptied (its first header zeroed, the next
// record written over it), one mostly of dropped records rewritten. Neither
// is synced at once, so after a crash a dropped record may be replayed
// again: its owner must recognize it as one it no longer needs.
func (l *Log) Drop(ids []uint64) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return l.err
	}
	for _, id := range ids {
		if s, ok := l.live[id]; ok {
			delete(l.live, id)
			l.liveBytes -= s.n
		}
	}
	switch {
	case len(l.live) == 0 && l.size > 0:
		if _, err := l.f.WriteAt(make([]byte, headerSize), 0); err != nil {
			l.err = fmt.Errorf("wal: empty %s: %w", l.path, err)
			return l.err
		}
		l.size = 0
	case l.size >= compactSize && 4*l.liveBytes <= l.size:
		return l.compact()
	}
	return nil
}

// DropAll forgets every record.
func (l *Log) DropAll() error {
	l.mu.Lock()
	ids := make([]uint64, 0, len(l.live))
	for id := range l.live {
		ids = append(ids, id)
	}
	l.mu.Unlock()
	return l.Drop(ids)
}

// compact writes the live records to a new file that replaces the log; the
// caller holds mu. The new file and its name are synced before it takes
// any record: a crash before then leaves the old file, which still holds
// every live record.
func (l *Log) compact() error {
	ids := make([]uint64, 0, len(l.live))
	for id := range l.live {
		ids = append(ids, id)
	}
	slices.Sort(ids) // the order they were appended in
	data := make([]byte, 0, l.liveBytes)
	moved := make(map[uint64]span, len(ids))
	for _, id := range ids {
		s := l.live[id]
		rec := make([]byte, s.n)
		if _, err := l.f.ReadAt(rec, s.off); err != nil {
			return fmt.Errorf("wal: compact %s: %w", l.path, err)
		}
		moved[id] = span{int64(len(data)), s.n}
		data = append(data, rec...)
	}
	f, err := writeNew(tmpPath(l.path), data)
	if err != nil {
		return err
	}
	if err := os.Rename(f.Name(), l.path); err != nil {
		f.Close()
		os.Remove(f.Name())
		return fmt.Errorf("wal: compact %s: %w", l.path, err)
	}
	l.f.Close()
	l.f, l.size, l.capacity, l.live = f, int64(len(data)), int64(len(data)), moved
	if err := fsync.Dir(filepath.Dir(l.path)); err != nil {
		l.err = err // which file the name holds after a crash is unknown
		return err
	}
	return nil
}

// writeNew writes data to a new file at path, synced, and returns it open.
func writeNew(path string, data []byte) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("wal: %w", err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("wal: write %s: %w", path, err)
	}
	return f, nil
}

// Close closes the log's file. The records stay for the next Open.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if errors.Is(l.err, ErrClosed) {
		return nil
	}
	l.err = ErrClosed
	if err := l.f.Close(); err != nil {
		return fmt.Errorf("wal: close %s: %w", l.path, err)
	}
	return nil
}

// ErrClosed is the error of calls on a closed log.
var ErrClosed = errors.New("wal: log closed")

func tmpPath(path string) string { return path + ".tmp" }
