package node_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/didlight/didlight/host/internal/api"
	"github.com/didlight/didlight/host/internal/eidindex"
	"github.com/didlight/didlight/host/internal/eidsync"
	"github.com/didlight/didlight/host/internal/light"
	"github.com/didlight/didlight/host/internal/metrics"
	"github.com/didlight/didlight/host/internal/node"
)

// scrape reads the node's metrics, as Prometheus does, into a map from
// each sample's name and labels, as the text format writes them
// (didlight_height, didlight_rpc_calls_total{method="resolvedid",outcome="ok"}),
// to its value.
func scrape(t *testing.T, n *node.Node) map[string]float64 {
	t.Helper()
	resp, err := http.Get(strings.TrimSuffix(n.RESTURL(), "/api/v1") + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("GET /metrics: %d %s", resp.StatusCode, b)
	}
	samples := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("a sample that does not parse: %q", line)
		}
		samples[line[:i]] = v
	}
	return samples
}

// post sends a JSON-RPC body and drops the answer.
func post(t *testing.T, url, body string) {
	t.Helper()
	send(t, "POST", url, body)
}

// A devnet's metrics count its requests by route and status, its JSON-RPC
// calls by method and outcome, with their durations; its height and the
// blocks it applied; the answers it built and those it served from what it
// kept; and the Go runtime's.
func TestMetricsDevnet(t *testing.T) {
	c := openChain(t)
	n, err := node.Start(c, node.Config{API: api.Options{Metrics: metrics.NewRegistry(metrics.Chain(c)), AdminToken: "secret"}})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	before := scrape(t, n)

	const resolve = `{"jsonrpc":"2.0","id":1,"method":"resolvedid","params":{"did":"did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y"}}`
	for range 3 {
		post(t, n.RPCURL(), resolve)
	}
	post(t, n.RPCURL(), `{"jsonrpc":"2.0","id":1,"method":"nosuchmethod"}`)
	post(t, n.RPCURL(), `{"jsonrpc":"2.0","id":1,"method":"resolvedid","params":{"did":"not a did"}}`)
	get(t, n.RESTURL()+"/block/height")
	get(t, n.RESTURL()+"/block/height")
	if _, err := c.Mine(context.Background()); err != nil {
		t.Fatal(err)
	}
	after := scrape(t, n)

	for _, tc := range []struct {
		sample string
		moved  float64
	}{
		{`didlight_rpc_calls_total{method="resolvedid",outcome="ok"}`, 3},
		{`didlight_rpc_calls_total{method="resolvedid",outcome="-32602"}`, 1},
		{`didlight_rpc_calls_total{method="unknown",outcome="-32601"}`, 1},
		{`didlight_rpc_call_duration_seconds_count{method="resolvedid"}`, 4},
		{`didlight_http_requests_total{code="200",listener="rpc",route="POST /{$}"}`, 5},
		{`didlight_http_requests_total{code="200",listener="rest",route="GET /api/v1/block/height"}`, 2},
		{`didlight_http_request_duration_seconds_count{listener="rest",route="GET /api/v1/block/height"}`, 2},
		{`didlight_height`, 1},
		{`didlight_blocks_applied_total`, 1},
		{`didlight_answers_total{source="built"}`, 1},
		{`didlight_answers_total{source="kept"}`, 2},
	} {
		t.Run(tc.sample, func(t *testing.T) {
			if got := after[tc.sample] - before[tc.sample]; got != tc.moved {
				t.Errorf("moved by %v (from %v to %v), want %v", got, before[tc.sample], after[tc.sample], tc.moved)
			}
		})
	}
	for _, name := range []string{"didlight_ready", "didlight_upstream_lag_blocks", "go_goroutines", "go_memstats_heap_alloc_bytes", "process_cpu_seconds_total"} {
		if _, ok := after[name]; !ok {
			t.Errorf("no %s", name)
		}
	}
	if after["didlight_ready"] != 1 {
		t.Errorf("didlight_ready %v, want 1", after["didlight_ready"])
	}
}

