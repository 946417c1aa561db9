package api

import (
	"fmt"
	"math"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// RateLimit limits the public reads each client may make: a token bucket
// per client address, which refills at PerSecond requests a second and
// holds Burst. A request over it is answered 429 with Retry-After. Writes
// (broadcasts) and controls are not counted: the browser policy and the
// admin token guard them. The probes and CORS preflights are never counted.
type RateLimit struct {
	// PerSecond is the rate each client's bucket refills at; 0 limits
	// nothing.
	PerSecond float64
	// Burst is how many requests a client with a full bucket may make at
	// once; at least 1.
	Burst int
	// Loopback limits clients on the loopback interface too, which are
	// otherwise exempt (the operator's own tools, a proxy on the host).
	Loopback bool
	// TrustedProxies are the addresses of proxies (a load balancer) whose
	// X-Forwarded-For names the client: a request from one of them counts
	// against the last address in that header that is not itself a
	// trusted proxy. Any other client's header is ignored.
	TrustedProxies []netip.Prefix
}

// idleSweep is how often the buckets of clients idle long enough to have
// filled up again are dropped: such a bucket is a new one.
const idleSweep = time.Minute

// limiter is the RateLimit of a server. mu guards clients and swept; each
// rate.Limiter locks itself, after mu is released.
type limiter struct {
	cfg     RateLimit
	refill  time.Duration // how long an empty bucket takes to fill
	mu      sync.Mutex
	clients map[netip.Addr]*bucket
	swept   time.Time
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time // guarded by limiter.mu
}

// newLimiter returns the limiter of cfg, or nil when it limits nothing.
func newLimiter(cfg RateLimit) *limiter {
	if cfg.PerSecond <= 0 {
		return nil
	}
	cfg.Burst = max(cfg.Burst, 1)
	refill := time.Duration(float64(cfg.Burst) / cfg.PerSecond * float64(time.Second))
	return &limiter{cfg: cfg, refill: refill, clients: map[netip.Addr]*bucket{}, swept: time.Now()}
}

// check counts n requests of r's client (a JSON-RPC batch counts its
// calls, as many as the bucket holds at most) and returns nil, or the
// refusal when the client's bucket does not hold them. l may be nil:
// nothing is limited.
func (l *limiter) check(r *http.Request, n int) *refusal {
	if l == nil {
		return nil
	}
	client, ok := l.client(r)
	if !ok {
		return nil
	}
	now := time.Now()
	b := l.bucket(client, now)
	n = min(n, l.cfg.Burst)
	if b.lim.AllowN(now, n) {
		return nil
	}
	wait := (float64(n) - b.lim.TokensAt(now)) / l.cfg.PerSecond
	retry := max(1, int(math.Ceil(wait)))
	return &refusal{status: http.StatusTooManyRequests, retryAfter: retry,
		reason: fmt.Sprintf("too many requests from %s: at most %g a second, %d at once; retry in %d s", client, l.cfg.PerSecond, l.cfg.Burst, retry)}
}

// bucket returns client's bucket, made when it has none, and drops those
// of clients idle long enough to have filled up again.
func (l *limiter) bucket(client netip.Addr, now time.Time) *bucket {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.swept) >= idleSweep {
		for a, b := range l.clients {
			if now.Sub(b.seen) > l.refill {
				delete(l.clients, a)
			}
		}
		l.swept = now
	}
	b, ok := l.clients[client]
	if !ok {
		b = &bucket{lim: rate.NewLimiter(rate.Limit(l.cfg.PerSecond), l.cfg.Burst)}
		l.clients[client] = b
	}
	b.seen = now
	return b
}

// client returns the address r counts against: its peer's, or for a
// trusted proxy the client its X-Forwarded-For names; an IPv6 address's
// /64, which one subscriber usually holds whole. ok is false for a client
// that is exempt (loopback) or whose address does not parse.
func (l *limiter) client(r *http.Request) (netip.Addr, bool) {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return netip.Addr{}, false
	}
	a := ap.Addr().Unmap()
	if l.trusted(a) {
		fwd := r.Header.Values("X-Forwarded-For")
	hops:
		for i := len(fwd) - 1; i >= 0; i-- {
			hs := strings.Split(fwd[i], ",")
			for j := len(hs) - 1; j >= 0; j-- {
				h, err := netip.ParseAddr(strings.TrimSpace(hs[j]))
				if err != nil {
					break hops // not an address a proxy wrote: count the last hop read
				}
				if a = h.Unmap(); !l.trusted(a) {
					break hops
				}
			}
		}
	}
	if a.IsLoopback() && !l.cfg.Loopback {
		return a, false
	}
	if a.Is6() {
		p, _ := a.Prefix(64)
		a = p.Addr()
	}
	return a, true
}

// trusted reports whether a is a trusted proxy's.
func (l *limiter) trusted(a netip.Addr) bool {
	for _, p := range l.cfg.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// setRetryAfter sets the Retry-After of a refusal that has one.
func setRetryAfter(w http.ResponseWriter, no *refusal) {
	if no.retryAfter > 0 {
		w.Header()["Retry-After"] = []string{strconv.Itoa(no.retryAfter)}
	}
}
