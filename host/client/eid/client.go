// Package eid provides a client of EID nodes' JSON-RPC endpoints that asks as the Elastos DID SDKs do.
//
// It calls the JSON-RPC endpoints of EID, the Elastos identity chain, as the
// Elastos DID SDKs do, within a request budget per endpoint, with retries,
// timeouts and the SDKs' choice among several endpoints.
//
// A Client asks one Network: its own EID node, or the public mainnet or
// testnet endpoints. It returns the DID answers raw, as core/resolve reads
// them to verify them, and reads from the chain what a verifier needs (the
// head's block time, a transaction's block and sender). Every read is safe
// to repeat, so a call that gets no answer is retried, on the next
// endpoint first. Recognize tells an EID node from a didlight node by what
// it answers.
//
// Errors are *CallError, which holds, per endpoint, the
// *client.UnreachableError or *client.RPCError of package client.
package eid

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"time"

	"golang.org/x/time/rate"

	"github.com/didlight/didlight/core/excerpt"
	"github.com/didlight/didlight/core/jsonrpc"
	"github.com/didlight/didlight/host/client"
	"github.com/didlight/didlight/host/internal/backoff"
)

// Defaults of Config.
const (
	DefaultRequestTimeout = 10 * time.Second
	// DefaultCallTimeout is how long the SDKs wait for an answer (30 s,
	// Elastos.DID.JS.SDK src/defaultdidadapter.ts, performRequest).
	DefaultCallTimeout  = 30 * time.Second
	DefaultProbeTimeout = 5 * time.Second
	DefaultRetries      = 2
	DefaultBackoff      = 250 * time.Millisecond // the wait before the second round of a call
	DefaultMaxBackoff   = 5 * time.Second
	DefaultBudget       = 10 // requests per second, per endpoint
	DefaultMaxAnswer    = 16 << 20
	DefaultReprobe      = time.Minute
)

// Config configures New. Its zero values mean the defaults.
type Config struct {
	Network Network
	// HTTP sends the requests; nil means a new http.Client. Timeouts come
	// from the fields below, so it needs none of its own.
	HTTP *http.Client
	// RequestTimeout bounds each HTTP request; CallTimeout bounds a whole
	// call, its retries and the probe it may start included; ProbeTimeout
	// bounds a probe of the endpoints.
	RequestTimeout, CallTimeout, ProbeTimeout time.Duration
	// Retries is how many more rounds of its endpoints a call makes after
	// a round in which none answered; negative means none.
	Retries int
	// Backoff is the wait before a call's second round, doubled before each
	// further one up to MaxBackoff, with jitter.
	Backoff, MaxBackoff time.Duration
	// Budget is how many requests a second the client sends each endpoint,
	// at most, probes included; Burst how many it may send at once after a
	// quiet spell (0: twice Budget, at least 1). A negative Budget sends
	// without limit.
	Budget float64
	Burst  int
	// MaxAnswer is the longest answer read, in bytes; a longer one is an
	// error ([ErrTooLarge]).
	MaxAnswer int64
	// Reprobe is how long the client keeps the order of its endpoints
	// before it probes them again; negative means only after a failure.
	Reprobe time.Duration
	// Logger hears of changes of the chosen endpoint; nil discards.
	Logger *slog.Logger
}

// Client calls the endpoints of one Network. Its methods are safe for
// concurrent use.
type Client struct {
	t            transport
	callTimeout  time.Duration
	probeTimeout time.Duration
	retries      int
	backoff      time.Duration
	maxBackoff   time.Duration
	reprobe      time.Duration
	log          *slog.Logger
	pool
}