// /metrics is served to loopback clients and the admin token; a client
// relayed by a proxy, which could be anyone, or with a wrong token, is
// refused, as is a page of another site.
func TestMetricsAccess(t *testing.T) {
	c := openChain(t)
	n, err := node.Start(c, node.Config{API: api.Options{Metrics: metrics.NewRegistry(metrics.Chain(c)), AdminToken: "secret"}})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	for _, tc := range []struct {
		name    string
		headers []string
		want    int
	}{
		{"loopback", nil, http.StatusOK},
		{"relayed", []string{"X-Forwarded-For", "203.0.113.9"}, http.StatusForbidden},
		{"relayed with the token", []string{"X-Forwarded-For", "203.0.113.9", "Authorization", "Bearer secret"}, http.StatusOK},
		{"relayed with another token", []string{"X-Forwarded-For", "203.0.113.9", "Authorization", "Bearer guess"}, http.StatusForbidden},
		{"a page of another site", []string{"Origin", "https://elsewhere.example", "Sec-Fetch-Site", "cross-site"}, http.StatusForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, b := send(t, "GET", strings.TrimSuffix(n.RESTURL(), "/api/v1")+"/metrics", "", tc.headers...)
			if resp.StatusCode != tc.want {
				t.Errorf("status %d, want %d: %.200s", resp.StatusCode, tc.want, b)
			}
		})
	}
	// Without a registry the node measures nothing and serves no metrics.
	bare, err := node.Start(openChain(t), node.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer bare.Stop()
	if got := get(t, strings.TrimSuffix(bare.RESTURL(), "/api/v1")+"/metrics"); !strings.Contains(got, "42001") {
		t.Errorf("GET /metrics without metrics: %s", got)
	}
}

// An EID follower's metrics count the blocks its scan applied and the
// operations its index applied, and how far behind it is.
func TestMetricsEIDFollower(t *testing.T) {
	var down atomic.Bool
	n, up, _ := startEIDFollower(t, &down, func(ix *eidindex.Index, scan *eidsync.Scanner) *prometheus.Registry {
		return metrics.NewRegistry(metrics.EIDFollower(ix, scan))
	})
	waitReady(t, n, true)
	head := up.Manifest.Checkpoints[len(up.Manifest.Checkpoints)-1].Head
	m := scrape(t, n)
	if m["didlight_height"] != float64(head) || m["didlight_upstream_lag_blocks"] != 0 || m["didlight_ready"] != 1 {
		t.Errorf("height %v lag %v ready %v, want %d, 0, 1", m["didlight_height"], m["didlight_upstream_lag_blocks"], m["didlight_ready"], head)
	}
	if m["didlight_blocks_applied_total"] == 0 || m[`didlight_operations_total{outcome="applied"}`] == 0 {
		t.Errorf("blocks applied %v, operations applied %v: want some", m["didlight_blocks_applied_total"], m[`didlight_operations_total{outcome="applied"}`])
	}
	if _, ok := m[`didlight_operations_total{outcome="refused"}`]; !ok {
		t.Error("no count of operations refused")
	}
}

// A light node's metrics count its answers: asked of the upstream and
// verified, then served from what it kept.
func TestMetricsLight(t *testing.T) {
	var down atomic.Bool
	n, up := startLight(t, &down, func(r *light.Resolver) *prometheus.Registry { return metrics.NewRegistry(metrics.Light(r)) })
	waitReady(t, n, true)
	before := scrape(t, n)
	body := `{"jsonrpc":"2.0","id":1,"method":"did_resolveDID","params":[{"did":"` + up.Manifest.DIDs[0].DID + `","all":true}]}`
	post(t, n.RPCURL(), body)
	post(t, n.RPCURL(), body)
	after := scrape(t, n)
	for _, outcome := range []string{"asked", "verified", "kept"} {
		sample := `didlight_light_answers_total{outcome="` + outcome + `"}`
		if after[sample] <= before[sample] {
			t.Errorf("%s did not move: %v, then %v", sample, before[sample], after[sample])
		}
	}
	if after[`didlight_rpc_calls_total{method="did_resolveDID",outcome="ok"}`] != 2 {
		t.Errorf("did_resolveDID calls: %v, want 2", after[`didlight_rpc_calls_total{method="did_resolveDID",outcome="ok"}`])
	}
}
