package api

// Route is a pattern one of the listeners ("rest", "rpc") serves and what
// it may do ("read", "broadcast", "control").
type Route struct{ Listener, Pattern, Access string }

// Routes returns every route the server's routers serve, read from the
// routers themselves, so that tests cover a new route without being edited.
func (s *Server) Routes() []Route {
	var out []Route
	for name, l := range map[string]*listener{"rest": s.rest, "rpc": s.rpc} {
		for _, r := range *l.routes {
			out = append(out, Route{name, r.pattern, r.access.String()})
		}
	}
	return out
}

// Methods returns the JSON-RPC methods with what each may do.
func Methods() map[string]string {
	out := make(map[string]string, len(methods))
	for name, m := range methods {
		out[name] = m.access.String()
	}
	return out
}
