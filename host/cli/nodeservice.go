package cli

import (
	"flag"
	"fmt"
	"log/slog"
	"math"
	"net/netip"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/didlight/didlight/host/internal/api"
	"github.com/didlight/didlight/host/internal/metrics"
)

// Running the node as a public service: readiness, metrics, caching,
// compression and rate limits (docs/service.md).

// serviceConfig is what the service flags ask for.
type serviceConfig struct {
	readyMaxLag uint64 // blocks behind its upstream a node may be and be ready
	noMetrics   bool   // measure nothing, serve no /metrics
	noCompress  bool   // send every answer uncompressed
	cacheMaxAge time.Duration
	rateLimit   float64   // public reads a second per client address; 0 for no limit
	rateBurst   int       // of them at once
	rateLoop    bool      // limit loopback clients too
	proxies     proxyList // whose X-Forwarded-For names the client
}

// Defaults of the rate limit: a client may read 50 times a second, 100 at
// once (a page of the browser app and its module are a dozen requests).
// One core answers thousands of resolutions a second (docs/benchmarks.md),
// so that it takes many addresses to crowd the others out.
const (
	defaultRateLimit = 50
	defaultRateBurst = 100
)

// proxyList is --trusted-proxy: addresses or CIDR prefixes, repeatable on
// the command line and comma-separated in its environment variable.
type proxyList struct {
	prefixes []string // as netip.Prefix writes them
	fromEnv  bool
}

func (p *proxyList) String() string { return strings.Join(p.prefixes, ",") }

func (p *proxyList) Set(v string) error { return setList(&p.prefixes, &p.fromEnv, v, parsePrefix) }

// parsePrefix reads an address (a prefix of its own) or a CIDR prefix.
func parsePrefix(s string) (string, error) {
	if a, err := netip.ParseAddr(s); err == nil {
		return netip.PrefixFrom(a, a.BitLen()).String(), nil
	}
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return "", fmt.Errorf("trusted proxy %q: want an address (10.0.0.5) or a prefix (10.0.0.0/24)", s)
	}
	return p.Masked().String(), nil
}

// serviceFlags defines the service flags.
func serviceFlags(fs *flag.FlagSet, c *serviceConfig) {
	fs.Uint64Var(&c.readyMaxLag, "ready-max-lag", api.DefaultReadyMaxLag, "blocks a follower or light node may be behind its upstream and still answer GET /ready with 200 (a load balancer's check); 0 asks for none behind")
	fs.BoolVar(&c.noMetrics, "no-metrics", false, "measure nothing and serve no GET /metrics (Prometheus's format, on the REST listener, to loopback clients and the admin token)")
	fs.BoolVar(&c.noCompress, "no-compress", false, "send JSON answers uncompressed even to clients that accept brotli or gzip (a proxy in front compresses)")
	fs.Float64Var(&c.rateLimit, "rate-limit", defaultRateLimit, "public reads a second each client address may make (its bucket's refill rate), answered 429 with Retry-After beyond; loopback clients are exempt; 0 for no limit")
	fs.IntVar(&c.rateBurst, "rate-burst", defaultRateBurst, "public reads a client address may make at once, with a full bucket")
	fs.BoolVar(&c.rateLoop, "rate-limit-loopback", false, "limit clients on the loopback interface too")
	fs.Var(&c.proxies, "trusted-proxy", "address or CIDR prefix of a proxy (a load balancer) whose X-Forwarded-For names the client the rate limit counts; repeat it for several, or give them comma-separated in the variable")
	durationFlag(fs, &c.cacheMaxAge, "cache-max-age", 0, "how long a cache (a browser, a proxy) may keep a DID resolution by GET (/1.0/identifiers/) or a block without asking again (Cache-Control: max-age); 0 has it ask each time, answered 304 while the answer is the same (ETag)")
}

// check refuses service settings that cannot work.
func (c *serviceConfig) check() error {
	switch {
	case c.cacheMaxAge < 0:
		return fmt.Errorf("--cache-max-age %v is negative", c.cacheMaxAge)
	case c.rateLimit < 0 || math.IsNaN(c.rateLimit) || math.IsInf(c.rateLimit, 0):
		return fmt.Errorf("--rate-limit %v: want requests a second, or 0 for no limit", c.rateLimit)
	case c.rateBurst < 1:
		return fmt.Errorf("--rate-burst %d: want 1 or more", c.rateBurst)
	}
	return nil
}

// apiOptions returns the server options every kind of node shares; parts
// are the collectors of the node's parts, for its metrics.
func (c *nodeConfig) apiOptions(log *slog.Logger, mod nodeModule, parts ...prometheus.Collector) api.Options {
	o := api.Options{AdminToken: c.adminToken, CORSOrigins: c.corsOrigins.origins, Version: version(), Logger: log, Web: webApp(mod),
		ReadyMaxLag: c.service.readyMaxLag, Compress: !c.service.noCompress, CacheMaxAge: c.service.cacheMaxAge,
		RateLimit: api.RateLimit{PerSecond: c.service.rateLimit, Burst: c.service.rateBurst, Loopback: c.service.rateLoop}}
	for _, p := range c.service.proxies.prefixes {
		o.RateLimit.TrustedProxies = append(o.RateLimit.TrustedProxies, netip.MustParsePrefix(p))
	}
	if !c.service.noMetrics {
		o.Metrics = metrics.NewRegistry(parts...)
	}
	return o
}
