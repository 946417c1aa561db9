package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/didlight/didlight/host/internal/api"
	"github.com/didlight/didlight/host/internal/light"
	"github.com/didlight/didlight/host/internal/metrics"
	"github.com/didlight/didlight/host/internal/node"

	eidclient "github.com/didlight/didlight/host/client/eid"
)

// lightConfig is what --light and its settings ask: a node with no chain
// of its own, answering the DID reads from EID endpoints, verified.
type lightConfig struct {
	endpoints endpointList  // --light: EID JSON-RPC URLs, or mainnet or testnet
	cacheMB   int           // --light-cache
	poll      time.Duration // --light-poll
	budget    float64       // --light-budget
	timeout   time.Duration // --light-timeout
}

// The defaults of a light node's settings.
const (
	defaultLightTimeout = 10 * time.Second
	// lightCheckWait bounds how long the node waits at start for its
	// upstream to answer, before it starts anyway: it answers requests
	// once the upstream does.
	lightCheckWait = 5 * time.Second
)

// endpointList is --light: repeatable, comma-separated in its variable,
// whose list a command-line one replaces (as --cors-origin).
type endpointList struct {
	urls    []string
	fromEnv bool
}

func (l *endpointList) String() string { return strings.Join(l.urls, ",") }

func (l *endpointList) Set(v string) error {
	return setList(&l.urls, &l.fromEnv, v, func(s string) (string, error) {
		if _, err := eidclient.ParseNetwork(s); err != nil {
			return "", err
		}
		return s, nil
	})
}

// lightFlags defines --light and its settings, and --require-upstream.
func lightFlags(fs *flag.FlagSet, c *nodeConfig) {
	fs.Var(&c.light.endpoints, "light", "run a light node: no chain of its own; resolve DIDs and credentials through these EID nodes' JSON-RPC (URLs, repeated or comma-separated, or mainnet or testnet for the public endpoints) and verify every answer before serving it")
	fs.IntVar(&c.light.cacheMB, "light-cache", light.DefaultCacheBytes>>20, "with --light: MB of verified answers kept for the upstream's head, served again without asking it")
	durationFlag(fs, &c.light.poll, "light-poll", light.DefaultPoll, "with --light: how often the upstream's head is asked (eth_blockNumber); kept answers are served while it stays the head")
	fs.Float64Var(&c.light.budget, "light-budget", eidclient.DefaultBudget, "with --light: requests a second each upstream endpoint is sent at most (bursts of twice that); -1 for no limit, against an EID node of your own")
	durationFlag(fs, &c.light.timeout, "light-timeout", defaultLightTimeout, "with --light: how long a request to the upstream may take, its retries included, before the node answers that the upstream failed")
	fs.BoolVar(&c.requireUpstream, "require-upstream", false, "refuse to start without --follow or --light: a resolver driver must serve a real chain, never a devnet of its own (the Docker image sets it)")
}

// lightOnly are the flags a light node cannot honour: it has no chain to
// make, follow, fork, import, seed or validate with the module.
var lightOnly = []string{"follow", "fork", "fork-height", "import", "demo", "block-time", "no-mining", "arbiters", "genesis-time", "engine"}

// checkLight refuses a light node's settings that cannot work.
func (c *nodeConfig) checkLight(set map[string]bool) error {
	l := &c.light
	if len(l.endpoints.urls) == 0 {
		for _, name := range []string{"light-cache", "light-poll", "light-budget", "light-timeout"} {
			if set[name] {
				return fmt.Errorf("--%s needs --light", name)
			}
		}
		if c.requireUpstream && c.follow == "" {
			return errors.New("--require-upstream: give --follow URL (a didlight node to follow) or --light mainnet (EID endpoints to resolve through); without them this would be a devnet of its own")
		}
		return nil
	}
	if _, err := eidclient.ParseNetwork(l.endpoints.urls...); err != nil {
		return fmt.Errorf("--light: %w", err)
	}
	for _, name := range lightOnly {
		if set[name] {
			return fmt.Errorf("--light and --%s exclude each other: a light node has no chain of its own", name)
		}
	}
	switch {
	case l.cacheMB < 1:
		return fmt.Errorf("--light-cache %d: want 1 MB or more", l.cacheMB)
	case l.poll < 100*time.Millisecond:
		return fmt.Errorf("--light-poll %v: want 100ms or more", l.poll)
	case l.budget == 0 || l.budget < -1:
		return fmt.Errorf("--light-budget %v: want requests a second above 0, or -1 for no limit", l.budget)
	case l.timeout < time.Second:
		return fmt.Errorf("--light-timeout %v: want 1s or more", l.timeout)
	}
	return nil
}

