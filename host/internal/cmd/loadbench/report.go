package main

import (
	"fmt"
	"io"
	"slices"
	"text/tabwriter"
	"time"
)

// ratio sums up one kind over every round: the node's figures and each as
// a ratio to the reference's. Rates and CPU per request are over the
// rounds' totals; latencies are the mean of the rounds' percentiles.
type ratio struct {
	Kind          string        `json:"kind"`
	NodeRate      float64       `json:"node_req_per_s"`
	NodeP50       time.Duration `json:"node_p50_ns"`
	NodeP99       time.Duration `json:"node_p99_ns"`
	NodeCPUPerReq time.Duration `json:"node_cpu_per_req_ns"`
	NodeSize      int64         `json:"node_bytes_per_answer"`
	Rate          float64       `json:"req_per_s_ratio"` // node ÷ reference: above 1 is faster
	P50           float64       `json:"p50_ratio"`       // node ÷ reference: above 1 is slower
	P99           float64       `json:"p99_ratio"`
	CPUPerReq     float64       `json:"cpu_per_req_ratio"` // node ÷ reference: above 1 costs more
}

// total is a server's runs of one kind added up.
type total struct {
	requests     int64
	bytes        int64 // answers' sizes added up
	cpu, elapsed time.Duration
	p50, p99     time.Duration // sums over the runs
	runs         int
}

func (t *total) add(m measurement) {
	t.requests += m.Requests
	t.bytes += m.Size * m.Requests
	t.cpu += m.cpu
	t.elapsed += m.elapsed
	t.p50 += m.P50
	t.p99 += m.P99
	t.runs++
}

func (t total) rate() float64            { return float64(t.requests) / t.elapsed.Seconds() }
func (t total) cpuPerReq() time.Duration { return t.cpu / time.Duration(t.requests) }
func (t total) meanP50() time.Duration   { return t.p50 / time.Duration(t.runs) }
func (t total) meanP99() time.Duration   { return t.p99 / time.Duration(t.runs) }
func div(a, b time.Duration) float64     { return float64(a) / float64(b) }

// oneRun is one run against one server, closed or open loop.
type oneRun interface{ of() (kind, server string) }

func (m measurement) of() (kind, server string)     { return m.Kind, m.Server }
func (m openMeasurement) of() (kind, server string) { return m.Kind, m.Server }

// adder adds runs up.
type adder[M oneRun] interface{ add(M) }

// addUp adds the runs of kind up, the node's into node, the reference's
// into ref.
func addUp[M oneRun](runs []M, kind string, node, ref adder[M]) {
	for _, m := range runs {
		switch k, s := m.of(); {
		case k != kind:
		case s == "node":
			node.add(m)
		default:
			ref.add(m)
		}
	}
}

// summarize adds up each kind's runs per server and divides.
func summarize(runs []measurement, ks []kind) []ratio {
	var out []ratio
	for _, k := range ks {
		var node, ref total
		addUp(runs, k.name, &node, &ref)
		if node.runs == 0 || ref.runs == 0 {
			continue
		}
		out = append(out, ratio{Kind: k.name, NodeRate: node.rate(), NodeP50: node.meanP50(), NodeP99: node.meanP99(), NodeCPUPerReq: node.cpuPerReq(), NodeSize: node.bytes / node.requests,
			Rate: node.rate() / ref.rate(), P50: div(node.meanP50(), ref.meanP50()), P99: div(node.meanP99(), ref.meanP99()),
			CPUPerReq: div(node.cpuPerReq(), ref.cpuPerReq())})
	}
	return out
}

// printReport writes every run, then the summary of ratios.
func printReport(w io.Writer, runs []measurement, sum []ratio) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "round\tkind\tserver\treq/s\tp50\tp99\tserver CPU/req\tbytes/answer\t")
	for _, m := range runs {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%.0f\t%v\t%v\t%v\t%d\t\n", m.Round, m.Kind, m.Server, m.Rate, round(m.P50), round(m.P99), round(m.CPUPerReq), m.Size)
	}
	tw.Flush()
	fmt.Fprintln(w)
	fmt.Fprintln(tw, "kind\tnode req/s\tp50\tp99\tCPU/req\tbytes/answer\t÷ ref: req/s\tp50\tp99\tCPU/req\t")
	for _, r := range sum {
		fmt.Fprintf(tw, "%s\t%.0f\t%v\t%v\t%v\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t\n", r.Kind, r.NodeRate, round(r.NodeP50), round(r.NodeP99), round(r.NodeCPUPerReq),
			r.NodeSize, r.Rate, r.P50, r.P99, r.CPUPerReq)
	}
	tw.Flush()
}

// round shortens a duration for a table: three significant digits or so.
func round(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	default:
		return d.Round(100 * time.Nanosecond)
	}
}

// relative is one kind's node figures as a ratio to another kind's node
// figures, from the same rounds: how the node serves one request kind
// against another, both loaded alike.
type relative struct {
	Kind      string  `json:"kind"`
	Versus    string  `json:"versus"`
	Rate      float64 `json:"req_per_s_ratio"`   // kind ÷ versus: above 1 is faster
	CPUPerReq float64 `json:"cpu_per_req_ratio"` // kind ÷ versus: above 1 costs more
}

// versus compares every other kind of the summary with the kind named
// base; none when base is empty.
func versus(sum []ratio, base string) []relative {
	i := slices.IndexFunc(sum, func(r ratio) bool { return r.Kind == base })
	if i < 0 {
		return nil
	}
	var out []relative
	for _, r := range sum {
		if r.Kind != base {
			out = append(out, relative{Kind: r.Kind, Versus: base, Rate: r.NodeRate / sum[i].NodeRate, CPUPerReq: div(r.NodeCPUPerReq, sum[i].NodeCPUPerReq)})
		}
	}
	return out
}

// printVersus writes the comparisons with the -versus kind.
func printVersus(w io.Writer, base string, vs []relative) {
	if len(vs) == 0 {
		return
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "kind	÷ %s (node): req/s	CPU/req	\n", base)
	for _, v := range vs {
		fmt.Fprintf(tw, "%s	%.2f	%.2f	\n", v.Kind, v.Rate, v.CPUPerReq)
	}
	tw.Flush()
}
