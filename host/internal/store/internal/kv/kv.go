// Package kv holds what the store backends share.
//
// It holds what the store backends share: input rules, transaction state,
// value copies and range iteration over a backend's cursor, so that every
// backend answers the same way.
package kv

import (
	"fmt"

	"github.com/didlight/didlight/host/internal/store"
)

// CheckBucketName returns an error wrapping [store.ErrBucketName] if name is
// not a valid bucket name.
func CheckBucketName(name string) error {
	if name == "" || len(name) > store.MaxBucketNameSize {
		return fmt.Errorf("%w: %d bytes (want 1 to %d)", store.ErrBucketName, len(name), store.MaxBucketNameSize)
	}
	return nil
}

// CheckKey returns an error wrapping [store.ErrKey] if key cannot be stored.
func CheckKey(key []byte) error {
	if len(key) == 0 || len(key) > store.MaxKeySize {
		return fmt.Errorf("%w: %d bytes (want 1 to %d)", store.ErrKey, len(key), store.MaxKeySize)
	}
	return nil
}

// CheckValue returns an error wrapping [store.ErrValueTooLarge] if value is
// longer than [store.MaxValueSize].
func CheckValue(value []byte) error {
	if len(value) > store.MaxValueSize {
		return fmt.Errorf("%w: %d bytes (at most %d)", store.ErrValueTooLarge, len(value), store.MaxValueSize)
	}
	return nil
}

// Pair copies key and value into one new allocation. The value copy is never
// nil, so an empty value stays distinguishable from a missing one.
func Pair(key, value []byte) (k, v []byte) {
	buf := Joined(key, value)
	n := len(buf)
	return buf[:n:n], buf[n:cap(buf)]
}

// Joined copies key and value into one new allocation and returns the key's
// copy, with the value's copy after it up to its capacity: one slice for
// both, for a backend that keeps many pairs.
func Joined(key, value []byte) []byte {
	buf := make([]byte, len(key)+len(value))
	n := copy(buf, key)
	copy(buf[n:], value)
	return buf[:n]
}

// TxState is what a backend's transaction records about itself.
type TxState struct {
	Writable bool // an Update
	Done     bool // its function has returned
}

// End marks the transaction ended; its function has returned.
func (s *TxState) End() { s.Done = true }

// CheckRead panics if the transaction has ended: reading through a Tx or
// Bucket after that is a programming error with no value to return.
func (s *TxState) CheckRead() {
	if s.Done {
		panic("store: read through a transaction that has ended")
	}
}

// CheckWrite returns [store.ErrTxDone] or [store.ErrReadOnly] if the
// transaction cannot write.
func (s *TxState) CheckWrite() error {
	switch {
	case s.Done:
		return store.ErrTxDone
	case !s.Writable:
		return store.ErrReadOnly
	}
	return nil
}
