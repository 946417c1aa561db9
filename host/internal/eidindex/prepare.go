package eidindex

import (
	"runtime"
	"sync/atomic"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/eid"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/eidsync"
)

// prepared is an operation made ready for its check in order, ahead of
// its block's store update and on every core: decoded, the signatures that
// need no state of the index verified and remembered (sigs), and, when
// those check, what the indexes need of its document derived. Nothing in
// it decides: the check in order does, against the state before it.
type prepared struct {
	id   *didindex.Operation
	err  error // decoding failed: the check in order fails with it
	sigs *keys.Remembering
}

// prepareAll starts preparing the operations of blocks, in block order,
// on as many goroutines as there are cores, and returns a function that
// waits for block i's and returns them: the blocks' store update applies
// each block as soon as it is ready, while the blocks after it are being
// prepared. The goroutines end once every operation is prepared, whether
// or not it is asked for.
func (ix *Index) prepareAll(blocks []*eidsync.Block) func(i int) []*prepared {
	out := make([][]*prepared, len(blocks))
	done := make([]chan struct{}, len(blocks)) // closed once block i's are prepared
	left := make([]atomic.Int64, len(blocks))  // block i's not prepared yet
	for b, blk := range blocks {
		out[b], done[b] = make([]*prepared, len(blk.Ops)), make(chan struct{})
		if left[b].Store(int64(len(blk.Ops))); len(blk.Ops) == 0 {
			close(done[b])
		}
	}
	type job struct{ b, i int }
	jobs := make(chan job, 64)
	go func() {
		for b, blk := range blocks {
			for i := range blk.Ops {
				jobs <- job{b, i}
			}
		}
		close(jobs)
	}()
	for range runtime.GOMAXPROCS(0) {
		go func() {
			for j := range jobs {
				out[j.b][j.i] = ix.prepare(blocks[j.b].Ops[j.i])
				if left[j.b].Add(-1) == 0 {
					close(done[j.b])
				}
			}
		}()
	}
	return func(i int) []*prepared {
		<-done[i]
		return out[i]
	}
}

// prepare decodes op and verifies ahead what it can without the index's
// state: a DID document's own proofs, and the request's signature when its
// signer is in the document it publishes (idop.ValidateDetached). Errors
// but decoding's are dropped: the check in order finds them again.
func (ix *Index) prepare(op eidsync.Op) *prepared {
	req, err := eid.DecodeLogData(op.Data)
	if err != nil {
		return &prepared{err: err}
	}
	o, err := idop.Decode(req)
	if err != nil {
		return &prepared{err: asRule(err)}
	}
	p := &prepared{id: didindex.NewOperation(o), sigs: &keys.Remembering{V: ix.verifier}}
	switch o.Request.Header.Operation {
	case idop.Create, idop.Update, idop.Transfer:
		if !p.id.Credential() && idop.ValidateDetached(o, did.NewDocuments(), p.sigs, time.Time{}) == nil {
			p.id.PostAhead()
		}
	}
	return p
}
