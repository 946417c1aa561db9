package main

import (
	"io"
	"net"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/host/cli"
)

// A `show stat` answer as HAProxy 2.6 writes it (columns cut to those
// read, and one more), with the frontend, the servers and the backend.
const statCSV = `# pxname,svname,qcur,status,wretr,wredis,check_status,check_code,
resolver,FRONTEND,,OPEN,,,,,
followers,follower1,0,UP,1,2,L7OK,200,
followers,follower2,0,DOWN,0,5,L4CON,,
followers,follower3,0,DOWN 1/2,0,0,L7STS,503,
followers,BACKEND,0,UP,1,7,,,
`

func TestParseStat(t *testing.T) {
	got, err := parseStat(statCSV)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]serverStat{
		"follower1": {"UP", "L7OK", "200", 3},
		"follower2": {"DOWN", "L4CON", "", 5},
		"follower3": {"DOWN 1/2", "L7STS", "503", 0},
		"BACKEND":   {"UP", "", "", 8},
	} {
		t.Run(name, func(t *testing.T) {
			if got[name] != want {
				t.Errorf("%+v, want %+v", got[name], want)
			}
		})
	}
	if len(got) != 4 {
		t.Errorf("%d rows of followers, want 4 (the frontend is not one): %v", len(got), got)
	}
	for _, tc := range []struct{ name, text string }{
		{"no header", ""},
		{"a column missing", "# pxname,svname,status\nfollowers,follower1,UP\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := parseStat(tc.text); err == nil {
				t.Errorf("%q: no error", tc.text)
			}
		})
	}
}

func TestParseWrk(t *testing.T) {
	out := "Running 5s test @ http://127.0.0.1:1\n" +
		"clustertest requests=1000 duration_us=5000000 p50_us=400 p99_us=9000 sock_errors=1 status_errors=2\n" +
		"clustertest failed 1700000000123:502\nclustertest failed 1700000000456:503\n"
	r, err := parseWrk(out)
	if err != nil {
		t.Fatal(err)
	}
	if r.Requests != 1000 || r.Elapsed != 5*time.Second || r.P50 != 400*time.Microsecond || r.P99 != 9*time.Millisecond ||
		r.SockErrors != 1 || r.StatusErrors != 2 || r.rate() != 200 {
		t.Errorf("%+v", r)
	}
	want := []failure{{time.UnixMilli(1700000000123), 502}, {time.UnixMilli(1700000000456), 503}}
	if len(r.Failed) != 2 || r.Failed[0] != want[0] || r.Failed[1] != want[1] {
		t.Errorf("failures %v, want %v", r.Failed, want)
	}
	for _, tc := range []struct{ name, out string }{
		{"no summary", "Running 5s test\n"},
		{"no requests", "clustertest requests=0 duration_us=5000000 p50_us=0 p99_us=0 sock_errors=0 status_errors=0\n"},
		{"a bad failure", out + "clustertest failed soon:502\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := parseWrk(tc.out); err == nil {
				t.Error("no error")
			}
		})
	}
}

// The relay carries bytes both ways; slowed, it holds each piece of the
// answer; cut, it closes what it carries and refuses new connections;
// restored, it carries again.
func TestRelay(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() { // an echo server
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { io.Copy(c, c); c.Close() }()
		}
	}()
	r, err := newRelay(ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer r.close()
	echo := func() (time.Duration, error) {
		c, err := net.Dial("tcp", r.addr())
		if err != nil {
			return 0, err
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(5 * time.Second))
		start := time.Now()
		if _, err := c.Write([]byte("ping")); err != nil {
			return 0, err
		}
		b := make([]byte, 4)
		if _, err := io.ReadFull(c, b); err != nil || string(b) != "ping" {
			return 0, err
		}
		return time.Since(start), nil
	}
	for _, tc := range []struct {
		name    string
		set     func()
		ok      bool
		atLeast time.Duration
	}{
		{"open", func() {}, true, 0},
		{"slowed", func() { r.setDelay(300 * time.Millisecond) }, true, 300 * time.Millisecond},
		{"cut", func() { r.setDelay(0); r.setCut(true) }, false, 0},
		{"restored", func() { r.setCut(false) }, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.set()
			took, err := echo()
			if (err == nil) != tc.ok || took < tc.atLeast {
				t.Errorf("took %v, err %v; want ok %v, at least %v", took, err, tc.ok, tc.atLeast)
			}
		})
	}
}

// The compose file runs the topology clustertest runs: the balancer with
// this directory's haproxy.cfg, given an address for each of its servers
// in the variables the configuration reads, and followers that follow the
// producer with the flags the node has (as DIDLIGHT_* variables).
func TestComposeMatchesConfig(t *testing.T) {
	compose, err := os.ReadFile("../../../../deploy/compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := os.ReadFile("../../../../deploy/haproxy.cfg")
	if err != nil {
		t.Fatal(err)
	}
	vars := regexp.MustCompile(`"\$\{([A-Z0-9_]+)\}"`).FindAllStringSubmatch(string(cfg), -1)
	if len(vars) < 5 {
		t.Fatalf("haproxy.cfg reads %d variables", len(vars))
	}
	for _, v := range vars {
		if !strings.Contains(string(compose), "      "+v[1]+": ") {
			t.Errorf("compose.yaml does not give the balancer %s, which haproxy.cfg reads", v[1])
		}
	}
	for _, want := range []string{"./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg", "DIDLIGHT_FOLLOW: http://producer:8080", "http-check send meth GET uri /ready"} {
		if !strings.Contains(string(compose)+string(cfg), want) {
			t.Errorf("deploy/ does not say %q", want)
		}
	}
	for _, server := range regexp.MustCompile(`(?m)^\s+server (\S+) "\$\{(\S+)\}"`).FindAllStringSubmatch(string(cfg), -1) {
		if !regexp.MustCompile(`(?m)^  ` + server[1] + `:$`).Match(compose) {
			t.Errorf("haproxy.cfg's server %s is no service of compose.yaml", server[1])
		}
	}
	// Every DIDLIGHT_ variable the compose file sets is a flag of the node.
	var help strings.Builder
	cli.Run([]string{"node", "--help"}, &help, &help)
	if !strings.Contains(help.String(), "(DIDLIGHT_FOLLOW,") {
		t.Fatalf("didlight node --help does not list its flags:\n%s", help.String())
	}
	for _, m := range regexp.MustCompile(`(DIDLIGHT_[A-Z_]+):`).FindAllStringSubmatch(string(compose), -1) {
		if !strings.Contains(help.String(), "("+m[1]+",") {
			t.Errorf("compose.yaml sets %s, which is no flag of didlight node", m[1])
		}
	}
}
