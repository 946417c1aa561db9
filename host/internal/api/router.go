package api

import "net/http"

// route is a pattern one of the listeners serves (as http.ServeMux reads
// it: "GET /api/v1/block/hash/{height}") and what it may do.
type route struct {
	pattern string
	access  access
	limited bool // counted by the rate limit (ratelimit.go)
}

// router is an http.ServeMux that remembers the routes registered on it,
// so that tests walk every one, and guards each with the browser policy
// for its access: the one place a route says what it may do.
type router struct {
	mux      *http.ServeMux
	policy   *policy
	refuse   func(http.ResponseWriter, *refusal) // writes a refusal in the listener's error shape
	routes   []route
	listener string      // "rest" or "rpc", as the metrics name it
	metrics  *metrics    // nil measures nothing
	compress *compressor // compresses JSON answers for clients that accept it; nil for none
	limit    *limiter    // the rate limit of public reads; nil limits nothing
}

func newRouter(listener string, s *Server, refuse func(http.ResponseWriter, *refusal)) *router {
	return &router{mux: http.NewServeMux(), policy: &s.policy, refuse: refuse, listener: listener, metrics: s.metrics, compress: s.compress, limit: s.limit}
}

// handle serves pattern with h, for requests the policy lets do what a
// says. Register a route that changes the chain or controls the node as
// control; read is for routes that only read, which the rate limit
// counts.
func (rt *router) handle(pattern string, a access, h http.HandlerFunc) {
	rt.add(route{pattern, a, a == read}, h)
}

// handleUnlimited is handle for a route the rate limit never counts: the
// probes and preflights, which must stay cheap and answered, and the
// JSON-RPC endpoints, which count each body by its calls (serveRPC).
func (rt *router) handleUnlimited(pattern string, a access, h http.HandlerFunc) {
	rt.add(route{pattern, a, false}, h)
}

func (rt *router) add(rte route, h http.HandlerFunc) {
	rt.routes = append(rt.routes, rte)
	guarded := func(w http.ResponseWriter, r *http.Request) {
		no := rt.policy.check(r, rte.access)
		if no == nil && rte.limited {
			no = rt.limit.check(r, 1)
		}
		if no != nil {
			setRetryAfter(w, no)
			rt.refuse(w, no)
			return
		}
		h(w, r)
	}
	rt.mux.HandleFunc(rte.pattern, rt.metrics.instrument(rt.listener, rte.pattern, rt.compress.wrap(guarded)))
}

func (rt *router) ServeHTTP(w http.ResponseWriter, r *http.Request) { rt.mux.ServeHTTP(w, r) }
