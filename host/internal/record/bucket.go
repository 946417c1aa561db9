package record

import (
	"unsafe"

	"github.com/didlight/didlight/host/internal/store"
)

// Bucket returns the bucket name of tx. The names of the store's buckets
// are constants that a store accepts, so a failure is a programming error,
// and Bucket panics with it.
func Bucket(tx store.Tx, name string) store.Bucket {
	b, err := tx.Bucket(name)
	if err != nil {
		panic("record: bucket " + name + ": " + err.Error())
	}
	return b
}

// Key returns the bytes of s, without a copy, as the key of a store call
// (Get, Put, Delete), which copies what it keeps: so that a key held as a
// string (a map's) costs no allocation a call. They must not be changed.
func Key(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
