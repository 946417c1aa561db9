package node_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"testing"

	"github.com/didlight/didlight/host/internal/api"
	"github.com/didlight/didlight/host/internal/node"
)

// startLimited starts a devnet whose public reads are limited as lim says.
func startLimited(t *testing.T, lim api.RateLimit) *node.Node {
	t.Helper()
	n, err := node.Start(openChain(t), node.Config{API: api.Options{RateLimit: lim}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Stop() })
	return n
}

// send sends a request with a body (none when empty) and headers in
// pairs, and returns the answer and its body.
func send(t *testing.T, method, url, body string, headers ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// checkLimited checks a 429: its Retry-After and that the body says why.
func checkLimited(t *testing.T, what string, resp *http.Response, body string) {
	t.Helper()
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("%s: status %d, want 429: %.200s", what, resp.StatusCode, body)
	}
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err != nil || s < 1 {
		t.Errorf("%s: Retry-After %q", what, resp.Header.Get("Retry-After"))
	}
	if !strings.Contains(body, "too many requests from") {
		t.Errorf("%s: %s", what, body)
	}
}

// A client's public reads beyond its bucket are answered 429 with
// Retry-After, on both APIs, a JSON-RPC batch counting its calls; the
// probes, preflights, broadcasts and controls are not counted.
func TestRateLimit(t *testing.T) {
	n := startLimited(t, api.RateLimit{PerSecond: 0.001, Burst: 3, Loopback: true})
	height := n.RESTURL() + "/block/height"
	for i := range 3 {
		if resp, body := send(t, "GET", height, ""); resp.StatusCode != http.StatusOK {
			t.Fatalf("read %d of a full bucket: %d %s", i, resp.StatusCode, body)
		}
	}
	resp, body := send(t, "GET", height, "")
	checkLimited(t, "REST", resp, body)
	var env struct{ Error int }
	if json.Unmarshal([]byte(body), &env) != nil || env.Error != -1 {
		t.Errorf("REST refusal: %s, want ELA's Unclassified error (-1)", body)
	}
	resp, body = send(t, "POST", n.RPCURL(), `{"jsonrpc":"2.0","id":7,"method":"getblockcount"}`)
	checkLimited(t, "JSON-RPC", resp, body)
	if !strings.Contains(body, `"code":-32003`) || !strings.Contains(body, `"id":7`) {
		t.Errorf("JSON-RPC refusal: %s", body)
	}
	root := strings.TrimSuffix(n.RESTURL(), "/api/v1")
	for _, tc := range []struct {
		name, method, url, body string
	}{
		{"health", "GET", root + "/health", ""},
		{"ready on the JSON-RPC listener", "GET", n.RPCURL() + "ready", ""},
		{"preflight", "OPTIONS", n.RESTURL() + "/block/height", ""},
		{"a broadcast", "POST", n.RESTURL() + "/transaction", `{"data":"00"}`},
		{"a control", "POST", n.RPCURL(), `{"jsonrpc":"2.0","id":1,"method":"dev_mine"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if resp, body := send(t, tc.method, tc.url, tc.body); resp.StatusCode == http.StatusTooManyRequests {
				t.Errorf("limited: %s", body)
			}
		})
	}
}

// A batch counts its calls: one of more calls than the bucket holds empties
// it.
func TestRateLimitBatch(t *testing.T) {
	n := startLimited(t, api.RateLimit{PerSecond: 0.001, Burst: 4, Loopback: true})
	call := `{"jsonrpc":"2.0","id":1,"method":"getblockcount"}`
	if resp, body := send(t, "POST", n.RPCURL(), "["+strings.Repeat(call+",", 9)+call+"]"); resp.StatusCode != http.StatusOK {
		t.Fatalf("a batch of 10 with a full bucket of 4: %d %.200s", resp.StatusCode, body)
	}
	resp, body := send(t, "POST", n.RPCURL(), call)
	checkLimited(t, "after the batch", resp, body)
}

// Loopback clients are exempt unless told; behind a trusted proxy, the
// client X-Forwarded-For names is counted, an IPv6 client by its /64, and
// an untrusted peer's header is not believed.
func TestRateLimitClients(t *testing.T) {
	t.Run("loopback exempt, whatever it forwards", func(t *testing.T) {
		n := startLimited(t, api.RateLimit{PerSecond: 0.001, Burst: 1})
		for range 5 {
			if resp, body := send(t, "GET", n.RESTURL()+"/block/height", "", "X-Forwarded-For", "203.0.113.1"); resp.StatusCode != http.StatusOK {
				t.Fatalf("%d %s", resp.StatusCode, body)
			}
		}
	})
	n := startLimited(t, api.RateLimit{PerSecond: 0.001, Burst: 1, TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}})
	url := n.RESTURL() + "/block/height"
	for _, tc := range []struct {
		name, forwarded string
		limited         bool
	}{
		{"a client", "203.0.113.1", false},
		{"the same client", "203.0.113.1", true},
		{"another client", "203.0.113.2", false},
		{"the first, through two proxies", "203.0.113.1, 127.0.0.5", true},
		{"a client that claims an address", "203.0.113.9, 203.0.113.3", false},
		{"the address claimed, counted", "203.0.113.3", true},
		{"an IPv6 client", "2001:db8:1:2::1", false},
		{"another address of its /64", "2001:db8:1:2::99", true},
		{"another /64", "2001:db8:1:3::1", false},
		{"no forwarded client: the proxy, loopback", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var headers []string
			if tc.forwarded != "" {
				headers = []string{"X-Forwarded-For", tc.forwarded}
			}
			resp, body := send(t, "GET", url, "", headers...)
			if got := resp.StatusCode == http.StatusTooManyRequests; got != tc.limited {
				t.Errorf("limited %v, want %v: %d %.200s", got, tc.limited, resp.StatusCode, body)
			}
		})
	}
}
