package eidindex

import (
	"maps"
	"slices"
	"testing"

	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// orderTx records the keys written to its buckets, in the order written.
type orderTx struct {
	store.Tx
	written *[]string
}

func (t orderTx) Bucket(name string) (store.Bucket, error) {
	b, err := t.Tx.Bucket(name)
	return orderBucket{b, t.written}, err
}

type orderBucket struct {
	store.Bucket
	written *[]string
}

func (b orderBucket) Put(k, v []byte) error {
	*b.written = append(*b.written, "put "+string(k))
	return b.Bucket.Put(k, v)
}

func (b orderBucket) Delete(k []byte) error {
	*b.written = append(*b.written, "delete "+string(k))
	return b.Bucket.Delete(k)
}

// A sortedTx holds the DID index's writes until flush, reads and scans
// seeing them, and writes each bucket's in the order of its keys; other
// buckets are written at once.
func TestSortedTx(t *testing.T) {
	dids := didindex.BucketDIDs
	type op struct{ kind, bucket, key, value string } // kind: put, delete
	tests := []struct {
		name    string
		stored  map[string]string // in dids before
		ops     []op
		get     map[string]string // dids' values read through the sortedTx before the flush ("" for absent)
		written []string          // the writes reaching the store
		after   map[string]string // dids after the flush
	}{
		{
			name:    "puts sorted",
			ops:     []op{{"put", dids, "c", "3"}, {"put", dids, "a", "1"}, {"put", dids, "b", "2"}},
			get:     map[string]string{"a": "1", "b": "2", "c": "3", "d": ""},
			written: []string{"put a", "put b", "put c"},
			after:   map[string]string{"a": "1", "b": "2", "c": "3"},
		},
		{
			name:    "the last write of a key wins",
			stored:  map[string]string{"a": "0", "b": "0"},
			ops:     []op{{"put", dids, "b", "1"}, {"delete", dids, "a", ""}, {"delete", dids, "b", ""}, {"put", dids, "a", "2"}},
			get:     map[string]string{"a": "2", "b": ""},
			written: []string{"put a", "delete b"},
			after:   map[string]string{"a": "2"},
		},
		{
			name:    "an empty value is a value",
			ops:     []op{{"put", dids, "a", ""}},
			written: []string{"put a"},
			after:   map[string]string{"a": ""},
		},
		{
			name:    "other buckets at once",
			ops:     []op{{"put", dids, "b", "1"}, {"put", bucketMeta, "z", "9"}, {"put", dids, "a", "2"}},
			written: []string{"put z", "put a", "put b"},
			after:   map[string]string{"a": "2", "b": "1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := mem.New()
			err := db.Update(func(tx store.Tx) error {
				for k, v := range tt.stored {
					if err := mustBucket(t, tx, dids).Put([]byte(k), []byte(v)); err != nil {
						return err
					}
				}
				var written []string
				st := newSortedTx(orderTx{tx, &written})
				for _, o := range tt.ops {
					b := mustBucket(t, st, o.bucket)
					var err error
					if o.kind == "put" {
						err = b.Put([]byte(o.key), []byte(o.value))
					} else {
						err = b.Delete([]byte(o.key))
					}
					if err != nil {
						return err
					}
				}
				for k, want := range tt.get {
					v, ok := mustBucket(t, st, dids).Get([]byte(k))
					if string(v) != want || ok != (want != "") {
						t.Errorf("Get(%q) = %q, %v before the flush, want %q", k, v, ok, want)
					}
				}
				if err := st.flush(); err != nil {
					return err
				}
				if !slices.Equal(written, tt.written) {
					t.Errorf("written %q, want %q", written, tt.written)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := contents(t, db, dids); !maps.Equal(got, tt.after) {
				t.Errorf("after the flush %v, want %v", got, tt.after)
			}
		})
	}
}

// A scan of a bucket of a sortedTx sees its pending writes.
func TestSortedTxScan(t *testing.T) {
	db := mem.New()
	err := db.Update(func(tx store.Tx) error {
		st := newSortedTx(tx)
		b := mustBucket(t, st, didindex.BucketHistory)
		for _, k := range []string{"b", "a"} {
			if err := b.Put([]byte(k), []byte(k)); err != nil {
				return err
			}
		}
		var keys []string
		for k := range b.Scan(store.Range{}) {
			keys = append(keys, string(k))
		}
		if want := []string{"a", "b"}; !slices.Equal(keys, want) {
			t.Errorf("scanned %q, want %q", keys, want)
		}
		return st.flush()
	})
	if err != nil {
		t.Fatal(err)
	}
}

func mustBucket(t *testing.T, tx store.Tx, name string) store.Bucket {
	t.Helper()
	b, err := tx.Bucket(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// contents returns the keys and values of bucket name in db.
func contents(t *testing.T, db store.DB, name string) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := db.View(func(tx store.Tx) error {
		for k, v := range mustBucket(t, tx, name).Scan(store.Range{}) {
			got[string(k)] = string(v)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}
