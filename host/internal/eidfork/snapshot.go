package eidfork

import (
	"slices"

	"github.com/didlight/didlight/core/fork"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/host/internal/answers"
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// Taken returns the DIDs a fork took from its upstream that existed at
// the fork height, as it keeps them: what `devnet export` writes of a
// fork besides its blocks. The DIDs kept as absent are left out.
func Taken(c Chain) ([]*fork.Kept, error) {
	var out []*fork.Kept
	err := c.ViewIndex(func(tx store.Tx, _ didindex.Reader) error {
		for _, v := range record.Bucket(tx, bucketKept).Scan(store.Range{}) {
			k, err := fork.Decode(v)
			if err != nil {
				return err
			}
			if !k.Absent() {
				out = append(out, k)
			}
		}
		return nil
	})
	return out, err
}

// FromIndex returns every DID of an EID follower's index in db (the DID
// index's records, as host/internal/eidindex keeps them: heights are EID
// block numbers, txids as EID writes them) as a fork at height keeps it:
// what `devnet export` writes of a follower.
func FromIndex(db store.DB, height uint64) ([]*fork.Kept, error) {
	ix := didindex.New(idop.Decode, &answers.Cache{}, nil)
	var out []*fork.Kept
	err := db.View(func(tx store.Tx) error {
		r := ix.Read(tx)
		for key := range record.Bucket(tx, didindex.BucketDIDs).Scan(store.Range{}) {
			h, err := r.History(string(key))
			if err != nil {
				return err
			}
			k := &fork.Kept{DID: "did:elastos:" + string(key), Height: height}
			for _, e := range slices.Backward(h) {
				k.Ops = append(k.Ops, fork.Op{Txid: e.Txid, Block: uint64(e.Height), Time: e.Time, Request: e.Request})
			}
			out = append(out, k)
		}
		return nil
	})
	return out, err
}
