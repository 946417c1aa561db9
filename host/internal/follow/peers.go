package follow

import (
	"cmp"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Header is the request header a follower names itself with in every
// request to its upstream: "<node id> <REST base URL> <height>", the id in
// hexadecimal with 0x (see the package documentation).
const Header = "X-Didlight-Follower"

// Window is how long a follower stays a neighbor after its last request.
const Window = time.Minute

// maxFollowers bounds how many followers Peers remembers; when full, the
// one heard from longest ago makes room.
const maxFollowers = 1024

// Neighbor is a peer as the node state lists it (interfaces spec, Neighbor
// object).
type Neighbor struct {
	ID         uint64 `json:"ID"`
	HexID      string `json:"HexID"`
	Height     uint32 `json:"Height"`
	Services   uint64 `json:"Services"`
	Relay      bool   `json:"Relay"`    // true for an upstream, which relays the follower's writes
	External   bool   `json:"External"` // true: every peer is another process
	State      string `json:"State"`    // StateEstablished or StateInactive
	NetAddress string `json:"NetAddress"`
}

// The states a Neighbor shows, as the Elastos nodes name a peer's.
const (
	StateEstablished = "ESTABLISH"  // heard from within Window; for an upstream, its last answer was good
	StateInactive    = "INACTIVITY" // an upstream whose last request failed
)

// Peers remembers the followers that polled this node, from the Header of
// their requests. Its methods are safe for concurrent use.
type Peers struct {
	now func() time.Time

	mu   sync.Mutex
	seen map[uint64]seen
}

type seen struct {
	at time.Time
	n  Neighbor
}

// NewPeers returns an empty Peers reading time from now (nil: time.Now).
func NewPeers(now func() time.Time) *Peers {
	if now == nil {
		now = time.Now
	}
	return &Peers{now: now, seen: make(map[uint64]seen)}
}

// Observe records the follower that sent r, if r carries a well-formed
// Header; other requests are ignored. The neighbor's NetAddress is the
// address r came from with the port the follower announced.
func (p *Peers) Observe(r *http.Request) {
	v := r.Header.Get(Header)
	if v == "" {
		return
	}
	n, err := parseAnnouncement(v, r.RemoteAddr)
	if err != nil {
		return // a malformed header names no one; the request itself is served
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	p.pruneLocked(now)
	if _, ok := p.seen[n.ID]; !ok && len(p.seen) >= maxFollowers {
		p.dropOldestLocked()
	}
	p.seen[n.ID] = seen{at: now, n: n}
}

// Followers returns the followers heard from within Window, by id.
func (p *Peers) Followers() []Neighbor {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pruneLocked(p.now())
	out := make([]Neighbor, 0, len(p.seen))
	for _, s := range p.seen {
		out = append(out, s.n)
	}
	slices.SortFunc(out, func(a, b Neighbor) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

func (p *Peers) dropOldestLocked() {
	var oldest uint64
	var at time.Time
	for id, s := range p.seen {
		if at.IsZero() || s.at.Before(at) {
			oldest, at = id, s.at
		}
	}
	delete(p.seen, oldest)
}

func (p *Peers) pruneLocked(now time.Time) {
	for id, s := range p.seen {
		if now.Sub(s.at) > Window {
			delete(p.seen, id)
		}
	}
}

// announcement returns the Header value of a follower.
func announcement(id uint64, self string, height uint32) string {
	return fmt.Sprintf("%#x %s %d", id, self, height)
}

// parseAnnouncement reads a Header value sent from remote (host:port).
func parseAnnouncement(v, remote string) (Neighbor, error) {
	f := strings.Fields(v)
	if len(f) != 3 {
		return Neighbor{}, fmt.Errorf("follow: %s %q: want <node id> <REST URL> <height>", Header, v)
	}
	id, err := strconv.ParseUint(strings.TrimPrefix(f[0], "0x"), 16, 64)
	if err != nil || !strings.HasPrefix(f[0], "0x") {
		return Neighbor{}, fmt.Errorf("follow: %s node id %q: want 0x and hexadecimal", Header, f[0])
	}
	u, err := url.Parse(f[1])
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Neighbor{}, fmt.Errorf("follow: %s REST URL %q: want http(s)://host:port/api/v1", Header, f[1])
	}
	height, err := strconv.ParseUint(f[2], 10, 32)
	if err != nil {
		return Neighbor{}, fmt.Errorf("follow: %s height %q: %v", Header, f[2], err)
	}
	_, port, _ := net.SplitHostPort(hostPort(f[1]))
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	return Neighbor{
		ID:         id,
		HexID:      fmt.Sprintf("%#x", id),
		Height:     uint32(height),
		External:   true,
		State:      StateEstablished,
		NetAddress: net.JoinHostPort(host, port),
	}, nil
}
