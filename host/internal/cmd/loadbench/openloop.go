package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"slices"
	"sync/atomic"
	"time"
)

// openLoad is a fixed-rate (open-loop) load: requests are due at rate per
// second for duration, whether or not the server has answered the ones
// before, as independent clients would send them.
type openLoad struct {
	Rate        float64       `json:"rate"`
	Duration    time.Duration `json:"duration_ns"`
	Connections int           `json:"connections"` // opened before the first request is due, kept alive
}

// count is how many requests the schedule holds.
func (l openLoad) count() int64 { return int64(math.Round(l.Rate * l.Duration.Seconds())) }

// due is when request i of the schedule is due, after its start.
func (l openLoad) due(i int64) time.Duration {
	return time.Duration(float64(i) * float64(time.Second) / l.Rate)
}

// job is one request of the schedule, as the dispatcher hands it to a
// connection.
type job struct {
	i      int64
	waited bool // no connection was idle when it was due
}

// connStats is what one connection measured; its worker owns it until it
// returns it.
type connStats struct {
	latencies []time.Duration // from each request's due time to its answer's end
	lags      []time.Duration // how late each request that found a connection idle was sent
	waited    int64           // requests due while every connection was busy
	lastSent  time.Duration   // after the start
	errors    int64
	lastErr   error
}

// add merges t into s.
func (s *connStats) add(t connStats) {
	s.latencies = append(s.latencies, t.latencies...)
	s.lags = append(s.lags, t.lags...)
	s.waited += t.waited
	s.lastSent = max(s.lastSent, t.lastSent)
	s.errors += t.errors
	if t.lastErr != nil {
		s.lastErr = t.lastErr
	}
}

// generator sends a schedule of requests over keep-alive connections, the
// model of wrk2 (github.com/giltene/wrk2): requests are due at a fixed
// rate whatever the server does, and a request's latency runs from when it
// was due, so that a slow answer counts for every request it delays. The
// dispatcher wakes on a ticker and hands each request due to a
// connection's worker; a request due while every connection is busy waits
// for one (there were too few) and is counted.
type generator struct {
	addr    string
	reqs    [][]byte // raw HTTP/1.1 requests, sent in turn
	load    openLoad
	start   time.Time
	jobs    chan job     // the dispatcher's hand-offs, buffered for the whole schedule
	idle    atomic.Int64 // workers waiting for a job
	timeout time.Duration
}

// minTick is the dispatcher's shortest period: above 20 000 requests a
// second it hands off several at each tick, a request at most minTick
// late, rather than wake more often. Each tick costs a wake-up and two
// reads of the ticker, which a tick per request would pay at every
// request; longer periods cost latency instead.
const minTick = 50 * time.Microsecond

// generate runs load l against addr with reqs and measures it.
func generate(ctx context.Context, addr string, reqs [][]byte, l openLoad) (openResult, error) {
	n := l.count()
	g := &generator{addr: addr, reqs: reqs, load: l, jobs: make(chan job, n), timeout: 10 * time.Second}
	conns := make([]net.Conn, l.Connections)
	for i := range conns {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			for _, c := range conns[:i] {
				c.Close()
			}
			return openResult{}, fmt.Errorf("connection %d to %s: %v", i+1, addr, err)
		}
		conns[i] = c
	}
	t, err := newTicker(max(l.due(1), minTick))
	if err != nil {
		return openResult{}, err
	}
	defer t.stop()
	results := make(chan connStats)
	g.start = time.Now()
	g.idle.Add(int64(len(conns)))
	for _, c := range conns {
		go func() { results <- g.work(c) }()
	}
	for i := int64(0); i < n && ctx.Err() == nil; {
		for now := time.Since(g.start); i < n && l.due(i) <= now; i++ {
			g.jobs <- job{i: i, waited: int64(len(g.jobs)) >= g.idle.Load()}
		}
		if i < n {
			if err := t.wait(); err != nil {
				return openResult{}, fmt.Errorf("the generator's ticker: %v", err)
			}
		}
	}
	close(g.jobs)
	var all connStats
	for range conns {
		all.add(<-results)
	}
	if err := ctx.Err(); err != nil {
		return openResult{}, err
	}
	return summarizeOpen(l, all), nil
}

// work sends the jobs it takes over c (dialled again after an error) and
// returns what it measured.
func (g *generator) work(c net.Conn) connStats {
	var s connStats
	br := bufio.NewReaderSize(c, 64<<10)
	for j := range g.jobs {
		g.idle.Add(-1)
		due := g.load.due(j.i)
		sent := time.Since(g.start)
		if j.waited {
			s.waited++
		} else {
			s.lags = append(s.lags, sent-due)
		}
		s.lastSent = sent
		if err := g.send(&c, br, g.reqs[j.i%int64(len(g.reqs))]); err != nil {
			s.errors, s.lastErr = s.errors+1, err
		} else {
			s.latencies = append(s.latencies, time.Since(g.start)-due)
		}
		g.idle.Add(1)
	}
	if c != nil {
		c.Close()
	}
	return s
}

