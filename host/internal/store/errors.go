package store

import "errors"

// Errors every backend reports for the same misuse. Backends wrap them with
// details (the key's length, the bucket's name); test with errors.Is.
var (
	// ErrClosed: View or Update on a closed store.
	ErrClosed = errors.New("store: closed")
	// ErrReadOnly: a write inside a View.
	ErrReadOnly = errors.New("store: write in a read-only transaction")
	// ErrTxDone: a write through a Tx or Bucket after its transaction ended.
	// (Reads after the end are a programming error and panic.)
	ErrTxDone = errors.New("store: transaction has ended")
	// ErrKey: a key that is empty or longer than MaxKeySize.
	ErrKey = errors.New("store: invalid key")
	// ErrValueTooLarge: a value longer than MaxValueSize.
	ErrValueTooLarge = errors.New("store: value too large")
	// ErrBucketName: a bucket name that is empty or longer than
	// MaxBucketNameSize.
	ErrBucketName = errors.New("store: invalid bucket name")
)
