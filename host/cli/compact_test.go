package cli

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/host/internal/store/bolt"
)

// A node's data directory compacts to the same chain; what cannot be
// compacted is refused with its reason and the right exit code.
func TestCompact(t *testing.T) {
	dir, height, tip := minedDir(t, 3)
	for _, tc := range []struct {
		name  string
		args  []string
		inUse bool // a node holds dir
		code  int
		want  string // in stdout on success, else in stderr
	}{
		{"in use", []string{"--datadir", dir}, true, exitFail, "another process holds " + filepath.Join(dir, bolt.FileName)},
		{"compacts", []string{"--datadir", dir}, false, exitOK, "compacted " + filepath.Join(dir, bolt.FileName) + " in "},
		{"no store", []string{"--datadir", t.TempDir()}, false, exitFail, "no store"},
		{"no datadir", nil, false, exitUsage, "--datadir is required"},
		{"an argument", []string{"--datadir", dir, "more"}, false, exitUsage, `unexpected argument "more"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.inUse {
				db, err := bolt.Open(dir, bolt.Options{})
				if err != nil {
					t.Fatal(err)
				}
				defer db.Close()
			}
			code, out, errOut := devnetCLI(append([]string{"compact"}, tc.args...)...)
			got := errOut
			if code == exitOK {
				got = out
			}
			if code != tc.code || !strings.Contains(got, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d saying %q", code, out, errOut, tc.code, tc.want)
			}
		})
	}
	if h, tip2 := tipOf(t, dir); h != height || tip2 != tip {
		t.Errorf("compacted chain at %d %s, was at %d %s", h, tip2, height, tip)
	}
}

// On a terminal the progress is a bar redrawn at every update; elsewhere
// a line every plainEvery.
func TestCompactProgress(t *testing.T) {
	for i, tc := range []struct {
		bar  bool
		want string
	}{
		{true, "\r[###...........................]  10% 1.0 MB written of a 10.0 MB store" +
			"\r[###############...............]  50% 5.0 MB written of a 10.0 MB store" +
			"\r[##############################] 100% 12.0 MB written of a 10.0 MB store\n"},
		{false, "compacting:  50% 5.0 MB written of a 10.0 MB store\n"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			var w bytes.Buffer
			now := time.Unix(1000, 0)
			p := &compactProgress{w: &w, bar: tc.bar, total: 10e6, now: func() time.Time { return now }, shown: now}
			now = now.Add(barEvery)
			p.update(1e6) // too soon for a line
			now = now.Add(plainEvery)
			p.update(5e6)
			now = now.Add(barEvery)
			p.update(12e6) // more than the store: a full bar
			p.end()
			if w.String() != tc.want {
				t.Errorf("bar %v:\n got %q\nwant %q", tc.bar, w.String(), tc.want)
			}
		})
	}
}
