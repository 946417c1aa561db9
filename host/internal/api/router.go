package api

import "net/http"

// route is a pattern one of the listeners serves (as http.ServeMux reads
// it: "GET /api/v1/block/hash/{height}") and what it may do.
type route struct {
	pattern string
	access  access
}

// router is an http.ServeMux that remembers the routes registered on it,
// so that tests walk every one, and guards each with the browser policy
// for its access: the one place a route says what it may do.
type router struct {
	mux      *http.ServeMux
	policy   *policy
	refuse   func(http.ResponseWriter, *refusal) // writes a refusal in the listener's error shape
	routes   []route
	listener string   // "rest" or "rpc", as the metrics name it
	metrics  *metrics // nil measures nothing
	compress bool     // compress JSON answers for clients that accept it
}

func newRouter(listener string, s *Server, refuse func(http.ResponseWriter, *refusal)) *router {
	return &router{mux: http.NewServeMux(), policy: &s.policy, refuse: refuse, listener: listener, metrics: s.metrics, compress: s.opts.Compress}
}

// handle serves pattern with h, for requests the policy lets do what a
// says. Register a route that changes the chain or controls the node as
// control; read is for routes that only read.
func (rt *router) handle(pattern string, a access, h http.HandlerFunc) {
	rt.routes = append(rt.routes, route{pattern, a})
	guarded := func(w http.ResponseWriter, r *http.Request) {
		if no := rt.policy.check(r, a); no != nil {
			rt.refuse(w, no)
			return
		}
		h(w, r)
	}
	if rt.compress {
		guarded = compressing(guarded)
	}
	rt.mux.HandleFunc(pattern, rt.metrics.instrument(rt.listener, pattern, guarded))
}

func (rt *router) ServeHTTP(w http.ResponseWriter, r *http.Request) { rt.mux.ServeHTTP(w, r) }
