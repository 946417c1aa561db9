package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestPercentile(t *testing.T) {
	thousand := make([]time.Duration, 1000)
	for i := range thousand {
		thousand[i] = time.Duration(i + 1)
	}
	for i, c := range []struct {
		sorted   []time.Duration
		perMille int
		want     time.Duration
	}{
		{thousand, 500, 500}, {thousand, 990, 990}, {thousand, 999, 999}, {thousand, 1000, 1000}, {thousand, 0, 1},
		{thousand[:3], 500, 2}, {thousand[:3], 990, 3}, {thousand[:1], 999, 1}, {nil, 990, 0},
		{thousand[:200], 990, 198}, {thousand[:200], 999, 200},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if got := percentile(c.sorted, c.perMille); got != c.want {
				t.Errorf("percentile(%d values, %d‰) = %d, want %d", len(c.sorted), c.perMille, got, c.want)
			}
		})
	}
}

func TestOpenLoadSchedule(t *testing.T) {
	l := openLoad{Rate: 4000, Duration: 300 * time.Millisecond}
	if got := l.count(); got != 1200 {
		t.Errorf("count = %d, want 1200", got)
	}
	for i, want := range map[int64]time.Duration{0: 0, 1: 250 * time.Microsecond, 4000: time.Second} {
		if got := l.due(i); got != want {
			t.Errorf("due(%d) = %v, want %v", i, got, want)
		}
	}
	if got := (openLoad{Rate: 1000.4, Duration: 300 * time.Millisecond}).count(); got != 300 {
		t.Errorf("count at 1000.4/s for 0.3 s = %d, want 300", got)
	}
}

func TestSummarizeOpen(t *testing.T) {
	ms := time.Millisecond
	s := connStats{
		latencies: []time.Duration{5 * ms, 1 * ms, 3 * ms, 2 * ms},
		lags:      []time.Duration{0, 2 * ms, 1 * ms},
		waited:    1,
		lastSent:  3 * ms,
		errors:    1,
		lastErr:   io.ErrUnexpectedEOF,
	}
	got := summarizeOpen(openLoad{Rate: 1000, Duration: 5 * ms}, s)
	want := openResult{Rate: 1000, Achieved: 1250, Requests: 4, Errors: 1, LastError: "unexpected EOF", Waited: 1,
		LagP99: 2 * ms, LagMax: 2 * ms, P50: 2 * ms, P99: 5 * ms, P999: 5 * ms, Max: 5 * ms}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("summarizeOpen (-want +got):\n%s", diff)
	}
}

func TestOpenResultValid(t *testing.T) {
	good := openResult{Rate: 1000, Achieved: 995, Requests: 10000, Waited: 10, LagP99: time.Millisecond}
	for _, c := range []struct {
		name string
		edit func(*openResult)
		want string // in the error; "" for none
	}{
		{"kept", func(*openResult) {}, ""},
		{"slow", func(r *openResult) { r.Achieved = 980 }, "sent 980 req/s of the 1000"},
		{"late", func(r *openResult) { r.LagP99 = 2 * time.Millisecond }, "late: p99 2ms"},
		{"waited", func(r *openResult) { r.Waited = 11 }, "11 requests waited"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := good
			c.edit(&r)
			err := r.valid()
			if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: valid() = %v, want %q", c.name, err, c.want)
			}
		})
	}
}

