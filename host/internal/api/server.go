package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/follow"
)

// Limits and timeouts of both listeners.
const (
	maxHeaderBytes    = 64 << 10
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 30 * time.Second
	writeTimeout      = 60 * time.Second
	idleTimeout       = 120 * time.Second

	// shutdownGrace is how long Serve lets in-flight requests finish once
	// its context ends; then their contexts are cancelled, which stops
	// their work, and their connections closed.
	shutdownGrace = 10 * time.Second
)

// Options configures a Server.
type Options struct {
	// AdminToken, when set, lets a client that is not on the loopback
	// interface restart the REST service by presenting it.
	AdminToken string
	// CORSOrigins are web origins (as [ParseOrigin] reads them) whose pages
	// may call the node's controls (/reset, /idtx, dev_*, restart), like
	// its own pages: a dApp under development. Reads and broadcasts are
	// open to every origin anyway (docs/security.md).
	CORSOrigins []string
	// Version is the build version the node state shows as Compile.
	Version string
	// Logger receives request failures and listener events; nil discards.
	Logger *slog.Logger
	// Web, when set, answers the REST listener's paths outside /api/: the
	// browser app (package github.com/didlight/didlight/web). Without it they answer 42001.
	Web http.Handler
	// Follower, when set, makes this a follower's server: the REST
	// broadcast and /idtx are relayed to its upstream, which the node
	// state lists as a neighbor. Its chain is the follower's.
	Follower *follow.Follower
	// Peers, when set, records the followers polling the REST API (by
	// [follow.Header]) and lists them as neighbors in the node state.
	Peers *follow.Peers
	// ReadyMaxLag is how many blocks a follower or light node may be
	// behind its upstream's head, as last learned, and still answer
	// GET /ready with 200 (the command's default is DefaultReadyMaxLag).
	ReadyMaxLag uint64
	// Metrics, when set, is where the server registers its metrics (the
	// requests of each route and JSON-RPC method, their durations, the
	// node's height and lag), and what GET /metrics on the REST listener
	// serves, to loopback clients and the admin token. Nil measures
	// nothing and serves no /metrics.
	Metrics *prometheus.Registry
	// Compress sends JSON answers of a kilobyte or more compressed, with
	// brotli or gzip, to clients that accept either.
	Compress bool
	// CacheMaxAge is how long a cache may keep a DID resolution (W3C) or
	// block answer without asking again (Cache-Control: max-age); 0 has
	// caches ask each time, which a 304 answers when the answer has not
	// changed (ETag).
	CacheMaxAge time.Duration
	// RateLimit limits the public reads of each client address; its zero
	// value limits nothing.
	RateLimit RateLimit
}

// Server serves a chain's REST API on one listener and its JSON-RPC API and
// DID-SDK endpoints on another; or a light node's, which has no chain.
type Server struct {
	chain   *chain.Chain // nil on a light node
	dids    DIDReader    // answers the DID reads: the chain, or the light resolver
	light   Light        // nil but on a light node or an EID follower
	queries Querier      // answers query: the chain, or an EID follower; nil on a light node
	fork    Fork         // on a fork of an EID chain, makes the DIDs of a write local first; else nil
	opts    Options
	log     *slog.Logger
	policy  policy   // the browser policy; its ports are set by Listen
	metrics *metrics // nil without Options.Metrics

	cacheControl []string    // of the answers with an ETag (cache.go)
	limit        *limiter    // the rate limit of public reads; nil for none
	compress     *compressor // nil without Options.Compress

	rest, rpc *listener
	restart   chan struct{} // a restart request, taken by Serve
}

// listener is one of the two HTTP services. routes and addr are fixed by
// New and Listen; ln, srv and cancel change when the REST service restarts
// and belong to Serve.
type listener struct {
	handler http.Handler
	routes  *[]route // what the handler serves, for tests to walk
	addr    string
	ln      net.Listener
	srv     *http.Server
	cancel  context.CancelFunc // cancels the contexts of srv's requests
}

// New returns a server for c. Call Listen, then Serve.
func New(c *chain.Chain, opts Options) *Server { return newServer(c, c, nil, opts) }

// NewLight returns a light node's server: the DID reads answered by l, the
// node's state, and for the rest of the APIs (the ledger, writes, devnet
// controls) an error saying a light node does not serve them. opts'
// Follower and Peers are for chains and must be nil. Call Listen, then
// Serve.
func NewLight(l Light, opts Options) *Server { return newServer(nil, l, l, opts) }

// NewEIDFollower returns an EID follower's server: the DID reads and query
// answered from f's index, the node's state with how far f has synced,
// and for the rest (the ledger, writes, devnet controls) an error saying
// an EID follower does not serve them, as a light node does. opts'
// Follower and Peers must be nil. Call Listen, then Serve.
func NewEIDFollower(f EIDFollower, opts Options) *Server {
	s := newServer(nil, f, f, opts)
	s.queries = f
	return s
}

