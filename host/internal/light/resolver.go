// Package light resolves DIDs from an EID upstream, verifying every answer.
//
// It answers the DID reads of a node with no chain of its own from an EID
// upstream, verifying every answer with core/eid before it is returned or
// kept.
//
// A Resolver asks the upstream as the DID SDKs do (host/client/eid), runs
// core/eid's verification to its end (other DIDs' documents and the
// provenance of transactions it asks for are fetched and verified too), and
// keeps what it verified for the upstream's head: a kept answer is served
// again, unasked, while the head it was verified at is still the head.
// Run learns the head in the background with eth_blockNumber, within the
// client's request budget. An answer that fails verification is returned as
// an error naming what failed, counted and logged, and never kept.
//
// It implements the DID reads the node's APIs serve (api.DIDReader), in
// both dialects: resolvedid as the interface defines it and did_resolveDID
// as the EID node answered it.
package light

import (
	"context"
	"log/slog"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/core/w3c"
	eidclient "github.com/didlight/didlight/host/client/eid"
)

// Defaults of Config.
const (
	// DefaultCacheBytes bounds the answers kept: some thousands of DIDs'
	// histories.
	DefaultCacheBytes = 64 << 20
	// DefaultPoll is how often Run asks the upstream for its head: under
	// EID's 5-second blocks, at a tenth of the client's default budget.
	DefaultPoll = 2 * time.Second
)

// maxHeadAge is how many polls a head stays the head without being
// confirmed: past it, the upstream's head is unknown (it does not answer),
// kept answers are not served, and a request asks for the head itself.
const maxHeadAge = 3

// Config configures New. Its zero values mean the defaults.
type Config struct {
	// Client asks the upstream; required.
	Client *eidclient.Client
	// CacheBytes bounds the memory the answers kept take, roughly.
	CacheBytes int64
	// Poll is how often Run learns the upstream's head.
	Poll time.Duration
	// Verifier checks signatures; nil is [keys.Native].
	Verifier keys.Verifier
	// Logger hears of answers refused and of an upstream that fails; nil
	// discards.
	Logger *slog.Logger
}

// Resolver answers DID reads from an EID upstream, verified. Its methods
// are safe for concurrent use. Lock order: flights.mu and cache.mu are
// never held together, nor with anything else.
type Resolver struct {
	client   *eidclient.Client
	verifier keys.Verifier
	log      *slog.Logger
	poll     time.Duration

	heads   heads    // the upstream's head and chain id, as last learned
	cache   *cache   // verified answers, by request, for the head they were verified at
	flights flights  // requests to the upstream in progress, each shared by its askers
	counts  counters // what was served, verified, refused
}

// New returns a Resolver of cfg.Client's upstream. It sends nothing: the
// head is learned by Run, or by the first request.
func New(cfg Config) *Resolver {
	r := &Resolver{client: cfg.Client, verifier: cfg.Verifier, log: cfg.Logger, poll: cfg.Poll}
	if r.verifier == nil {
		r.verifier = keys.Native{}
	}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	if r.poll <= 0 {
		r.poll = DefaultPoll
	}
	size := cfg.CacheBytes
	if size <= 0 {
		size = DefaultCacheBytes
	}
	r.cache = newCache(size)
	r.flights.m = map[key]*flight{}
	return r
}

// ResolveDID answers resolvedid: the upstream's did_resolveDID answer,
// verified, in the interface's dialect (status 1 for an expired DID; the
// did member the DID asked, in full form).
func (r *Resolver) ResolveDID(ctx context.Context, d did.DID, all bool) ([]byte, error) {
	a, err := r.DID(ctx, d, all)
	if err != nil {
		return nil, err
	}
	return a.Spec, nil
}

// ResolveDIDSDK answers did_resolveDID: the upstream's answer as it gave
// it, once verified.
func (r *Resolver) ResolveDIDSDK(ctx context.Context, d did.DID, all bool) ([]byte, error) {
	a, err := r.DID(ctx, d, all)
	if err != nil {
		return nil, err
	}
	return a.Raw, nil
}

// ResolveCredential answers resolvecredential and did_resolveCredential:
// the upstream's answer as it gave it, once verified (EID's form, which
// shows more revokes than a didlight node's; docs/eid.md).
func (r *Resolver) ResolveCredential(ctx context.Context, id did.URL, issuer *did.DID) ([]byte, error) {
	a, err := r.Credential(ctx, id, issuer)
	if err != nil {
		return nil, err
	}
	return a.Raw, nil
}

// ListCredentials answers listcredentials and did_listCredentials: the
// credential ids the upstream listed, once checked, as a didlight node
// writes them ([resolve.CredentialList]: an empty list as [], where EID
// writes null).
func (r *Resolver) ListCredentials(ctx context.Context, d did.DID, skip, limit int) ([]byte, error) {
	a, err := r.CredentialList(ctx, d, skip, limit)
	if err != nil {
		return nil, err
	}
	return a.Result, nil
}

// ResolveW3C answers W3C DID Resolution from the DID's whole history,
// verified ([w3c.ResolveChecked]), at the head's time. A request core/w3c
// refuses is answered without asking the upstream; one the upstream fails
// (no answer, or one that does not verify) is a 502 INTERNAL_ERROR saying
// what failed, which the Resolver has logged: the error is nil then.
func (r *Resolver) ResolveW3C(ctx context.Context, id, options, accept string) (w3c.Response, error) {
	req := w3c.ParseRequest(id, options, accept)
	d, ok := req.DID()
	if !ok {
		return w3c.Resolve(req, w3c.History{}, w3c.Tip{})
	}
	a, err := r.DID(ctx, d, true)
	if err != nil {
		return req.UpstreamFailure(err.Error()), nil
	}
	resp, err := w3c.ResolveChecked(req, a.Resolved.Verified, a.Head.Time)
	if err != nil {
		return req.InternalError(), err
	}
	return resp, nil
}

// specStatus is the status resolvedid gives a DID EID says is of status s
// (0, 2 or 3): 1 when its latest document has expired.
func specStatus(s resolve.Status, expired bool) resolve.Status {
	if s == resolve.Valid && expired {
		return resolve.Expired
	}
	return s
}
