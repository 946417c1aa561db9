package api

import (
	"context"
	"encoding/json"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/fork"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/w3c"
	"github.com/didlight/didlight/host/internal/chain"
)

// Fork is a fork of an EID chain (host/internal/eidfork): asked before a
// DID is read or an operation on it admitted, it makes the DIDs local,
// taking from its upstream those the chain does not hold yet.
type Fork interface {
	Ensure(ctx context.Context, ids ...did.DID) error
	// EnsureCredential makes a credential local, with the DIDs it names.
	EnsureCredential(ctx context.Context, id did.URL) error
	// EnsureCredentials makes local the credentials the upstream lists
	// for a DID.
	EnsureCredentials(ctx context.Context, d did.DID) error
}

// NewFork returns a fork's server: a devnet's (New) over c, whose DID
// reads, query by id, /idtx and transaction broadcasts first have f make
// the DIDs they need local. Call Listen, then Serve.
func NewFork(c *chain.Chain, f Fork, opts Options) *Server {
	s := newServer(c, forkReads{c, f}, nil, opts)
	s.queries, s.fork = forkReads{c, f}, f
	return s
}

// forkReads are the chain's DID reads and query, each DID taken first.
type forkReads struct {
	c *chain.Chain
	f Fork
}

func (r forkReads) ResolveDID(ctx context.Context, d did.DID, all bool) ([]byte, error) {
	if err := r.f.Ensure(ctx, d); err != nil {
		return nil, err
	}
	return r.c.ResolveDID(ctx, d, all)
}

func (r forkReads) ResolveDIDSDK(ctx context.Context, d did.DID, all bool) ([]byte, error) {
	if err := r.f.Ensure(ctx, d); err != nil {
		return nil, err
	}
	return r.c.ResolveDIDSDK(ctx, d, all)
}

func (r forkReads) ResolveCredential(ctx context.Context, id did.URL, issuer *did.DID) ([]byte, error) {
	ids := []did.DID{id.DID}
	if issuer != nil {
		ids = append(ids, *issuer)
	}
	if err := r.f.Ensure(ctx, ids...); err != nil {
		return nil, err
	}
	if err := r.f.EnsureCredential(ctx, id); err != nil {
		return nil, err
	}
	return r.c.ResolveCredential(ctx, id, issuer)
}

func (r forkReads) ListCredentials(ctx context.Context, d did.DID, skip, limit int) ([]byte, error) {
	if err := r.f.Ensure(ctx, d); err != nil {
		return nil, err
	}
	if err := r.f.EnsureCredentials(ctx, d); err != nil {
		return nil, err
	}
	return r.c.ListCredentials(ctx, d, skip, limit)
}

func (r forkReads) ResolveW3C(ctx context.Context, id, options, accept string) (w3c.Response, error) {
	req := w3c.ParseRequest(id, options, accept)
	if d, ok := req.DID(); ok {
		if err := r.f.Ensure(ctx, d); err != nil {
			return req.UpstreamFailure(err.Error()), nil
		}
	}
	return r.c.ResolveW3C(ctx, id, options, accept)
}

// Query answers over the DIDs local to the fork; a condition on the id
// alone ({"id": "did:elastos:…"}) takes that DID first.
func (r forkReads) Query(ctx context.Context, q chain.Query) ([]byte, error) {
	if q.Condition != nil {
		var cond map[string]json.RawMessage
		var id string
		if json.Unmarshal([]byte(q.Condition.String()), &cond) == nil && json.Unmarshal(cond["id"], &id) == nil {
			if d, err := did.Parse(id); err == nil {
				if err := r.f.Ensure(ctx, d); err != nil {
					return nil, err
				}
			}
		}
	}
	return r.c.Query(ctx, q)
}

// ensureRequest makes the DIDs an identity request needs local before it
// is admitted; on a server that is no fork it does nothing. A request that
// does not decode is left to the chain to refuse.
func (s *Server) ensureRequest(ctx context.Context, req idop.Request) error {
	if s.fork == nil {
		return nil
	}
	op, err := idop.Decode(req)
	if err != nil {
		return nil
	}
	if op.Request.Header.Specification == idop.SpecCredential {
		if err := s.fork.EnsureCredential(ctx, op.CredentialID); err != nil {
			return err
		}
	}
	return s.fork.Ensure(ctx, fork.Needs(op)...)
}

// ensureTx is ensureRequest for the identity operation a raw transaction
// carries, if it carries one.
func (s *Server) ensureTx(ctx context.Context, raw []byte) error {
	if s.fork == nil {
		return nil
	}
	tx, err := ela.ParseTx(raw)
	if err != nil {
		return nil
	}
	p, ok := tx.Payload.(*ela.Operation)
	if !ok {
		return nil
	}
	return s.ensureRequest(ctx, idop.Request{Header: idop.Header(p.Header), Payload: p.Payload, Proof: idop.Proof(p.Proof)})
}
