package api

import (
	"fmt"
	"net/http"
	"strconv"
)

// DefaultReadyMaxLag is how many blocks a follower or light node may be
// behind its upstream and still be ready, as the node command sets
// Options.ReadyMaxLag unless told otherwise: a
// follower polls its upstream every second and EID makes a block every
// five seconds or more, so a node that keeps up is 0 or 1 behind; five
// blocks (25 seconds of EID) leave room for a slow round, while a node
// catching up after a restart stays out of a load balancer until it has.
const DefaultReadyMaxLag = 5

// The probes' paths, served on both listeners.
const (
	healthPath = "/health"
	readyPath  = "/ready"
)

// noStore is the Cache-Control of the probes' answers, made once (see
// anyOrigin): a cache in front of the node must ask it each time.
var noStore = []string{"no-store"}

// healthBody is /health's answer: the process serves.
var healthBody = []byte(`{"status":"ok"}`)

// Readiness is whether the node's answers are current enough to send it
// traffic (GET /ready): Height is what it answers at, Lag how many blocks
// it is behind its upstream's head as last learned, and Reason, when it
// is not ready, why.
type Readiness struct {
	Ready  bool
	Reason string
	Height uint64
	Lag    uint64
}

// appendJSON appends r as /ready answers it:
// {"ready":true,"height":H,"lag":L}, or with "ready":false the reason
// after it.
func (r Readiness) appendJSON(b []byte) []byte {
	b = append(b, `{"ready":`...)
	b = strconv.AppendBool(b, r.Ready)
	if !r.Ready {
		b = append(b, `,"reason":`...)
		b = strconv.AppendQuote(b, r.Reason)
	}
	b = append(b, `,"height":`...)
	b = strconv.AppendUint(b, r.Height, 10)
	b = append(b, `,"lag":`...)
	b = strconv.AppendUint(b, r.Lag, 10)
	return append(b, '}')
}

// Readiness returns the node's readiness: a devnet is ready while it
// serves; a follower or light node while its upstream answers and it is
// at most Options.ReadyMaxLag blocks behind it.
func (s *Server) Readiness() Readiness {
	var height, upstream uint64
	var err error
	switch {
	case s.light != nil:
		height, upstream, err = s.light.Sync()
	case s.opts.Follower != nil:
		height, upstream, err = s.opts.Follower.Sync()
	default:
		h, _, _ := s.chain.Tip()
		return Readiness{Ready: true, Height: uint64(h)}
	}
	r := Readiness{Height: height, Lag: upstream - min(upstream, height)}
	maxLag := s.opts.ReadyMaxLag
	switch {
	case err != nil:
		r.Reason = err.Error()
	case r.Lag > maxLag:
		r.Reason = fmt.Sprintf("%d blocks behind the upstream's head %d, more than the %d allowed (--ready-max-lag)", r.Lag, upstream, maxLag)
	default:
		r.Ready = true
	}
	return r
}

// probes registers /health and /ready on rt: reads every origin may make,
// which no refusal applies to, outside the rate limit.
func (s *Server) probes(rt *router) {
	rt.handleUnlimited("GET "+healthPath, read, serveHealth)
	rt.handleUnlimited("GET "+readyPath, read, s.serveReady)
}

// serveHealth answers that the process serves.
func serveHealth(w http.ResponseWriter, _ *http.Request) {
	writeProbe(w, http.StatusOK, healthBody)
}

// serveReady answers the node's readiness: 200 when ready, else 503.
func (s *Server) serveReady(w http.ResponseWriter, _ *http.Request) {
	r := s.Readiness()
	status := http.StatusOK
	if !r.Ready {
		status = http.StatusServiceUnavailable
	}
	var buf [256]byte
	writeProbe(w, status, r.appendJSON(buf[:0]))
}

// writeProbe writes a probe's JSON answer, which no cache may keep.
func writeProbe(w http.ResponseWriter, status int, b []byte) {
	w.Header()["Cache-Control"] = noStore
	writeBody(w, status, b)
}
