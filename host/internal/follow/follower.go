package follow

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/client"
	"github.com/didlight/didlight/host/internal/backoff"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/store"
)

// Defaults of Config.
const (
	DefaultPoll       = time.Second      // between height polls once in sync
	DefaultMaxBackoff = 30 * time.Second // the longest wait after upstream errors
)

// Config configures New.
type Config struct {
	Upstream   string        // the upstream's REST API, with or without /api/v1 (ParseUpstream)
	Chain      *chain.Chain  // a follower's chain (chain.Config.Follower)
	Self       func() string // this node's REST base URL for the Header; "" (not listening yet) sends none
	Poll       time.Duration // 0 means DefaultPoll
	MaxBackoff time.Duration // 0 means DefaultMaxBackoff
	HTTP       *http.Client  // nil means one with a 30-second timeout
	Logger     *slog.Logger  // nil discards
}

// Follower keeps a follower's chain in step with its upstream. Its methods
// are safe for concurrent use; Run runs once.
type Follower struct {
	chain      *chain.Chain
	base       string
	self       func() string
	poll       time.Duration
	maxBackoff time.Duration
	http       *http.Client
	up         *client.Client
	log        *slog.Logger
	poke       chan struct{} // asks Run to poll now

	mu        sync.Mutex // guards the fields below
	connected bool       // the upstream's state and genesis were read since the last error
	id        uint64     // the upstream's node id
	height    uint32     // the upstream's height, last read
	rpc       string     // the upstream's JSON-RPC URL
	failing   bool       // the last round failed
	state     string     // the kind of the last round's outcome, logged when it changes
}

// New returns a Follower of cfg.Upstream for cfg.Chain. It fails when the
// upstream's address is malformed (see [ParseUpstream]) or the chain is not
// a follower's.
func New(cfg Config) (*Follower, error) {
	base, err := ParseUpstream(cfg.Upstream)
	if err != nil {
		return nil, err
	}
	switch {
	case cfg.Chain == nil:
		return nil, errors.New("follow: Config.Chain is nil")
	case cfg.Chain.Devnet():
		return nil, errors.New("follow: the chain makes its own blocks: open it with chain.Config.Follower")
	case cfg.Self == nil:
		return nil, errors.New("follow: Config.Self is nil")
	case cfg.Poll < 0 || cfg.MaxBackoff < 0:
		return nil, fmt.Errorf("follow: negative poll %s or backoff %s", cfg.Poll, cfg.MaxBackoff)
	}
	f := &Follower{
		chain:      cfg.Chain,
		base:       base,
		self:       cfg.Self,
		poll:       cmpOr(cfg.Poll, DefaultPoll),
		maxBackoff: cmpOr(cfg.MaxBackoff, DefaultMaxBackoff),
		log:        cfg.Logger,
		poke:       make(chan struct{}, 1),
		state:      kindStarting,
	}
	if f.log == nil {
		f.log = slog.New(slog.DiscardHandler)
	}
	hc := http.Client{Timeout: 30 * time.Second}
	if cfg.HTTP != nil {
		hc = *cfg.HTTP
	}
	hc.Transport = announcer{f: f, next: hc.Transport}
	// A redirect would send a relayed write, body and all, wherever the
	// upstream (or anyone on a plain-HTTP path) says: the upstream is the
	// URL given, or nothing.
	hc.CheckRedirect = func(req *http.Request, _ []*http.Request) error {
		return fmt.Errorf("the upstream redirected to %s; a follower only talks to the URL it was given", req.URL.Redacted())
	}
	f.http = &hc
	f.up = client.New(base, "", f.http)
	return f, nil
}

func cmpOr(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}

// Upstream returns the upstream's REST base URL, ending in /api/v1.
func (f *Follower) Upstream() string { return f.base }

// announcer sets the Header on every request to the upstream.
type announcer struct {
	f    *Follower
	next http.RoundTripper
}

func (a announcer) RoundTrip(r *http.Request) (*http.Response, error) {
	next := a.next
	if next == nil {
		next = http.DefaultTransport
	}
	if self := a.f.self(); self != "" {
		r = r.Clone(r.Context())
		height, _, _ := a.f.chain.Tip()
		r.Header.Set(Header, announcement(a.f.chain.Stats().NodeID, self, height))
	}
	return next.RoundTrip(r)
}

// GenesisError is the error of an upstream whose chain is another: its
// genesis block differs from the follower's (another --dev-seed).
type GenesisError struct {
	Upstream string   // the upstream's REST base URL
	Theirs   ela.Hash // the upstream's genesis block
	Ours     ela.Hash // the follower's
}

func (e *GenesisError) Error() string {
	return fmt.Sprintf("follow: %s is another chain: its genesis block is %s, ours is %s (start the follower with the upstream's --dev-seed and --genesis-time)", e.Upstream, e.Theirs, e.Ours)
}

