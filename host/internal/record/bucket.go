package record

import "github.com/didlight/didlight/host/internal/store"

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
