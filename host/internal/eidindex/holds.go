package eidindex

import (
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// Holds reports whether db holds an EID index, and its head, without
// opening it or writing anything: so that a tool given a data directory
// (devnet export) tells an EID follower's from a chain's.
func Holds(db store.DB) (head Head, ok bool, err error) {
	err = db.View(func(tx store.Tx) error {
		if _, ok = record.Bucket(tx, bucketMeta).Get(keyChain); !ok {
			return nil
		}
		head, _, err = readHead(tx)
		return err
	})
	return head, ok, err
}