// New returns a Client of cfg.Network. It sends nothing: the endpoints are
// probed on the first call.
func New(cfg Config) (*Client, error) {
	n := cfg.Network
	if len(n.Endpoints) == 0 {
		return nil, errors.New("eid: Config.Network has no endpoint")
	}
	for _, u := range n.Endpoints {
		if _, err := parseEndpoint(u); err != nil {
			return nil, err
		}
	}
	switch {
	case cfg.RequestTimeout < 0 || cfg.CallTimeout < 0 || cfg.ProbeTimeout < 0:
		return nil, fmt.Errorf("eid: negative timeout (request %v, call %v, probe %v)", cfg.RequestTimeout, cfg.CallTimeout, cfg.ProbeTimeout)
	case cfg.Backoff < 0 || cfg.MaxBackoff < 0:
		return nil, fmt.Errorf("eid: negative backoff %v or maximum %v", cfg.Backoff, cfg.MaxBackoff)
	case cfg.Burst < 0 || cfg.MaxAnswer < 0:
		return nil, fmt.Errorf("eid: negative burst %d or answer limit %d", cfg.Burst, cfg.MaxAnswer)
	case math.IsNaN(cfg.Budget):
		return nil, errors.New("eid: Config.Budget is NaN")
	}
	hc := cfg.HTTP
	if hc == nil {
		hc = &http.Client{}
	}
	c := &Client{
		t: transport{
			http:      hc,
			timeout:   or(cfg.RequestTimeout, DefaultRequestTimeout),
			maxAnswer: or(cfg.MaxAnswer, DefaultMaxAnswer),
		},
		callTimeout:  or(cfg.CallTimeout, DefaultCallTimeout),
		probeTimeout: or(cfg.ProbeTimeout, DefaultProbeTimeout),
		retries:      max(or(cfg.Retries, DefaultRetries), 0),
		backoff:      or(cfg.Backoff, DefaultBackoff),
		maxBackoff:   or(cfg.MaxBackoff, DefaultMaxBackoff),
		reprobe:      or(cfg.Reprobe, DefaultReprobe),
		log:          cfg.Logger,
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	c.pool.init(n, limit(cfg.Budget, cfg.Burst))
	return c, nil
}

// limit returns the rate and burst of a request budget.
func limit(budget float64, burst int) func() *rate.Limiter {
	r := rate.Limit(or(budget, DefaultBudget))
	if budget < 0 {
		r = rate.Inf
	}
	if burst == 0 {
		burst = max(1, int(min(2*float64(r), math.MaxInt32)))
	}
	return func() *rate.Limiter { return rate.NewLimiter(r, burst) }
}

func or[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// call calls method with params (nil: an empty list) and returns its
// result, raw, once check (nil: none) accepts it, as [Client.retry] asks.
func (c *Client) call(ctx context.Context, method, subject string, params any, check func(json.RawMessage) error) (json.RawMessage, error) {
	p, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("eid: %s params: %w", method, err)
	}
	var result json.RawMessage
	err = c.retry(ctx, method, subject, 1, func(ctx context.Context, e *endpoint) *attempt {
		raw, a := c.t.call(ctx, e.url, method, p)
		if a == nil && check != nil {
			if err := check(raw); err != nil {
				return &attempt{err: &client.UnreachableError{URL: e.url, Err: fmt.Errorf("%s answered %s: %w", method, excerpt.Bytes(raw), err)}}
			}
		}
		result = raw
		return a
	})
	return result, err
}

// retry sends a request of cost requests (a batch costs one a call) with
// send, asking the endpoints in their order, round after round, until one
// answers, waiting with backoff between rounds. An endpoint whose answer
// is unusable (garbled, too large, another request's, refused by a check,
// or an error that says it does not serve the method) is not asked again
// in the call; one that answers with another error ends it. method and
// subject name the request in errors.
func (c *Client) retry(ctx context.Context, method, subject string, cost int, send func(context.Context, *endpoint) *attempt) error {
	ctx, cancel := context.WithTimeoutCause(ctx, c.callTimeout, &deadlineError{c.callTimeout})
	defer cancel()
	c.probeIfDue(ctx)
	ce := &CallError{Method: method, Subject: subject}
	tries := map[*endpoint]int{}
	done := map[*endpoint]bool{} // asked again in no later round
	for round := 0; round <= c.retries && ctx.Err() == nil; round++ {
		if round > 0 && sleep(ctx, backoff.Delay(c.backoff, c.maxBackoff, round-1)) != nil {
			break
		}
		for _, e := range c.ordered() {
			if done[e] || ctx.Err() != nil {
				continue
			}
			tries[e]++
			a := c.turn(ctx, e, cost)
			if a == nil {
				a = send(ctx, e)
			}
			if a == nil {
				c.answered(e)
				return nil
			}
			if re, ok := a.err.(*client.RPCError); ok && !unserved(re.Code) {
				c.answered(e)
				return &CallError{Method: method, Subject: subject, Failures: []Failure{{e.url, tries[e], a.err}}}
			}
			if ctx.Err() != nil {
				if _, ok := a.err.(*client.UnreachableError); ok {
					ce.note(Failure{e.url, tries[e], a.err}) // it was asked when time ran out
				}
				break
			}
			if !a.local {
				c.failed(e, a)
			}
			ce.note(Failure{e.url, tries[e], a.err})
			if !a.retry {
				done[e] = true
			}
		}
		if len(done) == len(c.eps) {
			break
		}
	}
	if cause := context.Cause(ctx); cause != nil && !errors.Is(ce, cause) {
		ce.Err = cause
	}
	return ce
}

// unserved reports whether a JSON-RPC error code says that the endpoint
// does not serve a well-formed request: it lacks the method (EID without
// its did API), or did not read the request. Another endpoint may serve
// it; other codes answer the request itself.
func unserved(code int) bool {
	return code == jsonrpc.CodeMethodNotFound || code == jsonrpc.CodeInvalidRequest || code == jsonrpc.CodeParseError
}

// deadlineError is the cause of a call's context that the call's own
// timeout ended.
type deadlineError struct{ d time.Duration }

func (e *deadlineError) Error() string { return fmt.Sprintf("no answer within the call's %v", e.d) }
func (e *deadlineError) Unwrap() error { return context.DeadlineExceeded }

// note records f as its endpoint's last failure.
func (e *CallError) note(f Failure) {
	for i := range e.Failures {
		if e.Failures[i].Endpoint == f.Endpoint {
			e.Failures[i] = f
			return
		}
	}
	e.Failures = append(e.Failures, f)
}

// turn waits until e may be sent a request that costs n requests of its
// budget: after what its last 429 or 503 asked for, within its budget. It
// fails at once when that is past ctx's deadline.
func (c *Client) turn(ctx context.Context, e *endpoint, n int) *attempt {
	if ctx.Err() != nil {
		return &attempt{err: context.Cause(ctx)}
	}
	if err := c.wrongChain(e); err != nil {
		return &attempt{err: err, local: true}
	}
	if wait := c.cooling(e); wait > 0 {
		if d, ok := ctx.Deadline(); ok && time.Now().Add(wait).After(d) {
			return &attempt{err: &client.UnreachableError{URL: e.url, Err: fmt.Errorf("it asked to wait %v (Retry-After), past the call's deadline", wait.Round(time.Millisecond))}, local: true}
		}
		if err := sleep(ctx, wait); err != nil {
			return &attempt{err: err}
		}
	}
	if err := spend(ctx, e.limiter, n); err != nil {
		if ctx.Err() != nil {
			return &attempt{err: context.Cause(ctx)}
		}
		return &attempt{err: &client.UnreachableError{URL: e.url, Err: fmt.Errorf("%w: %v a second allow no request before the call's deadline", ErrBudget, e.limiter.Limit())}, local: true}
	}
	return nil
}

// spend waits until l allows n events, taking them in bursts when n is
// more than l's burst (a batch larger than the burst).
func spend(ctx context.Context, l *rate.Limiter, n int) error {
	if d, ok := ctx.Deadline(); ok && l.Limit() != rate.Inf && n > l.Burst() {
		need := time.Duration((float64(n) - l.Tokens()) / float64(l.Limit()) * float64(time.Second))
		if time.Now().Add(need).After(d) {
			return fmt.Errorf("%d requests need %v of the budget", n, need.Round(time.Millisecond))
		}
	}
	for n > 0 {
		k := min(n, max(l.Burst(), 1))
		if err := l.WaitN(ctx, k); err != nil {
			return err
		}
		n -= k
	}
	return nil
}

// sleep waits d, or until ctx ends and returns its cause.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-t.C:
		return nil
	}
}
