package bolt

import (
	"encoding/binary"
	"testing"

	"go.etcd.io/bbolt"

	"github.com/didlight/didlight/host/internal/store"
)

// TestFill: an Update that only appends to a bucket has bbolt fill its
// pages; one that puts a key anywhere else leaves bbolt's default.
func TestFill(t *testing.T) {
	for _, tc := range []struct {
		name   string
		before []uint64 // keys stored by an earlier Update
		puts   []uint64 // keys put by the Update, in order
		want   float64
	}{
		{"empty bucket", nil, []uint64{1, 2, 3}, appendFill},
		{"after the last key", []uint64{1, 2}, []uint64{3, 4}, appendFill},
		{"a gap is still an append", []uint64{1, 2}, []uint64{10, 20}, appendFill},
		{"the last key again", []uint64{1, 2}, []uint64{2}, bbolt.DefaultFillPercent},
		{"before the last key", []uint64{1, 5}, []uint64{3}, bbolt.DefaultFillPercent},
		{"appends, then one behind", nil, []uint64{1, 2, 3, 2}, bbolt.DefaultFillPercent},
		{"behind, then appends", []uint64{5}, []uint64{1, 6, 7}, bbolt.DefaultFillPercent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := openT(t, t.TempDir())
			defer db.Close()
			if err := db.Update(func(tx store.Tx) error { return putKeys(tx, tc.before) }); err != nil {
				t.Fatal(err)
			}
			var got float64
			err := db.Update(func(stx store.Tx) error {
				if err := putKeys(stx, tc.puts); err != nil {
					return err
				}
				got = stx.(*tx).buckets["b"].b.FillPercent
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("FillPercent = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestFillPages: values appended in Updates of a few each fill the pages
// of their bucket, where bbolt's default fill would leave them half empty.
func TestFillPages(t *testing.T) {
	db := openT(t, t.TempDir())
	defer db.Close()
	const n, perUpdate, size = 1000, 10, 800
	for i := uint64(0); i < n; i += perUpdate {
		err := db.Update(func(tx store.Tx) error {
			b, err := tx.Bucket("b")
			if err != nil {
				return err
			}
			for k := i; k < i+perUpdate; k++ {
				if err := b.Put(binary.BigEndian.AppendUint64(nil, k), make([]byte, size)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var stats bbolt.BucketStats
	db.db.View(func(tx *bbolt.Tx) error {
		stats = tx.Bucket([]byte("b")).Stats()
		return nil
	})
	// Four values fit a page (each with a 16-byte element header and its
	// key); bbolt's default fill splits a node at half a page, two values,
	// and a split of what the last Update added may leave a node short.
	if want := n/3 + 1; stats.LeafPageN > want {
		t.Errorf("%d values of %d bytes take %d leaf pages, want at most %d", n, size, stats.LeafPageN, want)
	}
}

// putKeys puts the 8-byte big-endian keys in bucket "b", in order.
func putKeys(tx store.Tx, keys []uint64) error {
	b, err := tx.Bucket("b")
	if err != nil {
		return err
	}
	for _, k := range keys {
		if err := b.Put(binary.BigEndian.AppendUint64(nil, k), []byte("v")); err != nil {
			return err
		}
	}
	return nil
}
