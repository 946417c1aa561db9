package api

import (
	"crypto/subtle"
	"net"
	"net/http"
	"strings"
)

// serveRestart restarts the REST service (GET /api/v1/restart): it answers
// Success, then Serve stops the service gracefully and serves it again on
// the same address. Only a loopback client or one presenting the admin
// token may ask; others get 42003 "Verify token error".
func (s *Server) serveRestart(w http.ResponseWriter, r *http.Request) {
	if !s.admin(r) {
		writeREST(w, nil, fail(invalidToken, "restart is allowed from the loopback interface, or with the node's admin token (Authorization: Bearer T, or ?token=T)"))
		return
	}
	select {
	case s.restart <- struct{}{}:
	default: // a restart is already pending; it will serve this one too
	}
	writeREST(w, "the REST service restarts", nil)
}

// admin reports whether r may use admin endpoints: it presents the admin
// token, or it comes from the loopback interface and was not relayed by a
// proxy (which would make every client look local).
func (s *Server) admin(r *http.Request) bool {
	if s.opts.AdminToken != "" {
		token := r.URL.Query().Get("token")
		if h := r.Header.Get("Authorization"); strings.HasPrefix(h, "Bearer ") {
			token = strings.TrimPrefix(h, "Bearer ")
		}
		if subtle.ConstantTimeCompare([]byte(token), []byte(s.opts.AdminToken)) == 1 {
			return true
		}
	}
	if r.Header.Get("X-Forwarded-For") != "" || r.Header.Get("Forwarded") != "" {
		return false
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