// generateAgainst runs l, GETs of /, against a test server of h.
func generateAgainst(t *testing.T, h http.HandlerFunc, l openLoad) openResult {
	t.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	req := []byte("GET / HTTP/1.1\r\nHost: " + addr + "\r\n\r\n")
	r, err := generate(context.Background(), addr, [][]byte{req}, l)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A server that stalls delays, on a single connection, every request due
// while it stalls: each latency counts from when the request was due, not
// from when the busy connection could send it.
func TestGenerateCountsFromDueTime(t *testing.T) {
	const stall = 100 * time.Millisecond
	var once sync.Once
	var until time.Time
	r := generateAgainst(t, func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() { until = time.Now().Add(stall) })
		time.Sleep(time.Until(until))
		io.WriteString(w, "ok")
	}, openLoad{Rate: 1000, Duration: 300 * time.Millisecond, Connections: 1})
	// The requests due in the stall's first half are answered after it,
	// at least stall/2 late: more than 1% of the 300.
	if r.Requests != 300 || r.Errors != 0 || r.Waited < 50 || r.P99 < stall/2 || r.Max < stall {
		t.Errorf("generate = %+v; want 300 answered, at least 50 waited, p99 ≥ %v, max ≥ %v", r, stall/2, stall)
	}
}

func TestGenerateCountsErrors(t *testing.T) {
	r := generateAgainst(t, func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no", http.StatusInternalServerError)
	}, openLoad{Rate: 1000, Duration: 50 * time.Millisecond, Connections: 4})
	if r.Requests != 0 || r.Errors != 50 || !strings.Contains(r.LastError, "status 500") {
		t.Errorf("generate = %+v; want 50 errors, status 500", r)
	}
}

// The generator sends what wrk's script sends: the kind's bodies as
// JSON, or GETs of its paths, with the size header under -sized-ref.
func TestRawRequests(t *testing.T) {
	post := kind{method: "POST", bodies: []string{`{"a":1}`}, refSize: 3000}
	target, _ := url.Parse("http://127.0.0.1:9/")
	got, err := rawRequests(post, target)
	want := []string{"POST / HTTP/1.1\r\nHost: 127.0.0.1:9\r\nContent-Type: application/json\r\nContent-Length: 7\r\nX-Loadbench-Size: 3000\r\n\r\n{\"a\":1}"}
	if err != nil || !cmp.Equal(got, want) {
		t.Errorf("rawRequests(post) = %q, %v; want %q", got, err, want)
	}
	get := kinds([]string{"did:elastos:iA"})[4]
	target, _ = url.Parse("http://127.0.0.1:9/1.0/identifiers/")
	got, err = rawRequests(get, target)
	want = []string{"GET /1.0/identifiers/did:elastos:iA HTTP/1.1\r\nHost: 127.0.0.1:9\r\n\r\n"}
	if err != nil || !cmp.Equal(got, want) {
		t.Errorf("rawRequests(w3c) = %q, %v; want %q", got, err, want)
	}
}

func TestSummarizeOpens(t *testing.T) {
	ms := time.Millisecond
	runs := []openMeasurement{
		{Kind: "a", Server: "node", openResult: openResult{Rate: 1000, Requests: 1000, P50: 1 * ms, P99: 4 * ms, P999: 8 * ms}, CPUPerReq: 30 * time.Microsecond},
		{Kind: "a", Server: "ref", openResult: openResult{Rate: 1000, Requests: 1000, P50: 1 * ms, P99: 2 * ms, P999: 4 * ms}, CPUPerReq: 10 * time.Microsecond},
		{Kind: "a", Server: "node", openResult: openResult{Rate: 3000, Requests: 3000, P50: 3 * ms, P99: 8 * ms, P999: 8 * ms}, CPUPerReq: 10 * time.Microsecond, Invalid: "late"},
		{Kind: "a", Server: "ref", openResult: openResult{Rate: 3000, Requests: 3000, P50: 1 * ms, P99: 2 * ms, P999: 4 * ms}, CPUPerReq: 10 * time.Microsecond},
	}
	got := summarizeOpens(runs, []kind{{name: "a"}, {name: "b"}})
	want := []openRatio{{Kind: "a", Rate: 2000, NodeP50: 2 * ms, NodeP99: 6 * ms, NodeP999: 8 * ms, NodeCPUPerReq: 15 * time.Microsecond,
		P50: 2, P99: 3, P999: 2, CPUPerReq: 1.5, Invalid: 1}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("summarizeOpens (-want +got):\n%s", diff)
	}
}
