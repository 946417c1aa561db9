package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/chaingen"
	"github.com/didlight/didlight/host/internal/store/bolt"
)

// generate runs `didlight devnet generate` with args and returns its exit
// code and outputs.
func generate(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := Run(append([]string{"devnet", "generate"}, args...), &out, &errOut)
	return code, out.String(), errOut.String()
}

// tipOf returns the tip of the store in dir.
func tipOf(t *testing.T, dir string) (uint32, string) {
	t.Helper()
	db, err := bolt.Open(dir, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c, err := chain.Open(chain.Config{DB: db})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	h, tip, _ := c.Tip()
	return h, tip.String()
}

// minedDir returns a new data directory holding a node's chain (not a
// generated one) of blocks mined blocks, and its height and tip.
func minedDir(t *testing.T, blocks int) (dir string, height uint32, tip string) {
	t.Helper()
	dir = t.TempDir()
	db, err := bolt.Open(dir, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := chain.Open(chain.Config{DB: db})
	if err != nil {
		t.Fatal(err)
	}
	for range blocks {
		if _, err := c.Mine(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	c.Close()
	db.Close()
	height, tip = tipOf(t, dir)
	return dir, height, tip
}

// A generation writes the store and its record; a second one needs
// --force; --force replaces it with the same chain for the same seed.
func TestDevnetGenerate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "chain")
	code, out, errOut := generate("--dids", "40", "--datadir", dir)
	if code != 0 || !strings.Contains(out, "generated 40 DIDs") || !strings.Contains(errOut, "generating: 100% 40 DIDs") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	height, tip := tipOf(t, dir)
	if height == 0 {
		t.Fatal("the generated chain is at its genesis")
	}
	for _, name := range []string{bolt.FileName, generatedFile} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
	for _, left := range []string{filepath.Join(dir, generatedDir), bolt.CompactPath(dir)} {
		if _, err := os.Stat(left); !os.IsNotExist(err) {
			t.Errorf("%s is left behind: %v", left, err)
		}
	}
	if code, _, errOut := generate("--dids", "40", "--datadir", dir); code != exitUsage || !strings.Contains(errOut, "not empty; give --force") {
		t.Errorf("a second generation without --force: exit %d, %s", code, errOut)
	}
	if code, _, errOut := generate("--dids", "40", "--datadir", dir, "--force"); code != 0 {
		t.Fatalf("--force: exit %d, %s", code, errOut)
	}
	if h2, tip2 := tipOf(t, dir); h2 != height || tip2 != tip {
		t.Errorf("regenerated with the same seed: tip %d %s, first %d %s", h2, tip2, height, tip)
	}
}

// A generation stopped (Ctrl-C) while it copies its store into place
// leaves no store in the data directory, only what --force removes; the
// store it generated is still whole.
func TestGenerateInstallStopped(t *testing.T) {
	dir := t.TempDir()
	tmp := filepath.Join(dir, generatedDir)
	db, err := bolt.Open(tmp, bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := chaingen.Generate(context.Background(), db, chaingen.Options{Seed: "s", DIDs: 20, DevSeed: chain.DefaultDevSeed})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g := generated{Seed: "s", DevSeed: chain.DefaultDevSeed, DIDs: 20, Height: rep.Height}
	if err := install(ctx, newEnv(io.Discard, io.Discard), dir, db, g, false); !errors.Is(err, context.Canceled) {
		t.Errorf("install stopped: %v, want context.Canceled", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	for _, left := range []string{filepath.Join(dir, bolt.FileName), bolt.CompactPath(dir)} {
		if _, err := os.Stat(left); !os.IsNotExist(err) {
			t.Errorf("%s is there: %v", left, err)
		}
	}
	if h, _ := tipOf(t, tmp); h != rep.Height {
		t.Errorf("the generated store is at %d, want %d", h, rep.Height)
	}
	if code, _, errOut := generate("--dids", "20", "--seed", "s", "--datadir", dir); code != exitUsage {
		t.Errorf("without --force: exit %d, %s", code, errOut)
	}
	if code, _, errOut := generate("--dids", "20", "--seed", "s", "--datadir", dir, "--force"); code != 0 {
		t.Fatalf("--force: exit %d, %s", code, errOut)
	}
	if h, _ := tipOf(t, dir); h != rep.Height {
		t.Errorf("generated again at %d, want %d", h, rep.Height)
	}
}

// A chain another node made is never touched, even with --force; bad
// flags are usage errors.
func TestDevnetGenerateRefuses(t *testing.T) {
	dir, _, tip := minedDir(t, 1)
	for i, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--dids", "10", "--datadir", dir, "--force"}, "did not generate (no generated.json)"},
		{[]string{"--dids", "0", "--datadir", t.TempDir()}, "--dids must be at least 1"},
		{[]string{"--dids", "10"}, "--datadir is required"},
		{[]string{"--dids", "10", "--datadir", t.TempDir(), "--seed", ""}, "must not be empty"},
		{[]string{"--dids", "10", "--datadir", t.TempDir(), "extra"}, "extra"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if code, _, errOut := generate(tc.args...); code != exitUsage || !strings.Contains(errOut, tc.want) {
				t.Errorf("%q: exit %d, %s; want exit %d saying %q", tc.args, code, errOut, exitUsage, tc.want)
			}
		})
	}
	if h, tip2 := tipOf(t, dir); h != 1 || tip2 != tip {
		t.Errorf("the node's chain is now at %d %s, was at 1 %s", h, tip2, tip)
	}
}

// On a terminal the progress is a bar redrawn in place, at most every
// barEvery; elsewhere a line every plainEvery, and the last one always.
func TestGenerateProgress(t *testing.T) {
	now := time.Unix(1000, 0)
	clock := func() time.Time { return now }
	for _, tc := range []struct {
		bar  bool
		want string
	}{
		{true, "\r[###############...............]  50% 100 DIDs, 150 operations, 10 DIDs/s, 10s left" +
			"\r[##############################] 100% 200 DIDs, 300 operations, 10 DIDs/s, 0s left\n"},
		{false, "generating:  50% 100 DIDs, 150 operations, 10 DIDs/s, 10s left\n" +
			"generating: 100% 200 DIDs, 300 operations, 10 DIDs/s, 0s left\n"},
	} {
		var w bytes.Buffer
		now = time.Unix(1000, 0)
		p := newProgress(&w, tc.bar, clock)
		now = now.Add(10 * time.Millisecond)
		p.update(chaingen.Progress{Block: 1, Blocks: 10, DIDs: 1}) // too soon: not shown
		now = time.Unix(1010, 0)
		p.update(chaingen.Progress{Block: 5, Blocks: 10, DIDs: 100, Ops: 150})
		now = time.Unix(1020, 0)
		p.update(chaingen.Progress{Block: 10, Blocks: 10, DIDs: 200, Ops: 300})
		p.end()
		if w.String() != tc.want {
			t.Errorf("bar %v:\n got %q\nwant %q", tc.bar, w.String(), tc.want)
		}
	}
}

// A generation has the collector work at generateGCPercent within
// generateMemLimit, unless GOGC or GOMEMLIMIT is set, and restores both.
func TestTuneGC(t *testing.T) {
	percent, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetGCPercent(percent); debug.SetMemoryLimit(limit) })
	for i, tc := range []struct {
		env                string
		wantPct, wantLimit int64
	}{
		{"", generateGCPercent, generateMemLimit},
		{"GOGC", 100, math.MaxInt64},
		{"GOMEMLIMIT", 100, math.MaxInt64},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			restore := tuneGC(func(k string) string {
				if k == tc.env {
					return "1"
				}
				return ""
			})
			pct, lim := int64(debug.SetGCPercent(-1)), debug.SetMemoryLimit(-1)
			debug.SetGCPercent(int(pct))
			restore()
			if pct != tc.wantPct || lim != tc.wantLimit {
				t.Errorf("%q set: GC percent %d, limit %d; want %d, %d", tc.env, pct, lim, tc.wantPct, tc.wantLimit)
			}
			if now, lim := debug.SetGCPercent(-1), debug.SetMemoryLimit(-1); now != 100 || lim != math.MaxInt64 {
				t.Errorf("%q set: restored to %d, %d; want 100, %d", tc.env, now, lim, int64(math.MaxInt64))
			}
			debug.SetGCPercent(100)
		})
	}
}
