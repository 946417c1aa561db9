package eidfork

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"maps"
	"slices"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/fork"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/answers"
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// Taken returns the DIDs and credentials a fork took from its upstream
// that existed at the fork height, as it keeps them: what `devnet export`
// writes of a fork besides its blocks. The DIDs come first, then the
// credentials in the order the fork's index lists them (credentialKeys),
// so that a devnet grafting them in this order lists each DID's
// credentials as the fork does. Those kept as absent are left out.
func Taken(c Chain) ([]*fork.Kept, error) {
	var out []*fork.Kept
	err := c.ViewIndex(func(tx store.Tx, _ didindex.Reader) error {
		creds := map[string]*fork.Kept{}
		for key, v := range record.Bucket(tx, bucketKept).Scan(store.Range{}) {
			k, err := fork.Decode(v)
			if err != nil {
				return err
			}
			switch _, credential, _ := fork.ParseSubject(k.DID); {
			case k.Absent():
			case credential:
				creds[string(key)] = k
			default:
				out = append(out, k)
			}
		}
		order, err := credentialKeys(tx)
		if err != nil {
			return err
		}
		order = append(order, slices.Sorted(maps.Keys(creds))...) // kept, but not in the index since a reset
		for _, key := range order {
			if k, ok := creds[key]; ok {
				out = append(out, k)
				delete(creds, key)
			}
		}
		return nil
	})
	return out, err
}

// FromIndex returns every DID and credential of an EID follower's index in
// db (the DID index's records, as host/internal/eidindex keeps them:
// heights are EID block numbers, txids as EID writes them) as a fork at
// height keeps them, the credentials after the DIDs in the order the
// index lists them: what `devnet export` writes of a follower.
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
			out = append(out, kept("did:elastos:"+string(key), height, h))
		}
		creds, err := credentialKeys(tx)
		if err != nil {
			return err
		}
		for _, key := range creds {
			h, err := r.CredentialHistory(key)
			if err != nil {
				return err
			}
			out = append(out, kept(key, height, h))
		}
		return nil
	})
	return out, err
}

// kept returns the Kept of subject at height from its index history,
// newest first.
func kept(subject string, height uint64, h []resolve.Entry) *fork.Kept {
	k := &fork.Kept{DID: subject, Height: height}
	for _, e := range slices.Backward(h) {
		k.Ops = append(k.Ops, fork.Op{Txid: e.Txid, Block: uint64(e.Height), Time: e.Time, Request: e.Request})
	}
	return k
}

// credentialKeys returns the keys of the credentials the DID index in tx
// holds: those declared in the order they were declared (the order of
// didindex.BucketOwned's sequence, which listcredentials follows), then
// those only revoked, in key order.
func credentialKeys(tx store.Tx) ([]string, error) {
	type declared struct {
		seq uint64
		key string
	}
	var decl []declared
	listed := map[string]bool{}
	for k, v := range record.Bucket(tx, didindex.BucketOwned).Scan(store.Range{}) {
		if len(k) < 8 {
			return nil, fmt.Errorf("a credential posting key of %d bytes: %w", len(k), store.ErrCorrupt)
		}
		id, err := did.ParseURL(string(v), did.DID{})
		if err != nil {
			return nil, fmt.Errorf("a stored credential id %q: %w: %v", v, store.ErrCorrupt, err)
		}
		decl = append(decl, declared{binary.BigEndian.Uint64(k[len(k)-8:]), id.Key()})
		listed[id.Key()] = true
	}
	slices.SortFunc(decl, func(a, b declared) int { return cmp.Compare(a.seq, b.seq) })
	keys := make([]string, 0, len(decl))
	for _, d := range decl {
		keys = append(keys, d.key)
	}
	for k := range record.Bucket(tx, didindex.BucketCreds).Scan(store.Range{}) {
		if !listed[string(k)] {
			keys = append(keys, string(k))
		}
	}
	return keys, nil
}
