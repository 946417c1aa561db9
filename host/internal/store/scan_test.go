package store_test

import (
	"errors"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"testing"

	"github.com/didlight/didlight/host/internal/store"
)

func TestScan(t *testing.T) {
	keys := []string{"a", "a\x00", "ab", "ab1", "ab2", "abc", "a\xff", "b", "b\xff", "\xff", "\xff\xff"}
	cases := []struct {
		name string
		r    store.Range
		want []string
	}{
		{"all", store.Range{}, keys},
		{"all reverse", store.Range{Reverse: true}, reversed(keys)},
		{"prefix", store.Range{Prefix: []byte("ab")}, []string{"ab", "ab1", "ab2", "abc"}},
		{"prefix reverse", store.Range{Prefix: []byte("ab"), Reverse: true}, []string{"abc", "ab2", "ab1", "ab"}},
		{"prefix from a key", store.Range{Prefix: []byte("ab"), Start: []byte("ab1")}, []string{"ab1", "ab2", "abc"}},
		{"prefix from between keys", store.Range{Prefix: []byte("ab"), Start: []byte("ab15")}, []string{"ab2", "abc"}},
		{"prefix reverse from a key", store.Range{Prefix: []byte("ab"), Start: []byte("ab2"), Reverse: true}, []string{"ab2", "ab1", "ab"}},
		{"prefix reverse from between keys", store.Range{Prefix: []byte("ab"), Start: []byte("ab15"), Reverse: true}, []string{"ab1", "ab"}},
		{"prefix, start before it", store.Range{Prefix: []byte("ab"), Start: []byte("a")}, []string{"ab", "ab1", "ab2", "abc"}},
		{"prefix reverse, start before it", store.Range{Prefix: []byte("ab"), Start: []byte("a"), Reverse: true}, nil},
		{"prefix, start after it", store.Range{Prefix: []byte("ab"), Start: []byte("b")}, nil},
		{"prefix reverse, start after it", store.Range{Prefix: []byte("ab"), Start: []byte("b"), Reverse: true}, []string{"abc", "ab2", "ab1", "ab"}},
		{"start", store.Range{Start: []byte("abz")}, []string{"a\xff", "b", "b\xff", "\xff", "\xff\xff"}},
		{"start reverse", store.Range{Start: []byte("abz"), Reverse: true}, []string{"abc", "ab2", "ab1", "ab", "a\x00", "a"}},
		{"start before every key", store.Range{Start: []byte("\x00")}, keys},
		{"start before every key, reverse", store.Range{Start: []byte("\x00"), Reverse: true}, nil},
		{"start after every key", store.Range{Start: []byte("\xff\xff\xff")}, nil},
		{"start after every key, reverse", store.Range{Start: []byte("\xff\xff\xff"), Reverse: true}, reversed(keys)},
		{"prefix of 0xff", store.Range{Prefix: []byte("\xff")}, []string{"\xff", "\xff\xff"}},
		{"prefix of 0xff reverse", store.Range{Prefix: []byte("\xff"), Reverse: true}, []string{"\xff\xff", "\xff"}},
		{"prefix ending in 0xff, reverse", store.Range{Prefix: []byte("a\xff"), Reverse: true}, []string{"a\xff"}},
		{"prefix that is a whole key", store.Range{Prefix: []byte("b")}, []string{"b", "b\xff"}},
		{"prefix with no keys", store.Range{Prefix: []byte("aa")}, nil},
		{"prefix with no keys, reverse", store.Range{Prefix: []byte("aa"), Reverse: true}, nil},
		{"prefix past every key, reverse", store.Range{Prefix: []byte("\xff\xff\xff"), Reverse: true}, nil},
	}
	forEachBackend(t, func(t *testing.T, db store.DB) {
		check := func(t *testing.T, b store.Bucket) {
			for _, c := range cases {
				for name, scan := range map[string]func(store.Range) iter.Seq2[[]byte, []byte]{"Scan": b.Scan, "ScanShared": b.ScanShared} {
					var got []string
					for k, v := range scan(c.r) {
						if string(v) != "v:"+string(k) {
							t.Errorf("%s %s: key %q has value %q", name, c.name, k, v)
						}
						got = append(got, string(k))
					}
					if !slices.Equal(got, c.want) {
						t.Errorf("%s %s: got %q, want %q", name, c.name, got, c.want)
					}
				}
			}
		}
		update(t, db, func(tx store.Tx) error {
			b := bucket(t, tx, "b")
			for _, k := range keys {
				if err := b.Put([]byte(k), []byte("v:"+k)); err != nil {
					return err
				}
			}
			t.Run("uncommitted", func(t *testing.T) { check(t, b) })
			return nil
		})
		view(t, db, func(tx store.Tx) error {
			t.Run("committed", func(t *testing.T) { check(t, bucket(t, tx, "b")) })
			t.Run("missing bucket", func(t *testing.T) {
				for k := range bucket(t, tx, "nothing").Scan(store.Range{}) {
					t.Errorf("missing bucket yielded %q", k)
				}
			})
			return nil
		})
	})
}

