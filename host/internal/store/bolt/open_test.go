package bolt

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/host/internal/store"
)

// openT opens the store in dir or fails the test.
func openT(t *testing.T, dir string) *DB {
	t.Helper()
	db, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// putT stores value under key in bucket "b", in its own Update.
func putT(t *testing.T, db *DB, key, value string) {
	t.Helper()
	err := db.Update(func(tx store.Tx) error {
		b, err := tx.Bucket("b")
		if err != nil {
			return err
		}
		if _, err := b.NextSequence(); err != nil {
			return err
		}
		return b.Put([]byte(key), []byte(value))
	})
	if err != nil {
		t.Fatal(err)
	}
}

// getT returns the value under key in bucket "b" and the bucket's sequence.
func getT(t *testing.T, db *DB, key string) (value string, ok bool, seq uint64) {
	t.Helper()
	err := db.View(func(tx store.Tx) error {
		b, err := tx.Bucket("b")
		if err != nil {
			return err
		}
		v, found := b.Get([]byte(key))
		value, ok, seq = string(v), found, b.Sequence()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return value, ok, seq
}

// TestReopen: what a store commits is there when it is opened again,
// also when it was written with NoSync (Close syncs it).
func TestReopen(t *testing.T) {
	for _, opts := range []Options{{}, {NoSync: true}} {
		dir := filepath.Join(t.TempDir(), "made", "by", "open")
		db, err := Open(dir, opts)
		if err != nil {
			t.Fatal(err)
		}
		if want := filepath.Join(dir, FileName); db.Path() != want {
			t.Errorf("%+v: Path = %s, want %s", opts, db.Path(), want)
		}
		putT(t, db, "k", "v1")
		putT(t, db, "k", "v2")
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		db = openT(t, dir)
		if v, ok, seq := getT(t, db, "k"); v != "v2" || !ok || seq != 2 {
			t.Errorf("%+v: after reopen: %q, %v, sequence %d; want v2, true, 2", opts, v, ok, seq)
		}
		db.Close()
	}
}

// TestInUse: a second Open of a data directory fails after the lock timeout
// with ErrInUse naming the directory, and succeeds once the first closes.
func TestInUse(t *testing.T) {
	dir := t.TempDir()
	first := openT(t, dir)
	_, err := Open(dir, Options{LockTimeout: 100 * time.Millisecond})
	if !errors.Is(err, ErrInUse) || !strings.Contains(err.Error(), dir) {
		t.Fatalf("second Open: %v; want ErrInUse naming %s", err, dir)
	}
	first.Close()
	second, err := Open(dir, Options{LockTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatalf("Open after the first closed: %v", err)
	}
	second.Close()
}

// storeWith makes a store in a new directory with two commits (a big value
// under "old", then "new") and returns the directory and its file.
func storeWith(t *testing.T) (dir, path string) {
	dir = t.TempDir()
	db := openT(t, dir)
	putT(t, db, "old", strings.Repeat("x", 100000)) // many pages
	putT(t, db, "new", "v")
	db.Close()
	return dir, db.Path()
}

// damage overwrites the meta page number page (0 or 1) of the file at path
// past its header.
func damage(t *testing.T, path string, page int) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt([]byte("not a meta page!"), int64(page*os.Getpagesize()+16)); err != nil {
		t.Fatal(err)
	}
}

// TestOpenBad: a damaged, truncated or foreign data file gets ErrCorrupt, an
// unusable path another error; every error names the path.
func TestOpenBad(t *testing.T) {
	cases := []struct {
		name    string
		setup   func(t *testing.T) (dir, path string) // path: what the error must name
		corrupt bool
	}{
		{"random bytes", func(t *testing.T) (string, string) {
			return fileOf(t, []byte(strings.Repeat("didlight?", 10000)))
		}, true},
		{"shorter than a page", func(t *testing.T) (string, string) { return fileOf(t, []byte("short")) }, true},
		{"shorter than two pages", func(t *testing.T) (string, string) {
			dir, path := storeWith(t)
			truncate(t, path, int64(os.Getpagesize()))
			return dir, path
		}, true},
		{"truncated", func(t *testing.T) (string, string) {
			dir, path := storeWith(t)
			truncate(t, path, int64(4*os.Getpagesize()))
			return dir, path
		}, true},
		{"both meta pages damaged", func(t *testing.T) (string, string) {
			dir, path := storeWith(t)
			damage(t, path, 0)
			damage(t, path, 1)
			return dir, path
		}, true},
		{"store file is a directory", func(t *testing.T) (string, string) {
			dir := t.TempDir()
			path := filepath.Join(dir, FileName)
			if err := os.Mkdir(path, 0o700); err != nil {
				t.Fatal(err)
			}
			return dir, path
		}, false},
		{"data directory is a file", func(t *testing.T) (string, string) {
			dir, _ := fileOf(t, nil)
			dir = filepath.Join(dir, FileName)
			return dir, dir
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, path := c.setup(t)
			db, err := Open(dir, Options{})
			if err == nil {
				db.Close()
				t.Fatal("Open succeeded")
			}
			if errors.Is(err, store.ErrCorrupt) != c.corrupt || !strings.Contains(err.Error(), path) {
				t.Errorf("error %q; want corrupt=%v, naming %s", err, c.corrupt, path)
			}
		})
	}
}

// TestOpenSurvives: a store opens after what a crash can leave: an empty
// file (killed right after creating it), or one meta page torn.
func TestOpenSurvives(t *testing.T) {
	t.Run("empty file", func(t *testing.T) {
		dir, _ := fileOf(t, nil)
		db := openT(t, dir)
		putT(t, db, "k", "v")
		db.Close()
	})
	for page := range 2 {
		t.Run("meta page "+string(rune('0'+page))+" torn", func(t *testing.T) {
			dir, path := storeWith(t)
			damage(t, path, page)
			db := openT(t, dir)
			defer db.Close()
			// Either meta page may be the newer one; the older still has "old".
			if _, ok, _ := getT(t, db, "old"); !ok {
				t.Error("the commit before the last is gone")
			}
			putT(t, db, "after", "v") // and it takes new commits
		})
	}
}

// fileOf makes a data directory whose store file holds content.
func fileOf(t *testing.T, content []byte) (dir, path string) {
	dir = t.TempDir()
	path = filepath.Join(dir, FileName)
	if err := os.WriteFile(path, content, 0o600); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

func truncate(t *testing.T, path string, size int64) {
	t.Helper()
	if err := os.Truncate(path, size); err != nil {
		t.Fatal(err)
	}
}
