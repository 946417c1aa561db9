package store_test

import (
	"bytes"
	"errors"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/didlight/didlight/host/internal/store"
)

// op is one write: a Put of value under key, or a Delete of key.
type op struct {
	del        bool
	key, value string
}

func put(k, v string) op { return op{key: k, value: v} }
func del(k string) op    { return op{del: true, key: k} }

func TestGetPutDelete(t *testing.T) {
	cases := []struct {
		name string
		ops  []op
		want []string // the bucket after commit, in order
	}{
		{"put", []op{put("b", "2"), put("a", "1")}, []string{"a=1", "b=2"}},
		{"overwrite", []op{put("a", "1"), put("a", "22")}, []string{"a=22"}},
		{"delete", []op{put("a", "1"), put("b", "2"), del("a")}, []string{"b=2"}},
		{"delete missing", []op{put("a", "1"), del("z"), del("a\x00")}, []string{"a=1"}},
		{"delete then put", []op{put("a", "1"), del("a"), put("a", "3")}, []string{"a=3"}},
		{"empty value", []op{put("a", "")}, []string{"a="}},
		{"delete all", []op{put("a", "1"), put("b", "2"), del("b"), del("a")}, nil},
		{"binary keys", []op{put("\xff", "3"), put("\x00", "1"), put("\x00\x00", "2")},
			[]string{"\x00=1", "\x00\x00=2", "\xff=3"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			forEachBackend(t, func(t *testing.T, db store.DB) {
				want := map[string]string{}
				update(t, db, func(tx store.Tx) error {
					b := bucket(t, tx, "b")
					for _, o := range c.ops {
						var err error
						if o.del {
							err = b.Delete([]byte(o.key))
							delete(want, o.key)
						} else {
							err = b.Put([]byte(o.key), []byte(o.value))
							want[o.key] = o.value
						}
						if err != nil {
							t.Fatal(err)
						}
						checkGets(t, b, want, c.ops) // reads see the transaction's writes
					}
					return nil
				})
				view(t, db, func(tx store.Tx) error {
					b := bucket(t, tx, "b")
					checkGets(t, b, want, c.ops)
					if got := dump(b, store.Range{}); !slices.Equal(got, c.want) {
						t.Errorf("bucket = %q, want %q", got, c.want)
					}
					return nil
				})
			})
		})
	}
}

// checkGets checks Get of every key ops touched against want.
func checkGets(t *testing.T, b store.Bucket, want map[string]string, ops []op) {
	t.Helper()
	for _, o := range ops {
		v, ok := b.Get([]byte(o.key))
		w, wok := want[o.key]
		if ok != wok || string(v) != w {
			t.Fatalf("Get(%q) = %q, %v; want %q, %v", o.key, v, ok, w, wok)
		}
	}
}

// TestEmptyValue: an empty value (given as nil or empty) is a value, read
// back as a non-nil empty slice from Get and Scan, before and after commit.
func TestEmptyValue(t *testing.T) {
	forEachBackend(t, func(t *testing.T, db store.DB) {
		check := func(b store.Bucket) {
			t.Helper()
			for _, k := range []string{"nil", "empty"} {
				if v, ok := b.Get([]byte(k)); !ok || v == nil || len(v) != 0 {
					t.Errorf("Get(%q) = %#v, %v; want []byte{}, true", k, v, ok)
				}
			}
			n := 0
			for k, v := range b.Scan(store.Range{}) {
				if v == nil || len(v) != 0 {
					t.Errorf("Scan value of %q = %#v, want []byte{}", k, v)
				}
				n++
			}
			if n != 2 {
				t.Errorf("Scan yielded %d keys, want 2", n)
			}
		}
		update(t, db, func(tx store.Tx) error {
			b := bucket(t, tx, "b")
			if err := b.Put([]byte("nil"), nil); err != nil {
				return err
			}
			if err := b.Put([]byte("empty"), []byte{}); err != nil {
				return err
			}
			check(b)
			return nil
		})
		view(t, db, func(tx store.Tx) error {
			check(bucket(t, tx, "b"))
			return nil
		})
	})
}

// TestOrder: keys come back in bytewise order whatever order they went in.
func TestOrder(t *testing.T) {
	want := []string{"\x00", "\x00\x00", "\x00\x01", "\x01", "A", "a", "a\x00", "aa", "ab", "b", "\x7f", "\x80", "\xfe\xff", "\xff", "\xff\x00", "\xff\xff"}
	forEachBackend(t, func(t *testing.T, db store.DB) {
		shuffled := slices.Clone(want)
		slices.Reverse(shuffled)
		shuffled[0], shuffled[7] = shuffled[7], shuffled[0]
		putAll(t, db, "b", shuffled...)
		view(t, db, func(tx store.Tx) error {
			var got []string
			for k := range bucket(t, tx, "b").Scan(store.Range{}) {
				got = append(got, string(k))
			}
			if !slices.Equal(got, want) {
				t.Errorf("order %q, want %q", got, want)
			}
			return nil
		})
	})
}

