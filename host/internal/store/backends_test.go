package store_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/bolt"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// backends are the store implementations every conformance test and
// benchmark runs against. open opens a store in an empty directory (which
// mem ignores).
var backends = []struct {
	name string
	open func(dir string) (store.DB, error)
}{
	{"mem", func(string) (store.DB, error) { return mem.New(), nil }},
	{"bolt", func(dir string) (store.DB, error) { return bolt.Open(dir, bolt.Options{}) }},
}

// forEachBackend runs test as a subtest on a fresh store of each backend,
// closed when the subtest ends.
func forEachBackend(t *testing.T, test func(t *testing.T, db store.DB)) {
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			db, err := be.open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			test(t, db)
		})
	}
}

// update runs fn in an Update and fails the test on error.
func update(t testing.TB, db store.DB, fn func(store.Tx) error) {
	t.Helper()
	if err := db.Update(fn); err != nil {
		t.Fatal(err)
	}
}

// view runs fn in a View and fails the test on error.
func view(t testing.TB, db store.DB, fn func(store.Tx) error) {
	t.Helper()
	if err := db.View(fn); err != nil {
		t.Fatal(err)
	}
}

// bucket returns the named bucket of tx or fails the test.
func bucket(t testing.TB, tx store.Tx, name string) store.Bucket {
	t.Helper()
	b, err := tx.Bucket(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// putAll stores every key in keys with value "v:"+key, in one Update.
func putAll(t testing.TB, db store.DB, name string, keys ...string) {
	t.Helper()
	update(t, db, func(tx store.Tx) error {
		b := bucket(t, tx, name)
		for _, k := range keys {
			if err := b.Put([]byte(k), []byte("v:"+k)); err != nil {
				return err
			}
		}
		return nil
	})
}

// dump returns a bucket's contents in scan order as "key=value" strings.
func dump(b store.Bucket, r store.Range) []string {
	var out []string
	for k, v := range b.Scan(r) {
		out = append(out, fmt.Sprintf("%s=%s", k, v))
	}
	return out
}

// dumpDB returns the whole of bucket name as dump does, from a View.
func dumpDB(t testing.TB, db store.DB, name string) []string {
	t.Helper()
	var out []string
	view(t, db, func(tx store.Tx) error {
		out = dump(bucket(t, tx, name), store.Range{})
		return nil
	})
	return out
}

// wantErr fails the test unless err matches target by errors.Is.
func wantErr(t testing.TB, what string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Errorf("%s: error %v, want %v", what, err, target)
	}
}

// mustPanic fails the test unless fn panics.
func mustPanic(t testing.TB, what string, fn func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s did not panic", what)
		}
	}()
	fn()
}