func reversed(s []string) []string {
	r := slices.Clone(s)
	slices.Reverse(r)
	return r
}

// TestScanStop: breaking out of a scan stops it, and the bucket stays usable.
func TestScanStop(t *testing.T) {
	forEachBackend(t, func(t *testing.T, db store.DB) {
		putAll(t, db, "b", "a", "b", "c", "d")
		update(t, db, func(tx store.Tx) error {
			b := bucket(t, tx, "b")
			var got []string
			for k := range b.Scan(store.Range{Reverse: true}) {
				got = append(got, string(k))
				if len(got) == 2 {
					break
				}
			}
			if !slices.Equal(got, []string{"d", "c"}) {
				t.Errorf("got %q, want [d c]", got)
			}
			return b.Put([]byte("e"), nil)
		})
		if got := dumpDB(t, db, "b"); len(got) != 5 {
			t.Errorf("bucket = %q, want 5 keys", got)
		}
	})
}

// TestScanWhileModifying: writes during a scan are allowed; the scan goes on
// from the key after (before, in reverse) the last one it yielded, and sees
// keys written ahead of it but not behind it.
func TestScanWhileModifying(t *testing.T) {
	const n = 2000 // keys 0, 2, ... 3998: many pages and nodes, so writes rebalance them
	put := func(b store.Bucket, xs ...int) error {
		for _, x := range xs {
			if err := b.Put(numKey(x), nil); err != nil {
				return err
			}
		}
		return nil
	}
	// insertAround inserts the odd neighbours of each even key.
	insertAround := func(b store.Bucket, x int) error {
		if x%2 != 0 {
			return nil
		}
		return put(b, x+1, max(x-1, 0))
	}
	cases := []struct {
		name    string
		reverse bool
		each    func(b store.Bucket, x int) error // called after key x is yielded
		yielded []string
		after   []string // the bucket afterwards
	}{
		{"delete each key", false,
			func(b store.Bucket, x int) error { return b.Delete(numKey(x)) },
			span(0, 2*n, 2), nil},
		{"delete each key, reverse", true,
			func(b store.Bucket, x int) error { return b.Delete(numKey(x)) },
			reversed(span(0, 2*n, 2)), nil},
		{"delete the next key", false,
			func(b store.Bucket, x int) error { return b.Delete(numKey(x + 2)) },
			span(0, 2*n, 4), span(0, 2*n, 4)},
		{"delete the next key, reverse", true,
			func(b store.Bucket, x int) error { return b.Delete(numKey(x - 2)) },
			reversed(span(2, 2*n, 4)), span(2, 2*n, 4)},
		{"insert ahead and behind", false,
			insertAround,
			span(0, 2*n, 1), span(0, 2*n, 1)},
		{"insert ahead and behind, reverse", true,
			insertAround,
			reversed(span(0, 2*n-1, 1)), span(0, 2*n, 1)},
		{"overwrite each key", false,
			func(b store.Bucket, x int) error { return b.Put(numKey(x), []byte("new")) },
			span(0, 2*n, 2), span(0, 2*n, 2)},
	}
	forEachBackend(t, func(t *testing.T, db store.DB) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				var yielded []string
				update(t, db, func(tx store.Tx) error {
					if err := tx.DeleteBucket("b"); err != nil {
						return err
					}
					b := bucket(t, tx, "b")
					for x := 0; x < 2*n; x += 2 {
						if err := put(b, x); err != nil {
							return err
						}
					}
					for k := range b.Scan(store.Range{Prefix: []byte("k"), Reverse: c.reverse}) {
						yielded = append(yielded, string(k))
						if len(yielded) > 4*n {
							return errors.New("the scan does not end")
						}
						x, err := strconv.Atoi(string(k[1:]))
						if err != nil {
							return err
						}
						if err := c.each(b, x); err != nil {
							return err
						}
					}
					return nil
				})
				if !slices.Equal(yielded, c.yielded) {
					t.Errorf("yielded %d keys %.40q..., want %d %.40q...", len(yielded), yielded, len(c.yielded), c.yielded)
				}
				var after []string
				view(t, db, func(tx store.Tx) error {
					for k := range bucket(t, tx, "b").Scan(store.Range{}) {
						after = append(after, string(k))
					}
					return nil
				})
				if !slices.Equal(after, c.after) {
					t.Errorf("bucket afterwards has %d keys %.40q..., want %d %.40q...", len(after), after, len(c.after), c.after)
				}
			})
		}
		t.Run("delete the bucket", func(t *testing.T) {
			update(t, db, func(tx store.Tx) error {
				b := bucket(t, tx, "b")
				for x := range 100 {
					if err := put(b, x); err != nil {
						return err
					}
				}
				n := 0
				for range b.Scan(store.Range{}) {
					if n++; n == 10 {
						if err := tx.DeleteBucket("b"); err != nil {
							return err
						}
					}
				}
				if n != 10 {
					t.Errorf("scan went on for %d keys after its bucket was deleted", n-10)
				}
				return nil
			})
		})
	})
}

