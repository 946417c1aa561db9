package eidindex

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/eidsync"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/undo"
)

// format is the version of the store's layout below; the DID index's
// buckets (didindex.Buckets) are a devnet's.
const format = 1

// The buckets of an EID index, beside didindex.Buckets.
const (
	bucketMeta   = "eid"       // the keys below
	bucketBlocks = "eidblocks" // U64(number) → the block's hash ‖ the undo log's mark before it, for the last Keep blocks
	bucketUndo   = "eidundo"   // the undo log (undoLog)
)

// The keys of bucketMeta.
var (
	keyFormat = []byte("format") // U64(format)
	keyChain  = []byte("chain")  // U64(the chain id)
	keyHead   = []byte("head")   // number (8) ‖ hash (32) ‖ time (8); absent before the first block
	keyCounts = []byte("counts") // Counts as JSON
)

// undoLog logs what each block changes of the DID index and the meta (the
// head, the counts), so that Rollback gives them back.
var undoLog = undo.Log{Name: bucketUndo, Covered: func(name string) bool {
	return name == bucketMeta || slices.Contains(didindex.Buckets, name)
}}

// Counts are what an index has applied and refused, since it was made.
type Counts struct {
	Applied     uint64   // operations indexed
	Waived      uint64   // of them, accepted without checks EID did not make in their block (its migration window, early expiry)
	Refused     uint64   // operations that failed verification, not indexed
	LastRefused *Refusal `json:",omitempty"`
}

// Refusal is an operation that failed verification.
type Refusal struct {
	Block  uint64
	Txid   string // as EID's answers write it
	DID    string // what the operation is about, when it decoded
	Reason string
}

func readHead(tx store.Tx) (Head, bool, error) {
	v, ok := record.Bucket(tx, bucketMeta).Get(keyHead)
	if !ok {
		return Head{}, false, nil
	}
	if len(v) != 48 {
		return Head{}, false, fmt.Errorf("eidindex: head of %d bytes: %w", len(v), store.ErrCorrupt)
	}
	h := Head{Number: binary.BigEndian.Uint64(v), Time: binary.BigEndian.Uint64(v[40:])}
	copy(h.Hash[:], v[8:40])
	return h, true, nil
}

func putHead(tx store.Tx, h Head) error {
	v := binary.BigEndian.AppendUint64(nil, h.Number)
	v = append(v, h.Hash[:]...)
	v = binary.BigEndian.AppendUint64(v, h.Time)
	return record.Bucket(tx, bucketMeta).Put(keyHead, v)
}

func readCounts(tx store.Tx) (Counts, error) {
	var c Counts
	v, ok := record.Bucket(tx, bucketMeta).Get(keyCounts)
	if !ok {
		return c, nil
	}
	if err := json.Unmarshal(v, &c); err != nil {
		return c, fmt.Errorf("eidindex: counts: %w: %w", store.ErrCorrupt, err)
	}
	return c, nil
}

func putCounts(tx store.Tx, c Counts) error {
	v, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return record.Bucket(tx, bucketMeta).Put(keyCounts, v)
}

// kept is what the index keeps of one of its last blocks.
type kept struct {
	hash eidsync.Hash
	mark uint64 // the undo log's position before the block
}

func readKept(tx store.Tx, number uint64) (kept, bool) {
	v, ok := record.Bucket(tx, bucketBlocks).Get(record.U64(number))
	if !ok || len(v) != 40 {
		return kept{}, false
	}
	var k kept
	copy(k.hash[:], v)
	k.mark = binary.BigEndian.Uint64(v[32:])
	return k, true
}

func putKept(tx store.Tx, number uint64, k kept) error {
	v := append(k.hash[:], binary.BigEndian.AppendUint64(nil, k.mark)...)
	return record.Bucket(tx, bucketBlocks).Put(record.U64(number), v)
}
