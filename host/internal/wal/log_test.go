package wal

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// bodies returns n distinct bodies of size bytes each, named by from.
func bodies(from, n, size int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		b := bytes.Repeat([]byte{byte(from + i)}, size)
		copy(b, fmt.Sprint(from+i))
		out[i] = b
	}
	return out
}

func open(t *testing.T, path string) (*Log, [][]byte) {
	t.Helper()
	l, recs, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	var got [][]byte
	for _, r := range recs {
		got = append(got, r.Body)
	}
	return l, got
}

func appendAll(t *testing.T, l *Log, bs [][]byte) []uint64 {
	t.Helper()
	ids, err := l.Append(bs)
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// replayed counts the records the file at path holds.
func replayed(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	bodies, _, _ := Decode(data)
	return len(bodies)
}

func size(t *testing.T, path string) int64 {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Size()
}

// TestReplay appends batches, some records dropped, and checks what Open
// gives back, in order, leaving aside the file of a compaction a crash
// interrupted.
func TestReplay(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log")
	l, got := open(t, path)
	if len(got) != 0 {
		t.Fatalf("a new log replays %d records", len(got))
	}
	first := appendAll(t, l, bodies(0, 3, 10))
	appendAll(t, l, bodies(3, 2, 0))
	if err := l.Drop(first[1:2]); err != nil {
		t.Fatal(err)
	}
	l.Close()
	if err := os.WriteFile(tmpPath(path), appendRecord(nil, []byte("half a compaction")), 0o600); err != nil {
		t.Fatal(err)
	}
	_, got = open(t, path)
	if _, err := os.Stat(tmpPath(path)); err == nil {
		t.Errorf("Open left %s", tmpPath(path))
	}
	// A dropped record stays in the file until the log is emptied or
	// compacted: replay gives it back, and its owner drops it again.
	if diff := cmp.Diff(append(bodies(0, 3, 10), bodies(3, 2, 0)...), got); diff != "" {
		t.Errorf("replayed records (-want +got):\n%s", diff)
	}
}

// TestTornTail damages the last record of a log as a crash may, in a file
// still as long as it grew (the damaged bytes' place zeros, as where an
// unsynced write was lost) or cut short, and checks that replay keeps the
// whole records before the damage and that records appended afterwards
// replay after them.
func TestTornTail(t *testing.T) {
	kept := bodies(0, 2, 30)
	last := bodies(2, 1, 30)[0]
	whole := int64(2 * (headerSize + 30))
	end := whole + headerSize + 30
	for _, tc := range []struct {
		name   string
		damage func(data []byte) []byte
	}{
		{"cut in the header", func(d []byte) []byte { return d[:whole+3] }},
		{"cut after the header", func(d []byte) []byte { return d[:whole+headerSize] }},
		{"cut in the body", func(d []byte) []byte { return d[:end-1] }},
		{"a body byte flipped", func(d []byte) []byte { d[end-5] ^= 1; return d }},
		{"a length byte flipped", func(d []byte) []byte { d[whole] ^= 4; return d }},
		{"a huge length", func(d []byte) []byte { copy(d[whole:], []byte{0xff, 0xff, 0xff, 0xff}); return d }},
		{"zeros", func(d []byte) []byte { return append(d[:whole], make([]byte, 100)...) }},
	} {
		for _, grown := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/grown=%v", tc.name, grown), func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "log")
				l, _ := open(t, path)
				appendAll(t, l, kept)
				appendAll(t, l, [][]byte{last})
				l.Close()
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				damaged := tc.damage(bytes.Clone(data[:end]))
				if grown {
					damaged = append(damaged, make([]byte, len(data)-len(damaged))...)
				}
				if err := os.WriteFile(path, damaged, 0o600); err != nil {
					t.Fatal(err)
				}
				testReplayAfterDamage(t, path, kept)
			})
		}
	}
}

// testReplayAfterDamage checks that the log at path replays kept, then
// kept and a record appended.
func testReplayAfterDamage(t *testing.T, path string, kept [][]byte) {
	t.Helper()
	l, got := open(t, path)
	if diff := cmp.Diff(kept, got); diff != "" {
		t.Fatalf("replayed records (-want +got):\n%s", diff)
	}
	after := bodies(7, 1, 5)
	appendAll(t, l, after)
	l.Close()
	_, got = open(t, path)
	if diff := cmp.Diff(append(kept, after...), got); diff != "" {
		t.Errorf("records replayed after a later append (-want +got):\n%s", diff)
	}
}

// TestDrop checks that a log whose records are all dropped is emptied (it
// replays none, and keeps its length for the next), and that one mostly of
// dropped records past compactSize is rewritten with its live records
// only, in order.
func TestDrop(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log")
	l, _ := open(t, path)
	ids := appendAll(t, l, bodies(0, 4, 100))
	if err := l.Drop(ids[:3]); err != nil {
		t.Fatal(err)
	}
	if got := replayed(t, path); got != 4 {
		t.Errorf("with a record live the log holds %d records, want all 4", got)
	}
	if err := l.Drop(ids[3:]); err != nil {
		t.Fatal(err)
	}
	if got := replayed(t, path); got != 0 {
		t.Errorf("with no record live the log holds %d records, want 0", got)
	}
	if n := size(t, path); n != growStep {
		t.Errorf("the emptied log is %d bytes, want the %d it grew to", n, growStep)
	}

	const n, body = 300, 4000 // past compactSize
	ids = appendAll(t, l, bodies(0, n, body))
	var drop []uint64
	var live [][]byte
	for i, id := range ids {
		if i%5 == 2 {
			live = append(live, bodies(i, 1, body)...)
		} else {
			drop = append(drop, id)
		}
	}
	if err := l.Drop(drop); err != nil {
		t.Fatal(err)
	}
	if got, want := size(t, path), int64(len(live)*(headerSize+body)); got != want {
		t.Errorf("after compaction the log is %d bytes, want %d", got, want)
	}
	more := bodies(900, 2, 10)
	appendAll(t, l, more)
	l.Close()
	_, got := open(t, path)
	if diff := cmp.Diff(append(live, more...), got); diff != "" {
		t.Errorf("replayed records after compaction (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(tmpPath(path)); err == nil {
		t.Errorf("the compaction left %s", tmpPath(path))
	}
}

// TestClosed checks that a closed log refuses appends.
func TestClosed(t *testing.T) {
	l, _ := open(t, filepath.Join(t.TempDir(), "log"))
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(bodies(0, 1, 1)); !errors.Is(err, ErrClosed) {
		t.Errorf("appending to a closed log: %v, want ErrClosed", err)
	}
	if err := l.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
}