// serveLight runs a light node until ctx ends: it checks that its URLs
// are EID nodes, prints where it serves, and serves.
func serveLight(ctx context.Context, cfg nodeConfig, stdout io.Writer, log *slog.Logger) (err error) {
	network, err := eidclient.ParseNetwork(cfg.light.endpoints.urls...)
	if err != nil {
		return err
	}
	if err := checkEIDUpstreams(ctx, network, log); err != nil {
		return err
	}
	budget := cfg.light.budget
	client, err := eidclient.New(eidclient.Config{Network: network, Budget: budget, CallTimeout: cfg.light.timeout,
		RequestTimeout: min(eidclient.DefaultRequestTimeout, cfg.light.timeout), Logger: log})
	if err != nil {
		return err
	}
	r := light.New(light.Config{Client: client, CacheBytes: int64(cfg.light.cacheMB) << 20, Poll: cfg.light.poll, Logger: log})
	mod, err := loadModule(cfg)
	if err != nil {
		return err
	}
	running, err := node.StartLight(r, node.Config{
		API:      cfg.apiOptions(log, mod, metrics.Light(r)),
		RESTAddr: cfg.restAddr, RPCAddr: cfg.rpcAddr,
	})
	if err != nil {
		return err
	}
	defer closeWith(&err, running.Stop)
	log.Info("listening", "rest", running.RESTURL(), "rpc", running.RPCURL())
	waitForHead(ctx, r, log)
	printLightBanner(stdout, cfg, network, r, running.Server, mod)
	select {
	case <-ctx.Done():
	case <-running.Done():
	}
	log.Info("stopping: HTTP first, then the head's polling")
	return nil
}

// checkEIDUpstreams checks that the URLs given are EID nodes (the keywords'
// public endpoints are): a didlight node is refused, as a follower serves
// it better; one that does not answer yet is logged, and the node starts
// anyway.
func checkEIDUpstreams(ctx context.Context, network eidclient.Network, log *slog.Logger) error {
	if network.Name != "" {
		return nil
	}
	for _, url := range network.Endpoints {
		rctx, cancel := context.WithTimeout(ctx, lightCheckWait)
		up, err := eidclient.Recognize(rctx, url, nil)
		cancel()
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn("an upstream endpoint does not answer yet; the node asks it when requests come", "upstream", url, "err", err)
		case err == nil && up.Kind == eidclient.Didlight:
			return fmt.Errorf("--light %s: a didlight node, not an EID node: follow it with --follow %s instead (a follower verifies every block and serves all of its APIs, query included)", url, url)
		}
	}
	return nil
}

// waitForHead learns the upstream's head before the banner, within
// lightCheckWait; a node whose upstream does not answer yet starts anyway.
func waitForHead(ctx context.Context, r *light.Resolver, log *slog.Logger) {
	deadline := time.Now().Add(lightCheckWait)
	for ctx.Err() == nil && time.Now().Before(deadline) {
		if _, _, ok := r.Head(); ok {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, _, ok := r.Head(); !ok && ctx.Err() == nil {
		log.Warn("the upstream has not said its head yet; requests are answered once it does")
	}
}

// printLightBanner tells the user where the light node serves and from
// what. Tools read the REST and JSON-RPC lines.
func printLightBanner(w io.Writer, cfg nodeConfig, network eidclient.Network, r *light.Resolver, srv *api.Server, mod nodeModule) {
	upstream := strings.Join(network.Endpoints, ", ")
	if network.Name != "" {
		upstream = network.Name + " (" + upstream + ")"
	}
	head := "not known yet"
	if h, at, ok := r.Head(); ok {
		id, _ := r.ChainID()
		head = fmt.Sprintf("block %d at %s (chain id %d)", h, at.Format(time.RFC3339), id)
	}
	budget := fmt.Sprintf("within %g requests a second an endpoint", cfg.light.budget)
	if cfg.light.budget < 0 {
		budget = "without a request budget"
	}
	root := strings.TrimSuffix(srv.RESTURL(), "api/v1")
	fmt.Fprintf(w, `didlight node %s
  REST API     %s
  JSON-RPC     %s
  W3C          %s1.0/identifiers/{did}
  web app      %s
  mode         light: no chain of its own; every answer from the upstream is verified before it is served
  upstream     %s
  head         %s, asked every %v, %s
  kept         verified answers for the upstream's head, up to %d MB
ready; Ctrl-C stops the node
`, version(), srv.RESTURL(), srv.RPCURL(), root, webLine(srv, mod), upstream, head, cfg.light.poll, budget, cfg.light.cacheMB)
}