// TestScanCommittedThenDeleted: scans and writes of a bucket whose keys
// were committed (on many pages) and then deleted in the transaction,
// some of them or all: the empty pages bbolt keeps until the commit are
// skipped, whichever way the scan goes, and a bucket emptied so reads
// as empty (bbolt's own Cursor.Last never returns on one).
func TestScanCommittedThenDeleted(t *testing.T) {
	const n = 3000 // keys 0 ... 2999, on many pages
	cases := []struct {
		name    string
		deleted func(x int) bool
	}{
		{"all", func(int) bool { return true }},
		{"all but the first", func(x int) bool { return x > 0 }},
		{"all but the last", func(x int) bool { return x < n-1 }},
		{"the first half", func(x int) bool { return x < n/2 }},
		{"the last half", func(x int) bool { return x >= n/2 }},
		{"the middle", func(x int) bool { return x > 10 && x < n-10 }},
	}
	forEachBackend(t, func(t *testing.T, db store.DB) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				var keys []string
				update(t, db, func(tx store.Tx) error {
					if err := tx.DeleteBucket("b"); err != nil {
						return err
					}
					b := bucket(t, tx, "b")
					for x := range n {
						if err := b.Put(numKey(x), make([]byte, 100)); err != nil {
							return err
						}
					}
					return nil
				})
				for x := range n {
					if !c.deleted(x) {
						keys = append(keys, string(numKey(x)))
					}
				}
				update(t, db, func(tx store.Tx) error {
					b := bucket(t, tx, "b")
					for k := range b.Scan(store.Range{Reverse: true}) { // delete as an undo log is undone, newest first
						x, err := strconv.Atoi(string(k[1:]))
						if err != nil {
							return err
						}
						if c.deleted(x) {
							if err := b.Delete(k); err != nil {
								return err
							}
						}
					}
					for _, reverse := range []bool{false, true} {
						var got []string
						for k := range b.Scan(store.Range{Reverse: reverse}) {
							got = append(got, string(k))
						}
						want := keys
						if reverse {
							want = reversed(keys)
						}
						if !slices.Equal(got, want) {
							t.Errorf("reverse %v: scanned %d keys %.40q..., want %d %.40q...", reverse, len(got), got, len(want), want)
						}
					}
					return b.Put(numKey(n), nil) // an append after the deletes
				})
			})
		}
	})
}

// numKey is the key for number x: "k" and x in five digits, so keys sort
// like their numbers.
func numKey(x int) []byte { return fmt.Appendf(nil, "k%05d", x) }

// span returns the keys of from, from+step, ... below to.
func span(from, to, step int) []string {
	var keys []string
	for x := from; x < to; x += step {
		keys = append(keys, string(numKey(x)))
	}
	return keys
}
