package w3c

import (
	"errors"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/resolve"
)

// ErrIncomplete is the error of [ResolveVerified] for a resolve result that
// does not hold the DID's whole history (resolvedid with all=false), from
// which neither created nor older versions can be told.
var ErrIncomplete = errors.New("w3c: the resolve result does not begin with the DID's create: ask resolvedid with all=true")

// ResolveVerified answers req as Resolve does, from result, a node's
// resolvedid answer (the result object or the JSON-RPC response) with the
// whole history of the DID req names, which it checks first as
// [resolve.Verify] does, with docs, v and now (the chain tip's block time)
// as there. The history names no blocks, so the metadata gives no block
// heights or confirmations; the rest of the answer is the node's byte for
// byte. A request [ParseRequest] could not read gets its error, result
// unread. The error is a *resolve.VerifyError, [ErrIncomplete], or a result
// about another DID.
func ResolveVerified(req *Request, result []byte, docs did.Lookup, v keys.Verifier, now time.Time) (Response, error) {
	if req.err != nil {
		return req.failure(req.err), nil
	}
	checked, err := resolve.Verify(result, docs, v, now)
	if err != nil {
		return Response{}, err
	}
	return ResolveChecked(req, checked, now)
}

// ResolveChecked answers req as [ResolveVerified] does, from a resolve result
// already checked (by [resolve.Verify], or by core/eid for an EID node's
// did_resolveDID answer) at now. The error is [ErrIncomplete], or a result
// about another DID.
func ResolveChecked(req *Request, checked *resolve.Verified, now time.Time) (Response, error) {
	switch {
	case req.err != nil:
		return req.failure(req.err), nil
	case checked.DID.Key() != req.subject.Key():
		return Response{}, errors.New("w3c: the resolve result is about " + checked.DID.String() + ", not " + req.requested)
	case checked.Status != resolve.NotFound && !checked.Complete:
		return Response{}, ErrIncomplete
	}
	h := History{Entries: checked.History, Document: func(i int) (*did.Document, error) { return checked.Documents[i], nil }}
	return Resolve(req, h, Tip{Time: now.Unix()})
}