// Run follows the upstream until ctx ends, and returns nil then. It polls
// the upstream's height every Poll once in sync; on an upstream error it
// waits a random time up to an interval that doubles from Poll to
// MaxBackoff, and tries again, logging each change between working and
// failing once. It returns early only with a *GenesisError, or when the
// chain closes.
func (f *Follower) Run(ctx context.Context) error {
	var failures int
	for {
		err := f.round(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if ge, ok := errors.AsType[*GenesisError](err); ok {
			f.log.Error("following stopped", "err", ge)
			return ge
		}
		if errors.Is(err, store.ErrClosed) {
			return err
		}
		f.report(err)
		wait := f.poll
		if err != nil {
			wait = backoff.Delay(f.poll, f.maxBackoff, failures)
			failures++
		} else {
			failures = 0
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-f.poke:
			t.Stop()
		case <-t.C:
		}
	}
}

// pollNow asks Run to poll the upstream without waiting.
func (f *Follower) pollNow() {
	select {
	case f.poke <- struct{}{}:
	default:
	}
}

// Check reads the upstream's state and checks that it holds our chain: a
// *GenesisError when it holds another, another error when it does not
// answer as a node. Run checks too; Check lets a caller refuse to start.
func (f *Follower) Check(ctx context.Context) error { return f.connect(ctx) }

// round brings the chain up to the upstream's height.
func (f *Follower) round(ctx context.Context) error {
	if err := f.connect(ctx); err != nil {
		return err
	}
	height, err := f.up.Height(ctx)
	if err != nil {
		return &syncError{kind: kindUpstream, err: err}
	}
	f.mu.Lock()
	f.height = height
	f.mu.Unlock()
	for {
		local, _, _ := f.chain.Tip()
		if local >= height {
			if local > height {
				return &syncError{kind: kindDiverged, err: fmt.Errorf("follow: the upstream is at height %d, behind our %d: was it reset, or is it another node?", height, local)}
			}
			return nil
		}
		if err := f.fetch(ctx, local+1); err != nil {
			return err
		}
	}
}

// connect reads the upstream's node state and checks its genesis block,
// once after each failure.
func (f *Follower) connect(ctx context.Context) error {
	f.mu.Lock()
	done := f.connected
	f.mu.Unlock()
	if done {
		return nil
	}
	st, err := f.up.State(ctx)
	if err != nil {
		return &syncError{kind: kindUpstream, err: err}
	}
	theirs, err := f.up.BlockHash(ctx, 0)
	if err != nil {
		return &syncError{kind: kindUpstream, err: err}
	}
	ours, err := f.chain.BlockHash(0)
	if err != nil {
		return err
	}
	if theirs != ours {
		return &GenesisError{Upstream: f.base, Theirs: theirs, Ours: ours}
	}
	rpc, err := rpcURL(f.base, st.RPCPort)
	if err != nil {
		f.log.Warn("the upstream's DID-SDK endpoint is unknown: /idtx cannot be relayed", "err", err)
	}
	f.mu.Lock()
	f.connected, f.id, f.rpc = true, st.ID, rpc
	f.mu.Unlock()
	return nil
}

// answerError classifies the error of a read: no answer or an error
// answer is the upstream's trouble, an answer that does not decode an
// invalid one.
func answerError(err error) error {
	_, unreachable := errors.AsType[*client.UnreachableError](err)
	_, refused := errors.AsType[*client.RESTError](err)
	_, rpcRefused := errors.AsType[*client.RPCError](err)
	if unreachable || refused || rpcRefused {
		return &syncError{kind: kindUpstream, err: err}
	}
	return &syncError{kind: kindInvalid, err: err}
}

// fetch reads the upstream's block at height and its confirm, rebuilds
// them, and applies them to the chain.
func (f *Follower) fetch(ctx context.Context, height uint32) error {
	bj, err := f.up.Block(ctx, height)
	if err != nil {
		return answerError(err)
	}
	cj, err := f.up.Confirm(ctx, height)
	if err != nil {
		return answerError(err)
	}
	if bj.Height != height {
		return &syncError{kind: kindInvalid, err: fmt.Errorf("follow: asked for block %d, the upstream sent block %d", height, bj.Height)}
	}
	b, err := bj.Block()
	if err != nil {
		return &syncError{kind: kindInvalid, err: fmt.Errorf("follow: upstream block %d: %w", height, err)}
	}
	cf, err := cj.Confirm()
	if err != nil {
		return &syncError{kind: kindInvalid, err: fmt.Errorf("follow: confirm of upstream block %d: %w", height, err)}
	}
	err = f.chain.Apply(ctx, b, cf)
	if be, ok := errors.AsType[*chain.BlockError](err); ok {
		kind := kindInvalid
		if le, ok := errors.AsType[*ledger.BlockError](err); ok && le.Rule == ledger.BlockLink {
			kind = kindDiverged
		}
		return &syncError{kind: kind, err: be}
	}
	return err
}
