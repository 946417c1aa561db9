package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/didlight/didlight/host/internal/chaingen"
)

// progress shows how far a generation got: a bar redrawn in place on a
// terminal, otherwise a line every plainEvery.
type progress struct {
	w     io.Writer
	bar   bool
	now   func() time.Time
	start time.Time
	shown time.Time // when something was last written
	drawn bool      // a bar is on the line
	last  chaingen.Progress
}

// Intervals between two progress displays.
const (
	barEvery   = 100 * time.Millisecond
	plainEvery = 5 * time.Second
)

func newProgress(w io.Writer, bar bool, now func() time.Time) *progress {
	t := now()
	return &progress{w: w, bar: bar, now: now, start: t, shown: t}
}

// update records p and shows it when it is time to.
func (s *progress) update(p chaingen.Progress) {
	s.last = p
	t := s.now()
	every := plainEvery
	if s.bar {
		every = barEvery
	}
	if t.Sub(s.shown) < every && p.Block < p.Blocks {
		return
	}
	s.shown = t
	if s.bar {
		fmt.Fprintf(s.w, "\r%s", s.line(p, t, true))
		s.drawn = true
		return
	}
	fmt.Fprintln(s.w, s.line(p, t, false))
}

// end ends the bar's line.
func (s *progress) end() {
	if s.drawn {
		fmt.Fprintln(s.w)
	}
}

// elapsed is the time since the generation started.
func (s *progress) elapsed() time.Duration { return s.now().Sub(s.start) }

// line describes p at time t: the share of blocks done (as a bar, on a
// terminal), DIDs, the rate and the time left at that rate.
func (s *progress) line(p chaingen.Progress, t time.Time, bar bool) string {
	frac := 0.0
	if p.Blocks > 0 {
		frac = float64(p.Block) / float64(p.Blocks)
	}
	took := t.Sub(s.start)
	rate := 0.0
	if took > 0 {
		rate = float64(p.DIDs) / took.Seconds()
	}
	eta := "?"
	if frac > 0 {
		eta = (time.Duration(float64(took)/frac) - took).Round(time.Second).String()
	}
	text := fmt.Sprintf("%3.0f%% %d DIDs, %d operations, %.0f DIDs/s, %s left", 100*frac, p.DIDs, p.Ops, rate, eta)
	if !bar {
		return "generating: " + text
	}
	return drawBar(frac) + " " + text
}

// drawBar draws the share frac (0 to 1) of a job done as a bar.
func drawBar(frac float64) string {
	const width = 30
	done := int(frac * width)
	return "[" + strings.Repeat("#", done) + strings.Repeat(".", width-done) + "]"
}
