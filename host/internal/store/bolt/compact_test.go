package bolt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.etcd.io/bbolt"

	"github.com/didlight/didlight/host/internal/store"
)

// TestCompact: a compaction keeps every key, value and sequence, removes a
// temporary file a killed run left, reports sizes and leaves other files
// in the directory alone.
func TestCompact(t *testing.T) {
	dir, path := storeWith(t)
	db := openT(t, dir)
	// Deleting storeWith's bucket leaves free pages for the copy to drop.
	err := db.Update(func(tx store.Tx) error { return tx.DeleteBucket("b") })
	if err != nil {
		t.Fatal(err)
	}
	for i := range 300 {
		putT(t, db, strings.Repeat("k", i%50+1)+string(rune('a'+i%26)), strings.Repeat("v", i*10))
	}
	db.Close()
	other := filepath.Join(dir, "mempool.log")
	for name, content := range map[string]string{CompactPath(dir): "a killed run's partial file", other: "other"} {
		if err := os.WriteFile(name, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	before := fileBytes(t, path)
	done, err := Compact(dir, CompactOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(CompactPath(dir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the temporary file is still there: %v", err)
	}
	if got := string(fileBytes(t, other)); got != "other" {
		t.Errorf("another file changed: %q", got)
	}
	if done.Before != int64(len(before)) || done.After > done.Before || done.After != int64(len(fileBytes(t, path))) {
		t.Errorf("reported %+v, file was %d bytes", done, len(before))
	}
	db = openT(t, dir)
	defer db.Close()
	for i := range 300 {
		key := strings.Repeat("k", i%50+1) + string(rune('a'+i%26))
		if v, ok, seq := getT(t, db, key); !ok || v != strings.Repeat("v", i*10) || seq != 300 {
			t.Fatalf("%s: %d bytes, %v, sequence %d; want %d bytes, sequence 300", key, len(v), ok, seq, i*10)
		}
	}
}

// TestCompactRefuses: a compaction that cannot run fails with an error
// saying why and leaves the directory exactly as it was.
func TestCompactRefuses(t *testing.T) {
	refuse := errors.New("format 99")
	cases := []struct {
		name  string
		setup func(t *testing.T) (dir string, release func())
		opts  CompactOptions
		want  error  // errors.Is target, or nil
		text  string // in the message
	}{
		{"no store", func(t *testing.T) (string, func()) { return t.TempDir(), func() {} },
			CompactOptions{}, ErrNoStore, "does not exist"},
		{"in use", func(t *testing.T) (string, func()) {
			dir, _ := storeWith(t)
			db := openT(t, dir)
			return dir, func() { db.Close() }
		}, CompactOptions{LockTimeout: 50 * time.Millisecond}, ErrInUse, "another process holds"},
		{"not a store", func(t *testing.T) (string, func()) {
			dir, _ := fileOf(t, []byte(strings.Repeat("didlight?", 10000)))
			return dir, func() {}
		}, CompactOptions{}, store.ErrCorrupt, FileName},
		{"refused by check", func(t *testing.T) (string, func()) {
			dir, _ := storeWith(t)
			return dir, func() {}
		}, CompactOptions{Check: func(store.Tx) error { return refuse }}, refuse, FileName},
		{"disk too small", func(t *testing.T) (string, func()) {
			dir, _ := storeWith(t)
			diskFree = func(string) (int64, bool) { return 4096, true }
			return dir, func() { diskFree = freeSpace }
		}, CompactOptions{}, ErrNoSpace, "4096 bytes free, the copy of "},
		{"temporary path unusable", func(t *testing.T) (string, func()) {
			dir, _ := storeWith(t)
			if err := os.MkdirAll(filepath.Join(CompactPath(dir), "x"), 0o700); err != nil {
				t.Fatal(err)
			}
			return dir, func() {}
		}, CompactOptions{}, nil, ".compact"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, release := c.setup(t)
			defer release()
			before := dirState(t, dir)
			_, err := Compact(dir, c.opts)
			if err == nil || (c.want != nil && !errors.Is(err, c.want)) || !strings.Contains(err.Error(), c.text) {
				t.Fatalf("Compact: %v; want %v saying %q", err, c.want, c.text)
			}
			if after := dirState(t, dir); after != before {
				t.Errorf("the directory changed:\n%s\nwas\n%s", after, before)
			}
		})
	}
}

// dirState describes every file in dir, recursively: name and content.
func dirState(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			b.WriteString(path + "/\n")
			return err
		}
		b.WriteString(path + " ")
		b.Write(bytes.ReplaceAll(fileBytes(t, path), []byte("\n"), nil))
		b.WriteString("\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func fileBytes(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// compactChildEnv asks this test binary to compact the store in the data
// directory it names, as a child process the test kills.
const compactChildEnv = "DIDLIGHT_STORE_COMPACT_CHILD"

// compactChild says "ready", compacts the store in dir, then waits for the
// kill (crashOnce wants every child killed).
func compactChild(dir string) {
	fmt.Println("ready")
	if _, err := Compact(dir, CompactOptions{LockTimeout: 10 * time.Second}); err != nil {
		fmt.Fprintln(os.Stderr, "compact child:", err)
		os.Exit(2)
	}
	time.Sleep(time.Hour)
}

// TestCompactKilled kills compactions at random moments. The store is
// always whole with every step: as it was, byte for byte, while a
// compaction's file is still beside it, or compacted. The next compaction
// removes what a killed one left.
func TestCompactKilled(t *testing.T) {
	dir := crashDir(t, true)
	db := openT(t, dir)
	const steps = 1000
	for n := range uint64(steps) {
		if err := commitStep(db, n+1); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	path := filepath.Join(dir, FileName)
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 0))
	left := 0 // kills that left a compaction's file
	for i := range 20 {
		before := fileBytes(t, path)
		crashOnce(t, compactChildEnv, dir, true, time.Duration(r.IntN(40_000))*time.Microsecond)
		if _, err := os.Stat(CompactPath(dir)); err == nil {
			left++
			if !bytes.Equal(fileBytes(t, path), before) {
				t.Fatalf("kill %d: the store changed, and the compaction's file is still there", i)
			}
		}
		checkStepsT(t, dir, steps)
	}
	if _, err := Compact(dir, CompactOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(CompactPath(dir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the compaction's file is still there: %v", err)
	}
	checkStepsT(t, dir, steps)
	t.Logf("20 kills, %d of them during a compaction", left)
}

// checkStepsT fails unless the store in dir holds exactly steps 1 to head.
func checkStepsT(t *testing.T, dir string, head uint64) {
	t.Helper()
	db := openT(t, dir)
	defer db.Close()
	if got, err := checkSteps(db); err != nil || got != head {
		t.Fatalf("store at step %d, want %d: %v", got, head, err)
	}
}

// An Open that waits for the lock of a store a compaction replaces opens
// the new store, not the old, unlinked file. (Here the wait is in
// checkLength's read-only open; a wait in the writable open, which a
// compaction that locks the store in between would cause, is what
// replaced catches.)
func TestOpenAfterReplace(t *testing.T) {
	dir, newDir := t.TempDir(), t.TempDir()
	old := openT(t, dir)
	putT(t, old, "k", "old")
	db := openT(t, newDir)
	putT(t, db, "k", "new")
	db.Close()
	opened := make(chan *DB)
	go func() {
		db, err := Open(dir, Options{LockTimeout: 10 * time.Second})
		if err != nil {
			t.Error(err)
		}
		opened <- db
	}()
	time.Sleep(200 * time.Millisecond) // the Open waits for old's lock
	if err := os.Rename(filepath.Join(newDir, FileName), filepath.Join(dir, FileName)); err != nil {
		t.Fatal(err)
	}
	old.Close()
	db = <-opened
	if db == nil {
		return
	}
	defer db.Close()
	if v, _, _ := getT(t, db, "k"); v != "new" {
		t.Errorf("the waiting Open reads %q, want the new store's \"new\"", v)
	}
}

// TestCompactInto: a store copied into another data directory keeps every
// key, value and sequence, leaves its source as it was and open, and fills
// its leaf pages, however the source was written; a copy stopped by its
// context leaves the target directory as it was.
func TestCompactInto(t *testing.T) {
	src, err := Open(t.TempDir(), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	const keys = 3000
	r := rand.New(rand.NewPCG(1, 2))
	// Keys in random order, a few per commit: the leaves split halfway
	// and end up about three quarters full.
	for _, i := range r.Perm(keys) {
		putT(t, src, fmt.Sprintf("key%05d", i), strings.Repeat("v", i%40))
	}
	dir := t.TempDir()
	if err := src.CompactInto(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(CompactPath(dir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the temporary file is still there: %v", err)
	}
	dst := openT(t, dir)
	defer dst.Close()
	for _, db := range []*DB{src, dst} {
		for i := range keys {
			key := fmt.Sprintf("key%05d", i)
			if v, ok, seq := getT(t, db, key); !ok || v != strings.Repeat("v", i%40) || seq != keys {
				t.Fatalf("%s: %s = %q, %v, sequence %d; want %d bytes, sequence %d", db.Path(), key, v, ok, seq, i%40, keys)
			}
		}
	}
	if srcFill, fill := leafFill(t, src), leafFill(t, dst); srcFill > 0.85 || fill < 0.95 {
		t.Errorf("leaf pages %.2f full in the source, %.2f in the copy; want the copy's at least 0.95", srcFill, fill)
	}

	stopped := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := src.CompactInto(ctx, stopped); !errors.Is(err, context.Canceled) {
		t.Errorf("a canceled copy: %v, want context.Canceled", err)
	}
	if state := dirState(t, stopped); state != stopped+"/\n" {
		t.Errorf("a canceled copy left files:\n%s", state)
	}
}

// leafFill returns how full the leaf pages of bucket "b" of db are: the
// bytes they use over their size.
func leafFill(t *testing.T, db *DB) float64 {
	t.Helper()
	var fill float64
	err := db.db.View(func(tx *bbolt.Tx) error {
		st := tx.Bucket([]byte("b")).Stats()
		fill = float64(st.LeafInuse) / float64(st.LeafAlloc)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return fill
}

// TestInstallInto: a store is installed into a data directory compacted,
// or, when the disk has no room for the copy, as written (its own file,
// moved); either way the directory's store holds every key, nothing is
// left in its old place, and the store stays open on what was installed.
func TestInstallInto(t *testing.T) {
	for _, c := range []struct {
		name      string
		free      int64 // the disk's free bytes, as diskFree says
		compacted bool
	}{
		{"room for the copy", 1 << 40, true},
		{"no room for the copy", 4096, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			diskFree = func(string) (int64, bool) { return c.free, true }
			defer func() { diskFree = freeSpace }()
			dir := t.TempDir()
			src, err := Open(filepath.Join(dir, ".generating"), Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			for i := range 200 {
				putT(t, src, fmt.Sprintf("key%03d", i), strings.Repeat("v", i))
			}
			from := src.Path()
			compacted, err := src.InstallInto(context.Background(), dir)
			if err != nil || compacted != c.compacted {
				t.Fatalf("InstallInto: compacted %v, %v; want %v, no error", compacted, err, c.compacted)
			}
			putT(t, src, "after", "v") // still open, on the installed file if not compacted
			if err := src.CloseUnsynced(); err != nil {
				t.Fatal(err)
			}
			_, err = os.Stat(from)
			if moved := errors.Is(err, os.ErrNotExist); moved == c.compacted {
				t.Errorf("the source file's stat: %v; want it moved: %v", err, !c.compacted)
			}
			dst := openT(t, dir)
			defer dst.Close()
			for i := range 200 {
				key := fmt.Sprintf("key%03d", i)
				if v, ok, _ := getT(t, dst, key); !ok || v != strings.Repeat("v", i) {
					t.Fatalf("%s = %q, %v; want %d bytes", key, v, ok, i)
				}
			}
			if _, ok, _ := getT(t, dst, "after"); ok == c.compacted {
				t.Errorf("the key put after installing is in the installed store: %v; want %v", ok, !c.compacted)
			}
		})
	}
}
