package cli

import (
	"flag"
	"fmt"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/didlight/didlight/host/internal/api"
	"github.com/didlight/didlight/host/internal/metrics"
)

// Running the node as a public service: readiness, metrics, caching and
// compression (docs/service.md).

// serviceConfig is what the service flags ask for.
type serviceConfig struct {
	readyMaxLag uint64 // blocks behind its upstream a node may be and be ready
	noMetrics   bool   // measure nothing, serve no /metrics
	noCompress  bool   // send every answer uncompressed
	cacheMaxAge time.Duration
}

// serviceFlags defines the service flags.
func serviceFlags(fs *flag.FlagSet, c *serviceConfig) {
	fs.Uint64Var(&c.readyMaxLag, "ready-max-lag", api.DefaultReadyMaxLag, "blocks a follower or light node may be behind its upstream and still answer GET /ready with 200 (a load balancer's check); 0 asks for none behind")
	fs.BoolVar(&c.noMetrics, "no-metrics", false, "measure nothing and serve no GET /metrics (Prometheus's format, on the REST listener, to loopback clients and the admin token)")
	fs.BoolVar(&c.noCompress, "no-compress", false, "send JSON answers uncompressed even to clients that accept brotli or gzip (a proxy in front compresses)")
	durationFlag(fs, &c.cacheMaxAge, "cache-max-age", 0, "how long a cache (a browser, a proxy) may keep a DID resolution by GET (/1.0/identifiers/) or a block without asking again (Cache-Control: max-age); 0 has it ask each time, answered 304 while the answer is the same (ETag)")
}

// check refuses service settings that cannot work.
func (c *serviceConfig) check() error {
	if c.cacheMaxAge < 0 {
		return fmt.Errorf("--cache-max-age %v is negative", c.cacheMaxAge)
	}
	return nil
}

// apiOptions returns the server options every kind of node shares; parts
// are the collectors of the node's parts, for its metrics.
func (c *nodeConfig) apiOptions(log *slog.Logger, mod nodeModule, parts ...prometheus.Collector) api.Options {
	o := api.Options{AdminToken: c.adminToken, CORSOrigins: c.corsOrigins.origins, Version: version(), Logger: log, Web: webApp(mod),
		ReadyMaxLag: c.service.readyMaxLag, Compress: !c.service.noCompress, CacheMaxAge: c.service.cacheMaxAge}
	if !c.service.noMetrics {
		o.Metrics = metrics.NewRegistry(parts...)
	}
	return o
}
