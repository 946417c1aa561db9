package api_test

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/didlight/didlight/host/internal/api"
)

// serviceOptions are a public node's options: metrics, compression,
// caching and a rate limit (which the tests' loopback clients are exempt
// from), so that a test walking every route walks /metrics and every
// wrapper of a route too.
func serviceOptions() api.Options {
	return api.Options{AdminToken: adminToken, Version: "test", Metrics: prometheus.NewRegistry(), Compress: true,
		CacheMaxAge: time.Second, RateLimit: api.RateLimit{PerSecond: 50, Burst: 100}}
}
