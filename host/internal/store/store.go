// Package store defines the ordered, bucketed key-value store of the node.
//
// It defines the ordered, bucketed key-value store that the node keeps its
// chain and indexes in. The chain layer writes its typed records and indexes
// once, against these interfaces, and runs on either backend:
// host/internal/store/mem (in memory, for --mem and tests) or
// host/internal/store/bolt (one file in a data directory, crash-safe).
//
// Every backend gives the same guarantees:
//
//   - A View sees a consistent snapshot: everything committed before it began,
//     nothing committed after, however long it runs.
//   - One Update runs at a time. An Update whose function returns an error (or
//     panics) changes nothing. A committed Update is atomic across every bucket
//     it touched and, for durable backends, on disk when Update returns.
//   - Keys are ordered bytewise (bytes.Compare). Keys are 1 to MaxKeySize bytes;
//     values 0 to MaxValueSize bytes.
//   - The store never keeps a slice it was given and never hands out one it
//     keeps: Put copies its arguments, and Get and Scan return fresh copies that
//     the caller owns and may keep or modify after the transaction ends.
//
// Transactions must not be nested (calling View or Update inside another
// transaction's function may deadlock), and a Tx and its Buckets belong to the
// goroutine running the transaction function.
package store

import "iter"

// Size limits for keys, values and bucket names, the same for every backend.
const (
	// MaxKeySize is the longest key, in bytes (bbolt's own limit).
	MaxKeySize = 32768
	// MaxValueSize is the longest value, in bytes: eight times the largest
	// block the ledger allows (8,000,000 bytes, MaxBlockContextSize from
	// Elastos.ELA elanet/pact/protocol.go).
	MaxValueSize = 64 << 20
	// MaxBucketNameSize is the longest bucket name, in bytes.
	MaxBucketNameSize = 255
)

// DB is an open store. Its methods are safe for concurrent use.
type DB interface {
	// View runs fn in a read-only transaction over a consistent snapshot.
	// It returns fn's error unchanged, or [ErrClosed].
	View(fn func(Tx) error) error
	// Update runs fn in the single read-write transaction and commits it if
	// fn returns nil. If fn returns an error or panics, nothing changes and
	// the error (or panic) reaches the caller unchanged; if the commit
	// fails, nothing changes and Update says why.
	Update(fn func(Tx) error) error
	// Durable reports whether what an Update commits outlives the process
	// (a store on disk), or goes with it (a store in memory): a writer
	// that makes a record durable before it answers has nothing to make
	// durable on a store that is not.
	Durable() bool
	// Close waits for running transactions, then releases the store.
	// Later View and Update calls return [ErrClosed]; a second Close is a no-op.
	Close() error
}

// Tx is a transaction: a View or an Update. It and its Buckets are valid
// only while the transaction's function runs; afterwards writes fail with
// [ErrTxDone] and reads panic.
type Tx interface {
	// Bucket returns the named bucket. Buckets need no declaration: in an
	// Update a bucket comes into being with its first write, and a bucket
	// that was never written reads as empty. Within one transaction every call
	// with the same name returns the same Bucket. The name must be 1 to
	// [MaxBucketNameSize] bytes (else [ErrBucketName]).
	Bucket(name string) (Bucket, error)
	// DeleteBucket removes every key of the named bucket and resets its
	// sequence. Buckets obtained earlier in the transaction stay usable and
	// read as empty. Deleting an empty or unknown bucket is not an error.
	DeleteBucket(name string) error
}

// Bucket is an ordered map from keys to values inside a transaction.
type Bucket interface {
	// Get returns a copy of the value stored under key, and whether there
	// is one. An empty value is returned as a non-nil empty slice.
	Get(key []byte) (value []byte, ok bool)
	// Put stores a copy of value under a copy of key, replacing any value
	// there. A nil value stores an empty value. It fails with [ErrReadOnly] in
	// a View, [ErrKey] or [ErrValueTooLarge] for bad input, [ErrTxDone] after the
	// transaction ended.
	Put(key, value []byte) error
	// Delete removes key. Deleting a missing key is not an error; it fails
	// as Put does for an invalid key, in a View or after the transaction.
	Delete(key []byte) error
	// Scan iterates over the keys of r in order, yielding copies of each key
	// and value. The bucket may be modified while Scan runs: the iteration
	// then continues from the key after (in reverse order, before) the last
	// one yielded, as the bucket is at that moment.
	Scan(r Range) iter.Seq2[[]byte, []byte]
	// ScanShared is Scan without the copies: it yields the store's own
	// slices, which are valid only until the iteration moves on and must
	// not be modified. It is for reading many large values in place, such
	// as matching every document of a bucket.
	ScanShared(r Range) iter.Seq2[[]byte, []byte]
	// Sequence returns the bucket's counter: the last value NextSequence
	// returned, or 0.
	Sequence() uint64
	// NextSequence increments the bucket's counter and returns the new value
	// (1 for the first call). It is part of the transaction like any write.
	NextSequence() (uint64, error)
	// SetSequence sets the bucket's counter to n, lower or higher, keys
	// untouched: for giving a bucket back the counter it had (an undo
	// log's revert). It fails as Put does in a View or after the
	// transaction.
	SetSequence(n uint64) error
}

// Range selects the keys a Scan visits. The zero Range visits every key in
// ascending order.
type Range struct {
	// Prefix limits the scan to keys that start with it.
	Prefix []byte
	// Start, if not empty, is where the scan begins: ascending, at the first
	// key >= Start; in reverse, at the last key <= Start. Keys that merely
	// begin with Start are greater than it, so a reverse scan from Start does
	// not visit them.
	Start []byte
	// Reverse visits keys in descending order.
	Reverse bool
}
