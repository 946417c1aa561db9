package api_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/didlight/didlight/host/internal/cputime"
)

// benchDIDs is how many distinct DIDs BenchmarkResolveOverHTTP resolves in
// turn, so that each resolve reads another DID's state, as a resolver
// serving many clients does.
const benchDIDs = 256

// BenchmarkResolveOverHTTP measures resolvedid over loopback HTTP against
// the ceiling the same server sets: its cheapest endpoint, GET
// /api/v1/block/height. Each iteration sends a round of height requests,
// then a round of resolves (all=false) of DIDs that each have a create and
// an update, taken in turn from benchDIDs distinct ones, from one client
// (serial) or from eight at once (parallel), and times each round apart, so
// that both kinds are measured in the same run under the same load.
//
// Reported per request: height-cpu-ns and resolve-cpu-ns, the CPU time of
// the process (client and server) during each round, and height-ns and
// resolve-ns, wall time. ratio = height CPU / resolve CPU is resolve
// throughput as a fraction of the ceiling when the CPU is what limits it
// (1 would mean resolving costs nothing more than the cheapest request);
// wall-ratio is the same in wall time, which other work on the machine
// disturbs.
func BenchmarkResolveOverHTTP(b *testing.B) {
	n := startNode(b, 0)
	bodies := make([]string, benchDIDs)
	var wg sync.WaitGroup
	for i := range bodies {
		wg.Go(func() {
			id := newIdentity(b, fmt.Sprint("bench ", i))
			create, err := n.chain.SubmitRequest(context.Background(), id.create(yearFromNow(), id.service("hive", "HiveVault")))
			if err == nil {
				_, err = n.chain.SubmitRequest(context.Background(), id.update(create.String(), yearFromNow(),
					id.service("hive", "HiveVault"), id.service("web", "LinkedDomains")))
			}
			if err != nil {
				panic(err)
			}
			bodies[i] = fmt.Sprintf(`{"jsonrpc":"2.0","method":"resolvedid","params":{"did":%q,"all":false},"id":1}`, id.did)
		})
	}
	wg.Wait()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	height := func() {
		resp, err := client.Get(n.rest + "/block/height")
		drain(b, resp, err, `"Error":0`)
	}
	var next atomic.Uint64
	resolve := func() {
		body := bodies[next.Add(1)%benchDIDs]
		resp, err := client.Post(n.rpcURL, "application/json", strings.NewReader(body))
		drain(b, resp, err, `"status":0`)
	}
	for _, clients := range []int{1, 8} {
		name := "serial"
		if clients > 1 {
			name = "parallel"
		}
		b.Run(name, func(b *testing.B) {
			var h, r measured
			for b.Loop() {
				h.add(round(clients, height))
				r.add(round(clients, resolve))
			}
			reqs := float64(b.N * clients)
			b.ReportMetric(float64(h.cpu.Nanoseconds())/reqs, "height-cpu-ns/req")
			b.ReportMetric(float64(r.cpu.Nanoseconds())/reqs, "resolve-cpu-ns/req")
			b.ReportMetric(float64(h.wall.Nanoseconds())/reqs, "height-ns/req")
			b.ReportMetric(float64(r.wall.Nanoseconds())/reqs, "resolve-ns/req")
			b.ReportMetric(float64(h.cpu)/float64(r.cpu), "ratio")
			b.ReportMetric(float64(h.wall)/float64(r.wall), "wall-ratio")
		})
	}
}

// measured sums the time rounds took.
type measured struct{ wall, cpu time.Duration }

func (m *measured) add(wall, cpu time.Duration) { m.wall += wall; m.cpu += cpu }

// round makes clients requests at once and returns the wall and process
// CPU time they took.
func round(clients int, request func()) (wall, cpu time.Duration) {
	startCPU, start := cputime.Now(), time.Now()
	if clients == 1 {
		request()
	} else {
		var wg sync.WaitGroup
		for range clients {
			wg.Go(request)
		}
		wg.Wait()
	}
	return time.Since(start), cputime.Now() - startCPU
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
