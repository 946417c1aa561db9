package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/didlight/didlight/host/internal/rss"
)

// writeTable writes the results as a Markdown table, one column per
// chain, then the plan of each query on the largest chain.
func writeTable(w io.Writer, cols []*result) error {
	var b strings.Builder
	b.WriteString("| measure |")
	for _, r := range cols {
		fmt.Fprintf(&b, " %d DIDs |", r.DIDs)
	}
	b.WriteString("\n|---|")
	for range cols {
		b.WriteString("---:|")
	}
	b.WriteByte('\n')
	row := func(name string, cell func(r *result) string) {
		fmt.Fprintf(&b, "| %s |", name)
		for _, r := range cols {
			fmt.Fprintf(&b, " %s |", cell(r))
		}
		b.WriteByte('\n')
	}
	mb := func(n int64) string { return fmt.Sprintf("%.0f MB", float64(n)/1e6) }
	mem := func(m rss.Usage) string { return fmt.Sprintf("%s own + %s mapped store", mb(m.Anon), mb(m.File)) }
	row("blocks", func(r *result) string { return fmt.Sprint(r.Height) })
	row("generation, wall (CPU)", func(r *result) string {
		return fmt.Sprintf("%.0f s (%.0f s)", r.Generation.WallSeconds, r.Generation.CPUSeconds)
	})
	row("generation rate, DIDs/s of wall", func(r *result) string { return fmt.Sprintf("%.0f", float64(r.DIDs)/r.Generation.WallSeconds) })
	row("store size", func(r *result) string { return mb(r.Generation.StoreBytes) })
	row("node start (`didlight node` to ready)", func(r *result) string { return fmt.Sprintf("%.2f s", r.NodeStartSeconds) })
	row("node RSS after start: RssAnon + RssFile", func(r *result) string { return mem(r.NodeRSS) })
	row("chain open in the measuring process", func(r *result) string { return fmt.Sprintf("%.3f s", r.OpenSeconds) })
	row("RSS after open", func(r *result) string { return mem(r.RSSOpen) })
	row("RSS after the queries and mixed calls, nothing trimmed", func(r *result) string { return mem(r.RSSMixed) })
	row("RSS after the node's trim (at most --map-budget mapped)", func(r *result) string { return mem(r.RSSTrimmed) })
	row("resolvedid CPU per call, all=false, built, store pages cold (first read by the process)", func(r *result) string { return fmt.Sprintf("%.1f µs", r.ResolveCold) })
	row("resolvedid CPU per call, all=true, built, store pages cold", func(r *result) string { return fmt.Sprintf("%.1f µs", r.ResolveAllCold) })
	row("resolvedid CPU per call, all=false, built, store pages warm", func(r *result) string { return fmt.Sprintf("%.1f µs", r.ResolveBuilt) })
	row("resolvedid CPU per call, all=true, built, store pages warm", func(r *result) string { return fmt.Sprintf("%.1f µs", r.ResolveAllBuilt) })
	row("resolvedid CPU per call, all=false, asked again (answer kept for the tip)", func(r *result) string { return fmt.Sprintf("%.1f µs", r.Resolve) })
	row("resolvedid CPU per call, all=true, asked again (answer kept for the tip)", func(r *result) string { return fmt.Sprintf("%.1f µs", r.ResolveAll) })
	for i := range cols[0].Queries {
		row("query "+cols[0].Queries[i].Name+": CPU per page of 10 (total)", func(r *result) string {
			q := r.Queries[i]
			return fmt.Sprintf("%s (%d)", micros(q.Micros), q.Total)
		})
	}
	row("follower catch-up: blocks/s, DIDs/s", func(r *result) string {
		if r.Follow.Seconds == 0 {
			return "not measured (-follow=false)"
		}
		return fmt.Sprintf("%.1f, %.0f", float64(r.Follow.Blocks)/r.Follow.Seconds, float64(r.DIDs)/r.Follow.Seconds)
	})
	row("follower DIDs/s ÷ generation DIDs/s", func(r *result) string {
		if r.Follow.Seconds == 0 {
			return "not measured"
		}
		return fmt.Sprintf("%.2f", r.Generation.WallSeconds/r.Follow.Seconds)
	})
	last := cols[len(cols)-1]
	fmt.Fprintf(&b, "\nPlans on %d DIDs:\n\n", last.DIDs)
	for _, q := range last.Queries {
		fmt.Fprintf(&b, "- %s: %s\n", q.Name, q.Plan)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// micros formats a CPU time in microseconds, as ms above a thousand.
func micros(us float64) string {
	if us >= 1000 {
		return fmt.Sprintf("%.1f ms", us/1000)
	}
	return fmt.Sprintf("%.0f µs", us)
}
