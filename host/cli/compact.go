package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/store/bolt"
)

func runCompact(args []string, stdout, stderr io.Writer) int {
	e := newEnv(stdout, stderr)
	return finish(e, "didlight compact", compactCmd(e, args))
}

func compactCmd(e *env, args []string) error {
	c := newCommand("compact", "", `
Rewrites a stopped node's store so that each bucket lies in one run of
pages: a chain written block by block has its buckets' pages interleaved
over the whole file, which makes every full scan (a find) slower and a
trimmed node fault more. Run it now and then on a long-running node's data
directory ("devnet generate" leaves its store compacted; docs/scale.md).

It writes a new file beside the store and renames it over the store once
synced, so a run killed midway leaves the store as it was (the next run
removes the partial file). Other files in --datadir are left alone. A store
in use by a running node is refused: stop the node first. Progress goes to
stderr.`, `
  didlight compact --datadir ~/.didlight
  didlight compact --datadir /tmp/chain100k --plain-progress`)
	var (
		dir           string
		plainProgress bool
	)
	c.fs.StringVar(&dir, "datadir", "", "the data directory whose store to compact (required)")
	c.fs.BoolVar(&plainProgress, "plain-progress", false, "print progress as lines even on a terminal")
	if err := noArgs(c, e, args); err != nil {
		return err
	}
	if dir == "" {
		return usagef("--datadir is required")
	}
	total := int64(0)
	if info, err := os.Stat(filepath.Join(dir, bolt.FileName)); err == nil {
		total = info.Size()
	}
	stop := watchCompaction(e, dir, total, e.term.isTerminal(e.stderr) && !plainProgress)
	done, err := bolt.Compact(dir, bolt.CompactOptions{Check: chain.CheckFormat})
	stop()
	if errors.Is(err, bolt.ErrInUse) {
		return fmt.Errorf("%w; stop the node first", err)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "compacted %s in %s: %.1f MB -> %.1f MB\n",
		filepath.Join(dir, bolt.FileName), done.Took.Round(time.Millisecond), float64(done.Before)/1e6, float64(done.After)/1e6)
	return nil
}

// watchCompaction shows, until stop is called, the progress of a
// compaction into dir of a store of total bytes: as a bar if bar,
// otherwise as lines.
func watchCompaction(e *env, dir string, total int64, bar bool) (stop func()) {
	show := &compactProgress{w: e.stderr, bar: bar, total: total, now: time.Now}
	show.shown = show.now()
	stopPoll := every(barEvery, func() {
		if info, err := os.Stat(bolt.CompactPath(dir)); err == nil {
			show.update(info.Size())
		}
	})
	return func() {
		stopPoll()
		show.end()
	}
}

// compactProgress shows the bytes a compaction has written against the
// store's size (the copy ends up no larger): a bar redrawn in place on a
// terminal, otherwise a line every plainEvery. Only the goroutine of
// every calls update.
type compactProgress struct {
	w     io.Writer
	bar   bool
	total int64 // the store's size
	now   func() time.Time
	shown time.Time // when a line was last written
	drawn bool      // a bar is on the line
}

func (s *compactProgress) update(written int64) {
	t := s.now()
	if !s.bar && t.Sub(s.shown) < plainEvery {
		return
	}
	s.shown = t
	frac := min(float64(written)/float64(max(s.total, 1)), 1)
	text := fmt.Sprintf("%3.0f%% %.1f MB written of a %.1f MB store", 100*frac, float64(written)/1e6, float64(s.total)/1e6)
	if !s.bar {
		fmt.Fprintln(s.w, "compacting: "+text)
		return
	}
	fmt.Fprintf(s.w, "\r%s %s", drawBar(frac), text)
	s.drawn = true
}

// end ends the bar's line.
func (s *compactProgress) end() {
	if s.drawn {
		fmt.Fprintln(s.w)
	}
}
