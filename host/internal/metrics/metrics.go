// Package metrics makes the Prometheus collectors of a node's parts: its chain, light resolver or EID follower, and the Go runtime.
//
// Each collector reads the counts its part already keeps when the metrics
// are scraped (chain.Chain's counts and the answers its reads kept,
// light.Resolver's answer counts, eidindex's operation counts and eidsync's
// progress), so that serving costs nothing more between scrapes. The
// server's own metrics (requests, durations, readiness) are
// host/internal/api's.
package metrics

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/didlight/didlight/host/internal/answers"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/eidindex"
	"github.com/didlight/didlight/host/internal/eidsync"
	"github.com/didlight/didlight/host/internal/light"
)

// NewRegistry returns a registry holding the Go runtime's metrics (go_*)
// and the process's (process_*: CPU, memory, open files), and the
// collectors given.
func NewRegistry(parts ...prometheus.Collector) *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	reg.MustRegister(parts...)
	return reg
}

var (
	blocksDesc = prometheus.NewDesc("didlight_blocks_applied_total",
		"Blocks the node's chain made or applied, or its EID index applied, since the process started.", nil, nil)
	answersDesc = prometheus.NewDesc("didlight_answers_total",
		"DID read answers (resolve, query pages, W3C), by source: kept (served from what was kept for the head, unbuilt) or built.", []string{"source"}, nil)
	operationsDesc = prometheus.NewDesc("didlight_operations_total",
		"DID and credential operations, by outcome. applied: in the blocks the node's chain made or applied since it started (a devnet, a follower), or verified and indexed by an EID follower. "+
			"refused: a devnet's submissions of an operation (sendrawtransaction of a transaction of type 0x0a, /idtx) answered with a refusal, whatever rule it broke, since it started; an EID follower's operations of EID blocks that failed verification, not indexed. "+
			"waived (an EID follower only): of the applied, those indexed under a rule EID did not check then. An EID follower's counts are its index's, since the index was made.", []string{"outcome"}, nil)
	lightDesc = prometheus.NewDesc("didlight_light_answers_total",
		"A light node's answers, by outcome: kept (served from what was kept for the head), asked (of the upstream), verified (in full), reused (the same bytes at a new head), refused (failed verification), failed (the upstream did not answer).", []string{"outcome"}, nil)
	reorgsDesc = prometheus.NewDesc("didlight_reorgs_total",
		"Reorganisations of the EID chain the follower followed since it started.", nil, nil)
)

// counter is a counter's value now, for a collector.
func counter(d *prometheus.Desc, v uint64, labels ...string) prometheus.Metric {
	return prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v), labels...)
}

// answerMetrics are the counts of answers kept and built.
func answerMetrics(ch chan<- prometheus.Metric, c answers.Counts) {
	ch <- counter(answersDesc, c.Kept, "kept")
	ch <- counter(answersDesc, c.Built, "built")
}

// chainCollector collects a chain's blocks, operations and answers.
type chainCollector struct{ c *chain.Chain }

// Chain returns the collector of a devnet's or follower's chain: the
// blocks it made or applied and the operations they carry, the operations
// a devnet refused (a follower takes none: it relays them to its
// upstream), and the DID read answers found kept. Its counts are the
// chain's (chain.Counts), since it was opened.
func Chain(c *chain.Chain) prometheus.Collector { return chainCollector{c} }

func (x chainCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- blocksDesc
	ch <- operationsDesc
	ch <- answersDesc
}

func (x chainCollector) Collect(ch chan<- prometheus.Metric) {
	c := x.c.Counts()
	ch <- counter(blocksDesc, c.Blocks)
	ch <- counter(operationsDesc, c.Operations, "applied")
	if x.c.Devnet() {
		ch <- counter(operationsDesc, c.Refused, "refused")
	}
	answerMetrics(ch, x.c.AnswerCounts())
}

// eidCollector collects an EID follower's index and scan.
type eidCollector struct {
	ix   *eidindex.Index
	scan *eidsync.Scanner
}

// EIDFollower returns the collector of an EID follower: the blocks its
// scan applied, the operations its index applied, waived and refused, the
// reorganisations followed, and the DID read answers found kept.
func EIDFollower(ix *eidindex.Index, scan *eidsync.Scanner) prometheus.Collector {
	return eidCollector{ix: ix, scan: scan}
}

func (x eidCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- blocksDesc
	ch <- operationsDesc
	ch <- reorgsDesc
	ch <- answersDesc
}

func (x eidCollector) Collect(ch chan<- prometheus.Metric) {
	p := x.scan.Progress()
	ch <- counter(blocksDesc, p.Blocks)
	ch <- counter(reorgsDesc, uint64(p.Reorgs))
	c := x.ix.Counts()
	ch <- counter(operationsDesc, c.Applied, "applied")
	ch <- counter(operationsDesc, c.Waived, "waived")
	ch <- counter(operationsDesc, c.Refused, "refused")
	answerMetrics(ch, x.ix.AnswerCounts())
}

// lightCollector collects a light resolver's answer counts.
type lightCollector struct{ r *light.Resolver }

// Light returns the collector of a light node: its answers served from
// what was kept, asked of the upstream, verified, reused, refused and
// failed.
func Light(r *light.Resolver) prometheus.Collector { return lightCollector{r} }

func (x lightCollector) Describe(ch chan<- *prometheus.Desc) { ch <- lightDesc }

func (x lightCollector) Collect(ch chan<- prometheus.Metric) {
	c := x.r.State().Answers
	for _, o := range []struct {
		name string
		v    uint64
	}{{"kept", c.Kept}, {"asked", c.Asked}, {"verified", c.Verified}, {"reused", c.Reused}, {"refused", c.Refused}, {"failed", c.Failed}} {
		ch <- counter(lightDesc, o.v, o.name)
	}
}
