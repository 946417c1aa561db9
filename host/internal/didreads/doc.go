// Package didreads answers the DID reads (resolve, credentials, W3C, query) from a store's DID index at its tip.
//
// A devnet's chain and an EID follower's index both keep a DID index
// (host/internal/didindex) and a tip in a store; a Reads answers
// resolvedid, did_resolveDID, the credential methods, W3C DID Resolution,
// query and explain from them, in one store read each, and keeps the
// answers for the tip they were built at (host/internal/answers).
package didreads

import (
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/host/internal/answers"
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// Source is a store that keeps a DID index and a tip.
type Source interface {
	// Tip returns the tip as readers see it now: the answers kept for its
	// hash are served without a store read.
	Tip() (height uint32, hash ela.Hash, blockTime int64)
	// View runs fn in a read transaction of the store; it fails, fn
	// unrun, once the source is closed.
	View(fn func(tx store.Tx) error) error
	// ReadTip returns the tip as tx holds it: the height and block time
	// an answer is built at, and the hash it is kept for.
	ReadTip(tx store.Tx) (record.Tip, error)
}

// Reads answers the DID reads of a Source. Its methods are safe for
// concurrent use as far as the Source's are.
type Reads struct {
	src   Source
	index *didindex.Index
	cache *answers.Cache
}

// New returns the reads of src, whose DID index index reads, keeping
// answers in cache (which index keeps documents in).
func New(src Source, index *didindex.Index, cache *answers.Cache) *Reads {
	return &Reads{src: src, index: index, cache: cache}
}

// view runs fn with a reader of the index in a read transaction of the
// source.
func (r *Reads) view(fn func(dids didindex.Reader) error) error {
	return r.src.View(func(tx store.Tx) error { return fn(r.index.Read(tx)) })
}

// viewAtTip is view for an answer built at the tip: fn also gets the tip
// the transaction holds, which viewAtTip returns, so that the answer is
// kept for the tip it was built at.
func (r *Reads) viewAtTip(fn func(dids didindex.Reader, tip record.Tip) error) (record.Tip, error) {
	var tip record.Tip
	err := r.src.View(func(tx store.Tx) error {
		var err error
		if tip, err = r.src.ReadTip(tx); err != nil {
			return err
		}
		return fn(r.index.Read(tx), tip)
	})
	return tip, err
}
