package api_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkResolveOverHTTP measures resolvedid over loopback HTTP against
// the ceiling the same server sets: its cheapest endpoint, GET
// /api/v1/block/height. Each round sends one of each, from one client
// (serial) or from eight at once (parallel), and times them apart, so that
// both are measured in the same run under the same load.
//
// Reported: height-ns/req and resolve-ns/req (wall time per request) and
// ratio = height time / resolve time, resolve throughput as a fraction of
// the ceiling (1 would mean resolving costs the server nothing).
func BenchmarkResolveOverHTTP(b *testing.B) {
	n := startNode(b, 0)
	id := newIdentity(b, "bench")
	create := n.publish(id, id.create(yearFromNow(), id.service("hive", "HiveVault")))
	n.publish(id, id.update(create, yearFromNow(), id.service("hive", "HiveVault"), id.service("web", "LinkedDomains")))
	resolveBody := fmt.Sprintf(`{"jsonrpc":"2.0","method":"resolvedid","params":{"did":%q,"all":false},"id":1}`, id.did)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	height := func() time.Duration {
		start := time.Now()
		resp, err := client.Get(n.rest + "/block/height")
		drain(b, resp, err, `"Error":0`)
		return time.Since(start)
	}
	resolve := func() time.Duration {
		start := time.Now()
		resp, err := client.Post(n.rpcURL, "application/json", strings.NewReader(resolveBody))
		drain(b, resp, err, `"status":0`)
		return time.Since(start)
	}
	for _, clients := range []int{1, 8} {
		name := "serial"
		if clients > 1 {
			name = "parallel"
		}
		b.Run(name, func(b *testing.B) {
			var mu sync.Mutex
			var heightTime, resolveTime time.Duration
			for b.Loop() {
				var wg sync.WaitGroup
				for range clients {
					wg.Go(func() {
						h, r := height(), resolve()
						mu.Lock()
						heightTime += h
						resolveTime += r
						mu.Unlock()
					})
				}
				wg.Wait()
			}
			reqs := float64(b.N * clients)
			b.ReportMetric(float64(heightTime.Nanoseconds())/reqs, "height-ns/req")
			b.ReportMetric(float64(resolveTime.Nanoseconds())/reqs, "resolve-ns/req")
			b.ReportMetric(float64(heightTime)/float64(resolveTime), "ratio")
		})
	}
}

// drain reads a response to the end, so that its connection is reused, and
// checks it holds want.
func drain(b *testing.B, resp *http.Response, err error, want string) {
	if err != nil {
		b.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || !strings.Contains(string(body), want) {
		b.Fatalf("%s (%v), want %s", body, err, want)
	}
}
