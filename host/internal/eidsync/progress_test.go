package eidsync_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/host/internal/eidsync"
)

// TestLine checks what a progress line says.
func TestLine(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    eidsync.Progress
		bar  bool
		want string
	}{
		{"behind, plain", eidsync.Progress{Synced: 1000, Head: 34000000, Lag: 33999000, Rate: 5120.4, DIDs: 12, Ops: 40, ETA: 6640 * time.Second},
			false, "eid sync: block 1000 of 34000000 (33999000 behind), 5120 blocks/s, 12 DIDs, 40 operations, 1h50m40s left"},
		{"half, bar", eidsync.Progress{Synced: 50, Head: 100, Lag: 50, Rate: 10, ETA: 5 * time.Second},
			true, "[###############...............] block 50 of 100 (50 behind), 10 blocks/s, 0 DIDs, 0 operations, 5s left"},
		{"at the head, bar", eidsync.Progress{Synced: 100, Head: 100, CaughtUp: true, Reorgs: 2},
			true, "[##############################] block 100 of 100 (at the head), 0 blocks/s, 0 DIDs, 0 operations, 2 reorgs"},
		{"failing", eidsync.Progress{Synced: 7, Head: 9, Lag: 2, Err: errors.New("eid: eth_blockNumber: refused")},
			false, "eid sync: block 7 of 9 (2 behind), 0 blocks/s, 0 DIDs, 0 operations; upstream: eid: eth_blockNumber: refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := eidsync.Line(tc.p, tc.bar); got != tc.want {
				t.Errorf("Line:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestRenderer checks that a bar is redrawn in place at every report,
// and plain lines are written when there is news (caught up, fell behind,
// failed) or after a while, not at every report.
func TestRenderer(t *testing.T) {
	behind := eidsync.Progress{Synced: 1, Head: 9, Lag: 8}
	caught := eidsync.Progress{Synced: 9, Head: 9, CaughtUp: true}
	failing := eidsync.Progress{Synced: 9, Head: 9, CaughtUp: true, Err: errors.New("down")}
	for _, tc := range []struct {
		name      string
		bar       bool
		shows     []eidsync.Progress
		wantLines int // plain lines, or bar redraws
	}{
		{"plain, quiet", false, []eidsync.Progress{behind, behind, behind}, 1},
		{"plain, news", false, []eidsync.Progress{behind, behind, caught, caught, failing, behind}, 4},
		{"bar", true, []eidsync.Progress{behind, behind, caught}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			r := eidsync.NewRenderer(&b, tc.bar)
			for _, p := range tc.shows {
				r.Show(p)
			}
			r.End()
			sep := "\n"
			if tc.bar {
				sep = "\r"
			}
			if got := strings.Count(b.String(), sep); got != tc.wantLines {
				t.Errorf("%d lines in %q, want %d", got, b.String(), tc.wantLines)
			}
			if tc.bar && !strings.HasSuffix(b.String(), "\n") {
				t.Errorf("End left the bar's line open: %q", b.String())
			}
		})
	}
}

func ExampleLine() {
	p := eidsync.Progress{Synced: 17000000, Head: 34000000, Lag: 17000000, Rate: 6000, DIDs: 52000, Ops: 180000, ETA: 47 * time.Minute}
	fmt.Println(eidsync.Line(p, true))
	// Output: [###############...............] block 17000000 of 34000000 (17000000 behind), 6000 blocks/s, 52000 DIDs, 180000 operations, 47m0s left
}
