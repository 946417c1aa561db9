package api

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/didlight/didlight/core/jsonrpc"
)

// metricsPath is where the REST listener serves the metrics, in
// Prometheus's text format, to loopback clients and the admin token.
const metricsPath = "/metrics"

// metrics are the server's own measures: what each route and JSON-RPC
// method was asked, how it went, and how long it took. Each series a
// request touches is looked up once, when its route is registered or the
// server made, so that a request costs a clock reading, a histogram
// observation and a counter increment.
type metrics struct {
	requests *prometheus.CounterVec   // listener, route, code
	latency  *prometheus.HistogramVec // listener, route
	calls    *prometheus.CounterVec   // method, outcome
	callTime *prometheus.HistogramVec // method
	methods  map[string]*methodMetrics
}

// methodMetrics are one JSON-RPC method's series.
type methodMetrics struct {
	ok       prometheus.Counter
	failed   func(code int) prometheus.Counter
	duration prometheus.Observer
}

// latencyBuckets are the request duration buckets, in seconds: answers
// kept for the tip take tens of microseconds, a query page milliseconds, a
// light node's first answer the upstream's round trips.
var latencyBuckets = []float64{.00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

// newMetrics registers the server's metrics with reg: its requests, and
// its readiness (height, lag, ready), read at each scrape.
func newMetrics(reg prometheus.Registerer, s *Server) *metrics {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "didlight_http_requests_total",
			Help: "HTTP requests answered, by listener (rest, rpc), route (the pattern it matched) and status code."},
			[]string{"listener", "route", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "didlight_http_request_duration_seconds",
			Help: "Time from routing an HTTP request to the end of its answer, by listener and route.", Buckets: latencyBuckets},
			[]string{"listener", "route"}),
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "didlight_rpc_calls_total",
			Help: "JSON-RPC calls answered, by method (unknown for a name not served) and outcome (ok, or the JSON-RPC error code)."},
			[]string{"method", "outcome"}),
		callTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "didlight_rpc_call_duration_seconds",
			Help: "Time to answer one JSON-RPC call, by method.", Buckets: latencyBuckets},
			[]string{"method"}),
		methods: map[string]*methodMetrics{},
	}
	for name := range methods {
		m.methods[name] = m.method(name)
	}
	m.methods[""] = m.method("unknown")
	reg.MustRegister(m.requests, m.latency, m.calls, m.callTime, readinessCollector{s})
	return m
}

func (m *metrics) method(name string) *methodMetrics {
	var failed sync.Map // code -> prometheus.Counter
	return &methodMetrics{
		ok:       m.calls.WithLabelValues(name, "ok"),
		duration: m.callTime.WithLabelValues(name),
		failed: func(code int) prometheus.Counter {
			if c, ok := failed.Load(code); ok {
				return c.(prometheus.Counter)
			}
			c, _ := failed.LoadOrStore(code, m.calls.WithLabelValues(name, strconv.Itoa(code)))
			return c.(prometheus.Counter)
		},
	}
}

// call counts a JSON-RPC call to method that took since start and ended
// in err (nil for a result). m may be nil: nothing is measured.
func (m *metrics) call(method string, start time.Time, err *jsonrpc.Error) {
	if m == nil {
		return
	}
	mm, ok := m.methods[method]
	if !ok {
		mm = m.methods[""]
	}
	mm.duration.Observe(time.Since(start).Seconds())
	if err == nil {
		mm.ok.Inc()
	} else {
		mm.failed(err.Code).Inc()
	}
}

// instrument returns h measured as route of listener: its duration and
// its answer's status. m may be nil: h is returned as it is.
func (m *metrics) instrument(listener, route string, h http.HandlerFunc) http.HandlerFunc {
	if m == nil {
		return h
	}
	duration := m.latency.WithLabelValues(listener, route)
	var codes sync.Map // status -> prometheus.Counter
	count := func(status int) prometheus.Counter {
		if c, ok := codes.Load(status); ok {
			return c.(prometheus.Counter)
		}
		c, _ := codes.LoadOrStore(status, m.requests.WithLabelValues(listener, route, strconv.Itoa(status)))
		return c.(prometheus.Counter)
	}
	return func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := statusWriters.Get().(*statusWriter)
		sw.ResponseWriter, sw.status = w, 0
		h(sw, r)
		duration.Observe(time.Since(start).Seconds())
		status := sw.status
		if status == 0 {
			status = http.StatusOK // nothing written: net/http answers 200
		}
		count(status).Inc()
		sw.ResponseWriter = nil
		statusWriters.Put(sw)
	}
}

// statusWriter remembers the status of the answer written through it.
// They are recycled: a request's ends with its handler.
type statusWriter struct {
	http.ResponseWriter
	status int
}

var statusWriters = sync.Pool{New: func() any { return new(statusWriter) }}

func (w *statusWriter) WriteHeader(status int) {
	if w.status == 0 && status >= 200 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// serveMetrics answers GET /metrics with what gather holds, to a loopback
// client or one presenting the admin token (as restart is asked); others
// get 42003.
func (s *Server) serveMetrics(gather prometheus.Gatherer) http.HandlerFunc {
	h := promhttp.HandlerFor(gather, promhttp.HandlerOpts{ErrorLog: slogPrinter{s}})
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.admin(r) {
			writeJSON(w, http.StatusForbidden, envelope{Desc: invalidToken.desc(), Error: invalidToken,
				Result: "the metrics are served to the loopback interface, or with the node's admin token (Authorization: Bearer T)"})
			return
		}
		h.ServeHTTP(w, r)
	}
}

// slogPrinter logs promhttp's errors (a collector that failed) as
// warnings.
type slogPrinter struct{ s *Server }

func (p slogPrinter) Println(v ...any) { p.s.log.Warn("serving the metrics", "err", v) }

// readinessCollector reports the node's readiness at each scrape.
type readinessCollector struct{ s *Server }

var (
	heightDesc = prometheus.NewDesc("didlight_height", "The height the node answers at: its chain's tip, the last EID block indexed, or a light node's upstream head.", nil, nil)
	lagDesc    = prometheus.NewDesc("didlight_upstream_lag_blocks", "Blocks the node is behind its upstream's head as last learned (0 for a devnet).", nil, nil)
	readyDesc  = prometheus.NewDesc("didlight_ready", "1 when GET /ready answers 200, else 0.", nil, nil)
)

func (c readinessCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- heightDesc
	ch <- lagDesc
	ch <- readyDesc
}

func (c readinessCollector) Collect(ch chan<- prometheus.Metric) {
	r := c.s.Readiness()
	ready := 0.0
	if r.Ready {
		ready = 1
	}
	ch <- prometheus.MustNewConstMetric(heightDesc, prometheus.GaugeValue, float64(r.Height))
	ch <- prometheus.MustNewConstMetric(lagDesc, prometheus.GaugeValue, float64(r.Lag))
	ch <- prometheus.MustNewConstMetric(readyDesc, prometheus.GaugeValue, ready)
}