func newServer(c *chain.Chain, dids DIDReader, l Light, opts Options) *Server {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{chain: c, dids: dids, light: l, opts: opts, log: log, restart: make(chan struct{}, 1), cacheControl: cacheControl(opts.CacheMaxAge), limit: newLimiter(opts.RateLimit)}
	if c != nil {
		s.queries = c
	}
	for _, o := range opts.CORSOrigins {
		if origin, err := ParseOrigin(o); err == nil {
			s.policy.origins = append(s.policy.origins, origin)
		}
	}
	if opts.Metrics != nil {
		s.metrics = newMetrics(opts.Metrics, s)
	}
	if opts.Compress {
		s.compress = &compressor{}
	}
	s.rest, s.rpc = &listener{}, &listener{}
	s.rest.handler, s.rpc.handler = s.restHandler(), s.rpcHandler()
	return s
}

// Listen binds the REST and JSON-RPC listeners to their addresses (host:port;
// port 0 picks a free one). On failure nothing stays bound.
func (s *Server) Listen(restAddr, rpcAddr string) error {
	rest, err := net.Listen("tcp", restAddr)
	if err != nil {
		return fmt.Errorf("api: REST listener: %w", err)
	}
	rpc, err := net.Listen("tcp", rpcAddr)
	if err != nil {
		rest.Close()
		return fmt.Errorf("api: JSON-RPC listener: %w", err)
	}
	s.rest.ln, s.rest.addr = rest, rest.Addr().String()
	s.rpc.ln, s.rpc.addr = rpc, rpc.Addr().String()
	s.policy.ports = []int{s.rest.port(), s.rpc.port()}
	return nil
}

// RESTURL returns the base URL of the REST API, ending in /api/v1.
func (s *Server) RESTURL() string { return "http://" + s.rest.addr + "/api/v1" }

// RPCURL returns the URL of the JSON-RPC API, ending in /.
func (s *Server) RPCURL() string { return "http://" + s.rpc.addr + "/" }

// Serve answers requests on both listeners until ctx ends, then stops
// accepting connections and lets in-flight requests finish for up to ten
// seconds, after which their work is cancelled. It returns nil after such a
// shutdown, or the error that stopped a listener. A restart request (GET /api/v1/restart) shuts the REST service
// down gracefully and serves it again on the same address.
func (s *Server) Serve(ctx context.Context) error {
	if s.rest.ln == nil || s.rpc.ln == nil {
		return errors.New("api: Serve before Listen")
	}
	errc := make(chan error, 2)
	s.start(s.rest, errc)
	s.start(s.rpc, errc)
	for {
		select {
		case <-ctx.Done():
			return s.shutdown(nil)
		case err := <-errc:
			return s.shutdown(err)
		case <-s.restart:
			if err := s.restartREST(errc); err != nil {
				return s.shutdown(err)
			}
		}
	}
}

// start serves l on its listener, reporting an unexpected stop on errc.
// Its requests' contexts derive from one that stop cancels.
func (s *Server) start(l *listener, errc chan<- error) {
	base, cancel := context.WithCancel(context.Background())
	l.cancel = cancel
	l.srv = &http.Server{
		BaseContext:       func(net.Listener) context.Context { return base },
		ConnContext:       withConn,
		Handler:           l.handler,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	srv, ln := l.srv, l.ln
	go func() {
		if err := srv.Serve(gatherListener{ln}); !errors.Is(err, http.ErrServerClosed) {
			errc <- fmt.Errorf("api: serving %s: %w", ln.Addr(), err)
		}
	}()
}

// restartREST stops the REST service gracefully and serves it again on the
// same address.
func (s *Server) restartREST(errc chan<- error) error {
	addr := s.rest.addr
	s.log.Info("restarting the REST service", "addr", addr)
	ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	s.stop(ctx, s.rest)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("api: restarting the REST listener: %w", err)
	}
	s.rest.ln = ln
	s.start(s.rest, errc)
	return nil
}

// shutdown stops both services, in-flight requests finishing within the
// grace period, and returns cause.
func (s *Server) shutdown(cause error) error {
	ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	done := make(chan struct{})
	go func() {
		s.stop(ctx, s.rest)
		close(done)
	}()
	s.stop(ctx, s.rpc)
	<-done
	return cause
}

// stop shuts l down gracefully until ctx ends; then it cancels the work of
// the requests still in flight and closes their connections.
func (s *Server) stop(ctx context.Context, l *listener) {
	defer l.cancel()
	if err := l.srv.Shutdown(ctx); err != nil {
		s.log.Warn("cancelling requests that did not finish in time", "addr", l.addr, "err", err)
		l.cancel()
		l.srv.Close()
	}
}

// port returns the TCP port l is bound to.
func (l *listener) port() int {
	_, p, _ := net.SplitHostPort(l.addr)
	n, _ := strconv.Atoi(p)
	return n
}
