package cli

import (
	"flag"
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/didlight/didlight/host/internal/api"
	"github.com/didlight/didlight/host/internal/metrics"
)

// Running the node as a public service: readiness and metrics
// (docs/service.md).

// serviceConfig is what the service flags ask for.
type serviceConfig struct {
	readyMaxLag uint64 // blocks behind its upstream a node may be and be ready
	noMetrics   bool   // measure nothing, serve no /metrics
}

// serviceFlags defines the service flags.
func serviceFlags(fs *flag.FlagSet, c *serviceConfig) {
	fs.Uint64Var(&c.readyMaxLag, "ready-max-lag", api.DefaultReadyMaxLag, "blocks a follower or light node may be behind its upstream and still answer GET /ready with 200 (a load balancer's check); 0 asks for none behind")
	fs.BoolVar(&c.noMetrics, "no-metrics", false, "measure nothing and serve no GET /metrics (Prometheus's format, on the REST listener, to loopback clients and the admin token)")
}

// apiOptions returns the server options every kind of node shares; parts
// are the collectors of the node's parts, for its metrics.
func (c *nodeConfig) apiOptions(log *slog.Logger, mod nodeModule, parts ...prometheus.Collector) api.Options {
	o := api.Options{AdminToken: c.adminToken, CORSOrigins: c.corsOrigins.origins, Version: version(), Logger: log, Web: webApp(mod),
		ReadyMaxLag: c.service.readyMaxLag}
	if !c.service.noMetrics {
		o.Metrics = metrics.NewRegistry(parts...)
	}
	return o
}
