package eidsync

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Progress is how far a scan has got, and how fast it goes.
type Progress struct {
	Synced     uint64 // the sink's head: the last block applied
	HaveSynced bool   // the sink has a head (false before the first Apply of an empty sink)
	Head       uint64 // the upstream's head, as last asked
	Lag        uint64 // blocks from Synced to Head
	CaughtUp   bool   // Synced is Head

	// Counted since Run began: blocks applied, the operations found in
	// them, those whose didLog says create (DIDs created), and DID
	// transactions the chain refused (status 0 or no didLog).
	Blocks, Ops, DIDs, Refused uint64
	Reorgs                     int    // reorganisations followed
	RolledBack                 uint64 // blocks the last one dropped

	Rate    float64       // blocks applied a second, over the last rateWindow
	ETA     time.Duration // to reach Head at Rate; 0 once caught up or while Rate is 0
	Elapsed time.Duration // since Run began
	Err     error         // the upstream's last failure; nil since a pass succeeded
}

// rateWindow is how far back the rate is measured.
const rateWindow = 10 * time.Second

// Progress returns the scan's progress now. It is safe to call from any
// goroutine: a node's state reports the lag from it.
func (s *Scanner) Progress() Progress {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.snapshot(time.Now())
}

func (s *Scanner) snapshot(now time.Time) Progress {
	p := s.p
	if p.HaveSynced && p.Head > p.Synced {
		p.Lag = p.Head - p.Synced
	} else if !p.HaveSynced {
		p.Lag = p.Head - min(p.Head, s.from) + 1
	}
	p.CaughtUp = p.HaveSynced && p.Lag == 0
	p.Elapsed = now.Sub(s.start)
	if len(s.samples) > 1 {
		a, b := s.samples[0], s.samples[len(s.samples)-1]
		if d := b.at.Sub(a.at).Seconds(); d > 0 {
			p.Rate = float64(b.blocks-a.blocks) / d
		}
	}
	if p.Rate > 0 && p.Lag > 0 {
		p.ETA = time.Duration(float64(p.Lag) / p.Rate * float64(time.Second)).Round(time.Second)
	}
	return p
}

// update changes the progress with change and reports it when it is time
// to, or at once when now is set or the scan has just caught up.
func (s *Scanner) update(change func(*Progress), now bool) {
	t := time.Now()
	s.mu.Lock()
	was := s.snapshot(t).CaughtUp
	blocks := s.p.Blocks
	change(&s.p)
	if s.p.Blocks != blocks || len(s.samples) == 0 {
		s.samples = append(s.samples, sample{t, s.p.Blocks})
		for len(s.samples) > 2 && t.Sub(s.samples[1].at) > rateWindow {
			s.samples = s.samples[1:]
		}
	}
	p := s.snapshot(t)
	due := s.report != nil && (now || t.Sub(s.reported) >= s.reportEvery || (p.CaughtUp && !was))
	if due {
		s.reported = t
	}
	s.mu.Unlock()
	if due {
		s.report(p)
	}
}

// Renderer shows a scan's progress: a bar redrawn in place on a
// terminal, otherwise a plain line at most every plainEvery.
type Renderer struct {
	w      io.Writer
	bar    bool
	shown  time.Time
	drawn  bool
	caught bool
}

// plainEvery is the least time between two plain lines, but for lines
// that say the scan caught up, fell behind or failed.
const plainEvery = 10 * time.Second

// NewRenderer returns a Renderer writing to w: a bar when bar is set (w is
// a terminal), else plain lines. The caller decides.
func NewRenderer(w io.Writer, bar bool) *Renderer { return &Renderer{w: w, bar: bar} }

// Show shows p: give it as a Config.Report.
func (r *Renderer) Show(p Progress) {
	now := time.Now()
	news := p.CaughtUp != r.caught || p.Err != nil
	r.caught = p.CaughtUp
	if r.bar {
		fmt.Fprintf(r.w, "\r%s\x1b[K", Line(p, true))
		r.drawn = true
		return
	}
	if !news && now.Sub(r.shown) < plainEvery {
		return
	}
	r.shown = now
	fmt.Fprintln(r.w, Line(p, false))
}

// End ends the bar's line, if one is drawn.
func (r *Renderer) End() {
	if r.drawn {
		fmt.Fprintln(r.w)
		r.drawn = false
	}
}

// Line describes p in one line, with a bar of the share of the chain
// synced when bar is set.
func Line(p Progress, bar bool) string {
	var b strings.Builder
	if bar {
		const width = 30
		done := width
		if p.Head > 0 {
			done = int(float64(p.Synced) / float64(p.Head) * width)
		}
		done = min(max(done, 0), width)
		b.WriteString("[" + strings.Repeat("#", done) + strings.Repeat(".", width-done) + "] ")
	} else {
		b.WriteString("eid sync: ")
	}
	fmt.Fprintf(&b, "block %d of %d", p.Synced, p.Head)
	if p.CaughtUp {
		b.WriteString(" (at the head)")
	} else {
		fmt.Fprintf(&b, " (%d behind)", p.Lag)
	}
	fmt.Fprintf(&b, ", %.0f blocks/s, %d DIDs, %d operations", p.Rate, p.DIDs, p.Ops)
	if p.ETA > 0 {
		fmt.Fprintf(&b, ", %v left", p.ETA)
	}
	if p.Reorgs > 0 {
		fmt.Fprintf(&b, ", %d reorgs", p.Reorgs)
	}
	if p.Err != nil {
		fmt.Fprintf(&b, "; upstream: %v", p.Err)
	}
	return b.String()
}
