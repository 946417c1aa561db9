package cli

import (
	"flag"
	"log/slog"

	"github.com/didlight/didlight/host/internal/api"
)

// Running the node as a public service: readiness (docs/service.md).

// serviceConfig is what the service flags ask for.
type serviceConfig struct {
	readyMaxLag uint64 // blocks behind its upstream a node may be and be ready
}

// serviceFlags defines the service flags.
func serviceFlags(fs *flag.FlagSet, c *serviceConfig) {
	fs.Uint64Var(&c.readyMaxLag, "ready-max-lag", api.DefaultReadyMaxLag, "blocks a follower or light node may be behind its upstream and still answer GET /ready with 200 (a load balancer's check); 0 asks for none behind")
}

// apiOptions returns the server options every kind of node shares.
func (c *nodeConfig) apiOptions(log *slog.Logger, mod nodeModule) api.Options {
	return api.Options{AdminToken: c.adminToken, CORSOrigins: c.corsOrigins.origins, Version: version(), Logger: log, Web: webApp(mod),
		ReadyMaxLag: c.service.readyMaxLag}
}
