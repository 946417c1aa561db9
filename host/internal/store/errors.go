package store

import "errors"

// Errors every backend reports for the same misuse. Backends wrap them with
// details (the key's length, the bucket's name); test with errors.Is.
var (
	// ErrClosed: View or Update on a closed store, and every call on a
	// closed chain (host/internal/chain), which wraps it.
	ErrClosed = errors.New("store: closed")
	// ErrCorrupt: what the store holds cannot be read: a data file that is
	// damaged, truncated or of another format, or a stored value that does
	// not decode. Errors wrapping it name the file or the value.
	ErrCorrupt = errors.New("store: corrupt")
	// ErrReadOnly: a write inside a View.
	ErrReadOnly = errors.New("store: write in a read-only transaction")
	// ErrTxDone: a write through a Tx or Bucket after its transaction ended.
	// (Reads after the end are a programming error and panic.)
	ErrTxDone = errors.New("store: transaction has ended")
	// ErrKey: a key that is empty or longer than [MaxKeySize].
	ErrKey = errors.New("store: invalid key")
	// ErrValueTooLarge: a value longer than [MaxValueSize].
	ErrValueTooLarge = errors.New("store: value too large")
	// ErrBucketName: a bucket name that is empty or longer than
	// [MaxBucketNameSize].
	ErrBucketName = errors.New("store: invalid bucket name")
)
