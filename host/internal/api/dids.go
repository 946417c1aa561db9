package api

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/excerpt"
	"github.com/didlight/didlight/core/jsonrpc"
	"github.com/didlight/didlight/core/w3c"
	"github.com/didlight/didlight/host/internal/chain"
)

// DIDReader answers the DID reads of both APIs: resolvedid and
// did_resolveDID, the credential methods, and W3C DID Resolution. A node's
// chain (*chain.Chain) answers them from its store; a light node's resolver
// (host/internal/light) from an upstream, each answer verified before it is
// returned. The handlers depend on this and nothing else for DID reads.
type DIDReader interface {
	// ResolveDID returns the resolvedid result object, in the
	// interface's dialect (status 1 for an expired DID).
	ResolveDID(ctx context.Context, d did.DID, all bool) ([]byte, error)
	// ResolveDIDSDK returns the did_resolveDID result object, in the
	// identity chain's dialect (status 0 for an expired DID).
	ResolveDIDSDK(ctx context.Context, d did.DID, all bool) ([]byte, error)
	// ResolveCredential returns the resolvecredential result object;
	// issuer nil for none.
	ResolveCredential(ctx context.Context, id did.URL, issuer *did.DID) ([]byte, error)
	// ListCredentials returns the listcredentials result object.
	ListCredentials(ctx context.Context, d did.DID, skip, limit int) ([]byte, error)
	// ResolveW3C answers GET /1.0/identifiers/{id} (core/w3c). The
	// Response is always the one to send; the error, when not nil, is a
	// failure the server logs.
	ResolveW3C(ctx context.Context, id, options, accept string) (w3c.Response, error)
}

// Light is a light resolver: a [DIDReader] with no chain of its own, which
// asks an upstream and verifies each answer before it serves it. A server
// made with [NewLight] serves the DID reads through it, its own node state,
// the height of its upstream's head, and nothing of a ledger.
type Light interface {
	DIDReader
	// Head returns the upstream's head block as last learned, its height
	// and block time; ok is false until one is known.
	Head() (height uint64, at time.Time, ok bool)
	// ChainID returns the chain id the upstream answered; ok is false
	// until it has.
	ChainID() (id uint64, ok bool)
	// Status is what the node state shows of the light resolver, as its
	// Light member: the upstream, its head, and the counts of answers
	// served, verified and refused. It must marshal to a JSON object.
	Status() any
	// Sync returns the height its answers are at, the upstream's head as
	// last learned, and, while it cannot keep up with the upstream (the
	// upstream does not answer, or has not yet), why: for GET /ready.
	Sync() (height, upstream uint64, err error)
}

// Querier answers query (see chain.Query): a chain, or an EID follower's
// index.
type Querier interface {
	Query(ctx context.Context, q chain.Query) ([]byte, error)
}

// EIDFollower is an EID follower: a [Light] whose DID reads come from an
// index of the EID chain it keeps itself, which answers query too. Its
// Head is the last EID block indexed. A server made with [NewEIDFollower]
// serves the DID reads and query through it, and nothing of a ledger.
type EIDFollower interface {
	Light
	Querier
}

// rpcFailure is an error of a [DIDReader] that says how JSON-RPC answers it
// (the light resolver's: an upstream that did not answer, an answer that
// failed verification, or the upstream's own error answer). Its source
// has logged it.
type rpcFailure interface {
	error
	RPCError() *jsonrpc.Error
}

// asRPCFailure returns the JSON-RPC error err says to answer with, if it
// says one.
func asRPCFailure(err error) (*jsonrpc.Error, bool) {
	if f, ok := errors.AsType[rpcFailure](err); ok {
		return f.RPCError(), true
	}
	return nil, false
}

// notServed says why a node without a ledger (a light node, an EID
// follower) does not serve what was asked.
func (s *Server) notServed(what string) string {
	if s.queries != nil {
		return fmt.Sprintf("%s is not served by an EID follower: it indexes the DID operations of an EID chain, not a ledger, and serves the DID reads (resolvedid, did_resolveDID, the credential methods, /1.0/identifiers) and query", excerpt.Cut(what))
	}
	return fmt.Sprintf("%s is not served by a light node: it has no chain of its own, and serves only the DID reads (resolvedid, did_resolveDID, the credential methods, /1.0/identifiers), each verified from its upstream", excerpt.Cut(what))
}

// notServedRPC is a light node's answer to a JSON-RPC method of the ledger,
// a write or a devnet control: "Method not found" (-32601), which JSON-RPC
// 2.0 gives a method that "is not available", with why in data.
func (s *Server) notServedRPC(method string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "Method not found", Data: s.notServed(method)}
}

// ledger returns h, or on a light node a handler that answers that the
// route is not served: 42001 "Invalid method", the code ELA's REST service
// gives an action it does not serve.
func (s *Server) ledger(h func(*http.Request) (any, *restError)) func(*http.Request) (any, *restError) {
	if s.light == nil {
		return h
	}
	return func(r *http.Request) (any, *restError) {
		return nil, fail(invalidMethod, s.notServed(r.Method+" "+r.URL.Path))
	}
}

// ledgerHandler is ledger for a route that writes its own answer: on a
// light node it answers 42001 in the REST envelope.
func (s *Server) ledgerHandler(h http.HandlerFunc) http.HandlerFunc {
	if s.light == nil {
		return h
	}
	return func(w http.ResponseWriter, r *http.Request) {
		writeREST(w, nil, fail(invalidMethod, s.notServed(r.Method+" "+r.URL.Path)))
	}
}

// sdkHandler is ledger for the DID-SDK endpoints that write (/idtx,
// /reset): on a light node they answer 501 Not Implemented with 42001.
func (s *Server) sdkHandler(h http.HandlerFunc) http.HandlerFunc {
	if s.light == nil {
		return h
	}
	return func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotImplemented, sdkError{Code: int(invalidMethod), Message: s.notServed("POST " + r.URL.Path)})
	}
}

// height is the height a node reports: its chain's tip, or on a light node
// its upstream's head (0 until one is known), at most the largest height
// the node state can show.
func (s *Server) height() uint32 {
	if s.light == nil {
		h, _, _ := s.chain.Tip()
		return h
	}
	h, _, _ := s.light.Head()
	return uint32(min(h, math.MaxUint32))
}
