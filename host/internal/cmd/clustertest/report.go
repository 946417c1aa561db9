package main

import (
	"fmt"
	"io"
	"time"
)

// since is how long after from t came, or "never" for a zero t.
func since(from time.Time, t transition) string {
	if t.At.IsZero() {
		return "never"
	}
	return fmt.Sprintf("%v (check: %s)", t.At.Sub(from).Round(time.Millisecond), t.Check)
}

func (r *report) write(w io.Writer) {
	fmt.Fprintf(w, "cost: GET /1.0/identifiers/{did}, wrk 2 threads, %d s a side, one follower directly vs three behind HAProxy\n", int(costRound.Seconds()))
	fmt.Fprintf(w, "  %-5s  %22s  %22s  %s\n", "round", "direct req/s p50 p99", "balanced req/s p50 p99", "balanced/direct req/s")
	for i := range r.Cost.Direct {
		d, b := r.Cost.Direct[i], r.Cost.Balanced[i]
		fmt.Fprintf(w, "  %-5d  %8.0f %6v %6v  %8.0f %6v %6v  %.2f\n", i+1, d.rate(), d.P50, d.P99, b.rate(), b.P50, b.P99, b.rate()/d.rate())
	}
	fmt.Fprintf(w, "  HAProxy CPU per request: %v\n", r.Cost.BalancerCPUPerRequest)

	k := r.Kill
	fmt.Fprintf(w, "kill -9 of follower2 under load (%d requests, %.0f req/s):\n", k.Load.Requests, k.Load.rate())
	fmt.Fprintf(w, "  taken out %s after the kill; %d requests failed in that window, %d outside it; %d sent again by HAProxy\n", since(k.Killed, k.Out), k.InWindow, k.OutsideWindow, k.Retried)
	fmt.Fprintf(w, "  started again, back in rotation %s later\n", since(k.Restarted, k.Back))

	for _, l := range []struct {
		what string
		lagReport
	}{{"slowed (each answer held 3 s)", r.Lag}, {"cut", r.Cut}} {
		fmt.Fprintf(w, "follower3's link to the producer %s under load (%d requests, %.0f req/s):\n", l.what, l.Load.Requests, l.Load.rate())
		fmt.Fprintf(w, "  taken out %s after; /ready then: %s\n", since(l.Failed, l.Out), l.ReadyWhileOut)
		fmt.Fprintf(w, "  link restored, back in rotation %s later; /ready then: %s\n", since(l.Restored, l.Back), l.ReadyWhenBack)
		fmt.Fprintf(w, "  %d requests failed; %d sent again by HAProxy\n", l.Failures, l.Retried)
	}
}
