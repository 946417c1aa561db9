package follow_test

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/didlight/didlight/host/internal/follow"
)

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func TestPeers(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	p := follow.NewPeers(clock.now)
	poll := func(header, remote string) {
		r := httptest.NewRequest("GET", "/api/v1/block/height", nil)
		r.RemoteAddr = remote
		if header != "" {
			r.Header.Set(follow.Header, header)
		}
		p.Observe(r)
	}
	poll("0x2a http://127.0.0.1:21334/api/v1 10", "10.0.0.9:50000")
	poll("0x2a http://127.0.0.1:21334/api/v1 12", "10.0.0.9:50001") // the same follower, later
	for _, bad := range []string{"", "42 http://h:1/api/v1 1", "0x2b ftp://h:1 1", "0x2c http://h:1/api/v1", "0x2d http://h:1/api/v1 -1", "0xzz http://h:1/api/v1 1"} {
		poll(bad, "10.0.0.8:1")
	}
	clock.advance(40 * time.Second)
	poll("0x1 https://node.example/api/v1 3", "[2001:db8::1]:443")

	got := p.Followers()
	want := []follow.Neighbor{
		{ID: 1, HexID: "0x1", Height: 3, External: true, State: follow.StateEstablished, NetAddress: "[2001:db8::1]:443"},
		{ID: 42, HexID: "0x2a", Height: 12, External: true, State: follow.StateEstablished, NetAddress: "10.0.0.9:21334"},
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("Followers = %+v\nwant %+v", got, want)
	}
	clock.advance(30 * time.Second) // 0x2a last polled 70s ago
	if got := p.Followers(); len(got) != 1 || got[0].ID != 1 {
		t.Errorf("after a minute without polling: %+v, want only 0x1", got)
	}
}

func TestParseUpstream(t *testing.T) {
	for i, tc := range []struct{ in, want, err string }{
		{in: "http://127.0.0.1:20334", want: "http://127.0.0.1:20334/api/v1"},
		{in: "http://127.0.0.1:20334/", want: "http://127.0.0.1:20334/api/v1"},
		{in: " http://node:20334/api/v1/ ", want: "http://node:20334/api/v1"},
		{in: "https://[::1]:8443/api/v1", want: "https://[::1]:8443/api/v1"},
		{in: "127.0.0.1:20334", err: "no scheme"},
		{in: "ws://node:20334", err: `scheme "ws"`},
		{in: "http://", err: "no host"},
		{in: "http://:20334", err: "no host"},
		{in: "http://node:20334/api/v2", err: `path "/api/v2"`},
		{in: "http://node:20334/api/v1/block/height", err: "is not the REST API's base"},
		{in: "http://node:20334/api/v1?x=1", err: "query"},
		{in: "http://user:pw@node:20334", err: "user name"},
		{in: "http://node:port", err: "not a URL"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			got, err := follow.ParseUpstream(tc.in)
			switch {
			case tc.err == "" && (err != nil || got != tc.want):
				t.Errorf("ParseUpstream(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("ParseUpstream(%q) = %q, %v; want an error about %q", tc.in, got, err, tc.err)
			}
		})
	}
}
