package bolt

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"go.etcd.io/bbolt"

	"github.com/didlight/didlight/host/internal/store"
)

// scattered returns a store whose bucket "b" holds keys key00000 to
// key<n-1>, value i%40 bytes, put in random order a few per commit.
func scattered(t *testing.T, n int) *DB {
	db, err := Open(t.TempDir(), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, i := range r.Perm(n) {
		putT(t, db, fmt.Sprintf("key%05d", i), strings.Repeat("v", i%40))
	}
	return db
}

// TestLeaves: the leaves read from the branch pages are the bucket's leaf
// pages, each once, in key order, the first under the smallest key; a
// page that is no tree is an error.
func TestLeaves(t *testing.T) {
	db := scattered(t, 3000)
	defer db.Close()
	f, err := os.Open(db.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pageSize := db.db.Info().PageSize
	err = db.db.View(func(tx *bbolt.Tx) error {
		b := tx.Bucket([]byte("b"))
		got, err := leaves(f, pageSize, uint64(b.Root()))
		if err != nil {
			return err
		}
		if want := b.Stats().LeafPageN; len(got) != want {
			t.Errorf("%d leaves, want %d", len(got), want)
		}
		ids := map[uint64]bool{}
		for i, l := range got {
			if ids[l.id] || l.id*uint64(pageSize) >= uint64(tx.Size()) {
				t.Errorf("leaf %d: page %d again or past the file's end", i, l.id)
			}
			ids[l.id] = true
			if i > 0 && bytes.Compare(got[i-1].first, l.first) >= 0 {
				t.Errorf("leaf %d: first key %q after %q", i, l.first, got[i-1].first)
			}
		}
		if string(got[0].first) != "key00000" {
			t.Errorf("the first leaf's key is %q, want key00000", got[0].first)
		}
		for _, root := range []uint64{0, 1, uint64(tx.Size()/int64(pageSize)) + 10} {
			if _, err := leaves(f, pageSize, root); err == nil {
				t.Errorf("page %d read as a tree", root)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestCopyPrefetched: a copy whose prefetcher reads ahead in segments of
// a few leaves, and one stopped midway, copy the same keys as the store
// has (run with -race: the copier and the prefetcher share the window).
func TestCopyPrefetched(t *testing.T) {
	const n = 3000
	src := scattered(t, n)
	defer src.Close()
	f, err := os.Open(src.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, perSegment := range []int{1, 4, 1000} {
		dst := openT(t, t.TempDir())
		err := src.db.View(func(tx *bbolt.Tx) error {
			b := tx.Bucket([]byte("b"))
			ahead := startPrefetch(f, src.db.Info().PageSize, uint64(b.Root()), perSegment)
			defer ahead.close()
			return copyBucket(context.Background(), dst.db, []byte("b"), b, ahead)
		})
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			key := fmt.Sprintf("key%05d", i)
			if v, ok, _ := getT(t, dst, key); !ok || v != strings.Repeat("v", i%40) {
				t.Fatalf("segments of %d: %s = %q, %v", perSegment, key, v, ok)
			}
		}
		dst.Close()
	}
	// A prefetcher closed before the copy starts stops at once.
	err = src.db.View(func(tx *bbolt.Tx) error {
		startPrefetch(f, src.db.Info().PageSize, uint64(tx.Bucket([]byte("b")).Root()), 1).close()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// FuzzLeaves: leaves reads any bytes as a file without panicking, and
// what it returns lies in the file.
func FuzzLeaves(f *testing.F) {
	db, err := Open(f.TempDir(), Options{NoSync: true})
	if err != nil {
		f.Fatal(err)
	}
	for i := range 200 {
		db.Update(func(tx store.Tx) error {
			b, _ := tx.Bucket("b")
			return b.Put(fmt.Appendf(nil, "key%04d", i), bytes.Repeat([]byte("v"), i))
		})
	}
	var root uint64
	db.db.View(func(tx *bbolt.Tx) error {
		root = uint64(tx.Bucket([]byte("b")).Root())
		return nil
	})
	db.Close()
	file, err := os.ReadFile(db.Path())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(file, root)
	f.Add(file[:3*4096], uint64(2))
	f.Add([]byte{}, uint64(0))
	f.Fuzz(func(t *testing.T, file []byte, root uint64) {
		got, err := leaves(bytes.NewReader(file), 4096, root)
		if err != nil {
			return
		}
		for _, l := range got {
			if l.id*4096 >= uint64(len(file)) {
				t.Fatalf("leaf page %d past the file's %d bytes", l.id, len(file))
			}
		}
	})
}
