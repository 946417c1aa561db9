package main

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"
)

// openRatio sums up one kind's open-loop runs over every round: the node's
// latencies (the mean of the rounds' percentiles) and CPU per request, and
// each as a ratio to the reference's, at the same rates.
type openRatio struct {
	Kind          string        `json:"kind"`
	Rate          float64       `json:"req_per_s"` // the mean of the rounds' scheduled rates
	NodeP50       time.Duration `json:"node_p50_ns"`
	NodeP99       time.Duration `json:"node_p99_ns"`
	NodeP999      time.Duration `json:"node_p999_ns"`
	NodeCPUPerReq time.Duration `json:"node_cpu_per_req_ns"`
	P50           float64       `json:"p50_ratio"` // node ÷ reference: above 1 is slower
	P99           float64       `json:"p99_ratio"`
	P999          float64       `json:"p999_ratio"`
	CPUPerReq     float64       `json:"cpu_per_req_ratio"` // node ÷ reference: above 1 costs more
	Invalid       int           `json:"invalid_runs"`      // runs, either server's, whose schedule did not hold
}

// openTotal is a server's open-loop runs of one kind added up.
type openTotal struct {
	rate           float64
	p50, p99, p999 time.Duration
	cpu            time.Duration // CPU per request times requests
	requests       int64
	runs, invalid  int
}

func (t *openTotal) add(m openMeasurement) {
	t.rate += m.Rate
	t.p50 += m.P50
	t.p99 += m.P99
	t.p999 += m.P999
	t.cpu += m.CPUPerReq * time.Duration(m.Requests)
	t.requests += m.Requests
	t.runs++
	if m.Invalid != "" {
		t.invalid++
	}
}

// mean is the mean of a sum over the runs.
func (t openTotal) mean(sum time.Duration) time.Duration { return sum / time.Duration(t.runs) }

func (t openTotal) cpuPerReq() time.Duration { return t.cpu / time.Duration(t.requests) }

// summarizeOpens adds up each kind's open-loop runs per server and divides.
func summarizeOpens(runs []openMeasurement, ks []kind) []openRatio {
	var out []openRatio
	for _, k := range ks {
		var node, ref openTotal
		addUp(runs, k.name, &node, &ref)
		if node.runs == 0 || ref.runs == 0 {
			continue
		}
		out = append(out, openRatio{Kind: k.name, Rate: (node.rate + ref.rate) / float64(node.runs+ref.runs),
			NodeP50: node.mean(node.p50), NodeP99: node.mean(node.p99), NodeP999: node.mean(node.p999), NodeCPUPerReq: node.cpuPerReq(),
			P50: div(node.mean(node.p50), ref.mean(ref.p50)), P99: div(node.mean(node.p99), ref.mean(ref.p99)),
			P999: div(node.mean(node.p999), ref.mean(ref.p999)), CPUPerReq: div(node.cpuPerReq(), ref.cpuPerReq()),
			Invalid: node.invalid + ref.invalid})
	}
	return out
}

// printOpen writes every open-loop run, then their summary; nothing when
// there were none.
func printOpen(w io.Writer, runs []openMeasurement, sum []openRatio) {
	if len(runs) == 0 {
		return
	}
	fmt.Fprintln(w, "\nopen loop: a fixed rate, latency from each request's due time")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "round\tkind\tserver\treq/s\tsent/s\tp50\tp99\tp99.9\tmax\tserver CPU/req\twaited\tlag p99\t")
	for _, m := range runs {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%.0f\t%.0f\t%v\t%v\t%v\t%v\t%v\t%d\t%v\t  %s\n", m.Round, m.Kind, m.Server, m.Rate, m.Achieved,
			round(m.P50), round(m.P99), round(m.P999), round(m.Max), round(m.CPUPerReq), m.Waited, round(m.LagP99), m.Invalid)
	}
	tw.Flush()
	fmt.Fprintln(w)
	fmt.Fprintln(tw, "kind\treq/s\tnode p50\tp99\tp99.9\tCPU/req\t÷ ref: p50\tp99\tp99.9\tCPU/req\tinvalid runs\t")
	for _, r := range sum {
		fmt.Fprintf(tw, "%s\t%.0f\t%v\t%v\t%v\t%v\t%.2f\t%.2f\t%.2f\t%.2f\t%d\t\n", r.Kind, r.Rate, round(r.NodeP50), round(r.NodeP99), round(r.NodeP999),
			round(r.NodeCPUPerReq), r.P50, r.P99, r.P999, r.CPUPerReq, r.Invalid)
	}
	tw.Flush()
}