// send sends req on *c, reading its answer through br, after dialling
// again if *c is nil; after an error *c is closed and nil.
func (g *generator) send(c *net.Conn, br *bufio.Reader, req []byte) error {
	if *c == nil {
		nc, err := net.Dial("tcp", g.addr)
		if err != nil {
			return err
		}
		*c = nc
		br.Reset(nc)
	}
	if err := g.roundTrip(*c, br, req); err != nil {
		(*c).Close()
		*c = nil
		return err
	}
	return nil
}

// roundTrip writes req on c and reads its whole answer from br, which
// reads c. An answer with a status of 400 or more is an error.
func (g *generator) roundTrip(c net.Conn, br *bufio.Reader, req []byte) error {
	c.SetDeadline(time.Now().Add(g.timeout))
	if _, err := c.Write(req); err != nil {
		return err
	}
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	switch {
	case err != nil:
		return err
	case resp.StatusCode >= 400:
		return fmt.Errorf("HTTP status %d", resp.StatusCode)
	case resp.Close:
		return fmt.Errorf("the server closed the connection")
	}
	return nil
}

// openResult is what one open-loop run measured, as the generator's
// process reports it to loadbench.
type openResult struct {
	Rate      float64       `json:"rate"`     // the schedule's
	Achieved  float64       `json:"achieved"` // requests sent per second, from the start to the last sent
	Requests  int64         `json:"requests"` // answered
	Errors    int64         `json:"errors"`
	LastError string        `json:"last_error,omitempty"`
	Waited    int64         `json:"waited"` // requests due while their connection was busy
	LagP99    time.Duration `json:"lag_p99_ns"`
	LagMax    time.Duration `json:"lag_max_ns"` // how late requests were sent on idle connections
	P50       time.Duration `json:"p50_ns"`
	P99       time.Duration `json:"p99_ns"`
	P999      time.Duration `json:"p999_ns"`
	Max       time.Duration `json:"max_ns"`
}

// How well the generator must keep its schedule for a run to count. Its
// latencies count from the due times, so a generator that lacked the CPU
// to send on time (lag) holds its own delay, and one that lacked
// connections (waited) loaded the server with fewer requests at once than
// the schedule asked for.
const (
	maxLagP99   = time.Millisecond
	maxWaited   = 0.001 // of the requests
	minAchieved = 0.99  // of the schedule's rate
)

// valid says whether the generator kept its schedule, and if not, how not.
func (r openResult) valid() error {
	switch {
	case r.Achieved < minAchieved*r.Rate:
		return fmt.Errorf("the generator sent %.0f req/s of the %.0f scheduled", r.Achieved, r.Rate)
	case r.LagP99 > maxLagP99:
		return fmt.Errorf("the generator sent late: p99 %v (at most %v)", r.LagP99, maxLagP99)
	case float64(r.Waited) > maxWaited*float64(r.Requests+r.Errors):
		return fmt.Errorf("%d requests waited for their connection: use more (-open-conns)", r.Waited)
	}
	return nil
}

// summarizeOpen sums up a run of load l, which its connections measured
// in s.
func summarizeOpen(l openLoad, s connStats) openResult {
	r := openResult{Rate: l.Rate, Requests: int64(len(s.latencies)), Errors: s.errors, Waited: s.waited}
	if s.lastErr != nil {
		r.LastError = s.lastErr.Error()
	}
	if sent := int64(len(s.latencies)) + s.errors; sent > 0 {
		// The last request is sent one interval short of the schedule's end.
		r.Achieved = float64(sent) / (s.lastSent + l.due(1)).Seconds()
	}
	slices.Sort(s.lags)
	r.LagP99, r.LagMax = percentile(s.lags, 990), percentile(s.lags, 1000)
	slices.Sort(s.latencies)
	r.P50, r.P99, r.P999, r.Max = percentile(s.latencies, 500), percentile(s.latencies, 990), percentile(s.latencies, 999), percentile(s.latencies, 1000)
	return r
}

// percentile is the nearest-rank percentile of sorted at perMille
// thousandths (990 for p99): the smallest value that at least that share
// of the values are at most; 0 when sorted is empty. Thousandths keep the
// rank exact, as a float share would not.
func percentile(sorted []time.Duration, perMille int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := (perMille*len(sorted) + 999) / 1000
	return sorted[max(rank, 1)-1]
}