// TestValuesOwned: the store copies what it is given and what it hands out,
// so slices passed to Put may be reused at once, and slices from Get and
// Scan stay intact after the transaction ends and the data is overwritten.
func TestValuesOwned(t *testing.T) {
	forEachBackend(t, func(t *testing.T, db store.DB) {
		keyBuf, valBuf := []byte("key-0"), []byte("value-0")
		update(t, db, func(tx store.Tx) error {
			b := bucket(t, tx, "b")
			for i := range 3 {
				keyBuf[4], valBuf[6] = '0'+byte(i), '0'+byte(i)
				if err := b.Put(keyBuf, valBuf); err != nil {
					return err
				}
			}
			keyBuf[0], valBuf[0] = 'X', 'X' // must not reach the store
			return nil
		})
		want := []string{"key-0=value-0", "key-1=value-1", "key-2=value-2"}
		if got := dumpDB(t, db, "b"); !slices.Equal(got, want) {
			t.Fatalf("bucket = %q, want %q", got, want)
		}

		var kept [][]byte // every key and value handed out
		view(t, db, func(tx store.Tx) error {
			b := bucket(t, tx, "b")
			v, _ := b.Get([]byte("key-1"))
			kept = append(kept, v)
			v2, _ := b.Get([]byte("key-1"))
			v2[0] = 'X' // must not reach the store or v
			for k, v := range b.Scan(store.Range{}) {
				kept = append(kept, k, v)
			}
			return nil
		})
		// Overwrite everything many times so the old pages are reused.
		for i := range 10 {
			update(t, db, func(tx store.Tx) error {
				b := bucket(t, tx, "b")
				for _, k := range []string{"key-0", "key-1", "key-2"} {
					if err := b.Put([]byte(k), bytes.Repeat([]byte{'0' + byte(i%10)}, 500)); err != nil {
						return err
					}
				}
				return nil
			})
		}
		wantKept := []string{"value-1", "key-0", "value-0", "key-1", "value-1", "key-2", "value-2"}
		for i, k := range kept {
			if string(k) != wantKept[i] {
				t.Errorf("kept slice %d = %q, want %q", i, k, wantKept[i])
			}
		}
	})
}

// TestModel applies random writes, some in Updates that fail, and compares
// every bucket and many random scans with a plain map after each Update.
func TestModel(t *testing.T) {
	forEachBackend(t, func(t *testing.T, db store.DB) {
		r := newRand(t)
		committed := map[string]map[string]string{"x": {}, "y": {}}
		for round := range 60 {
			next := map[string]map[string]string{}
			for name, m := range committed {
				next[name] = maps.Clone(m)
			}
			fail := round%7 == 3
			err := db.Update(func(tx store.Tx) error {
				for range r.IntN(200) {
					name := []string{"x", "y"}[r.IntN(2)]
					key := randKey(r)
					b := bucket(t, tx, name)
					if r.IntN(3) == 0 {
						if err := b.Delete([]byte(key)); err != nil {
							return err
						}
						delete(next[name], key)
						continue
					}
					value := randKey(r)
					if err := b.Put([]byte(key), []byte(value)); err != nil {
						return err
					}
					next[name][key] = value
				}
				if fail {
					return errFail
				}
				return nil
			})
			if fail {
				wantErr(t, "failing update", err, errFail)
			} else if err != nil {
				t.Fatal(err)
			} else {
				committed = next
			}
			view(t, db, func(tx store.Tx) error {
				for name, m := range committed {
					b := bucket(t, tx, name)
					checkScan(t, b, m, store.Range{})
					for range 20 {
						checkScan(t, b, m, store.Range{Prefix: []byte(randString(r, r.IntN(3))), Start: []byte(randString(r, r.IntN(4))), Reverse: r.IntN(2) == 0})
					}
				}
				return nil
			})
		}
	})
}

// checkScan compares b.Scan(rg) with the same range taken from m by brute
// force.
func checkScan(t *testing.T, b store.Bucket, m map[string]string, rg store.Range) {
	t.Helper()
	var want []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !bytes.HasPrefix([]byte(k), rg.Prefix) {
			continue
		}
		if len(rg.Start) > 0 && (!rg.Reverse && k < string(rg.Start) || rg.Reverse && k > string(rg.Start)) {
			continue
		}
		want = append(want, k+"="+m[k])
	}
	if rg.Reverse {
		slices.Reverse(want)
	}
	if got := dump(b, rg); !slices.Equal(got, want) {
		t.Fatalf("Scan(prefix %q start %q reverse %v) = %q, want %q", rg.Prefix, rg.Start, rg.Reverse, got, want)
	}
}

var errFail = errors.New("the test's update fails on purpose")

// newRand returns a deterministic random source.
func newRand(t testing.TB) *rand.Rand {
	t.Helper()
	return rand.New(rand.NewPCG(1, 2))
}

// randString returns n bytes from a small alphabet with both extreme byte
// values, so random keys share prefixes often.
func randString(r *rand.Rand, n int) string {
	const alphabet = "\x00ab\xff"
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

func randKey(r *rand.Rand) string { return randString(r, 1+r.IntN(4)) }
