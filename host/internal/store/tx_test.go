package store_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/didlight/didlight/host/internal/store"
)

// TestRollback: an Update that fails or panics changes nothing in any
// bucket, returns its error (or panic) unchanged, and leaves the store usable.
func TestRollback(t *testing.T) {
	cases := []struct {
		name string
		end  func() error // how the Update's function ends
	}{
		{"error", func() error { return errFail }},
		{"panic", func() error { panic(errFail) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			forEachBackend(t, func(t *testing.T, db store.DB) {
				putAll(t, db, "a", "1", "2")
				putAll(t, db, "c", "3")
				before := snapshotAll(t, db, "a", "b", "c")
				var err error
				func() {
					defer func() {
						if p := recover(); p != nil {
							err = p.(error)
						}
					}()
					err = db.Update(func(tx store.Tx) error {
						a, b := bucket(t, tx, "a"), bucket(t, tx, "b")
						for _, e := range []error{
							a.Put([]byte("1"), []byte("changed")), a.Delete([]byte("2")), a.Put([]byte("9"), nil),
							b.Put([]byte("new"), nil), tx.DeleteBucket("c"),
						} {
							if e != nil {
								t.Fatal(e)
							}
						}
						if _, e := a.NextSequence(); e != nil {
							t.Fatal(e)
						}
						return c.end()
					})
				}()
				if err != errFail {
					t.Fatalf("Update ended with %v, want the function's own %v", err, errFail)
				}
				if after := snapshotAll(t, db, "a", "b", "c"); !slices.Equal(after, before) {
					t.Errorf("after a failed Update:\n%q\nwant\n%q", after, before)
				}
				putAll(t, db, "a", "after") // the writer lock was released
			})
		})
	}
}

// snapshotAll describes the named buckets' keys, values and sequences.
func snapshotAll(t *testing.T, db store.DB, names ...string) []string {
	t.Helper()
	var out []string
	view(t, db, func(tx store.Tx) error {
		for _, name := range names {
			b := bucket(t, tx, name)
			out = append(out, fmt.Sprintf("%s seq %d", name, b.Sequence()))
			out = append(out, dump(b, store.Range{})...)
		}
		return nil
	})
	return out
}

// TestConcurrentReadersAndWriter: Views running alongside a stream of
// Updates each see all of an Update's writes to several buckets or none.
func TestConcurrentReadersAndWriter(t *testing.T) {
	const (
		updates = 150
		readers = 4
		total   = 1000 // the sum kept equal in buckets "from" and "to"
	)
	forEachBackend(t, func(t *testing.T, db store.DB) {
		update(t, db, func(tx store.Tx) error {
			return bucket(t, tx, "from").Put([]byte("amount"), itob(total))
		})
		var wg sync.WaitGroup
		done := make(chan struct{})
		for range readers {
			wg.Go(func() {
				for {
					select {
					case <-done:
						return
					default:
					}
					err := db.View(func(tx store.Tx) error {
						from, to := bucket(t, tx, "from"), bucket(t, tx, "to")
						a, _ := from.Get([]byte("amount"))
						b, _ := to.Get([]byte("amount"))
						n := 0
						for range to.Scan(store.Range{}) {
							n++
						}
						// to holds one log key per Update plus "amount".
						if btoi(a)+btoi(b) != total || uint64(n) != to.Sequence()+min(1, to.Sequence()) {
							t.Errorf("inconsistent snapshot: %d + %d, %d keys at sequence %d", btoi(a), btoi(b), n, to.Sequence())
						}
						return nil
					})
					if err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		for i := range updates {
			update(t, db, func(tx store.Tx) error {
				from, to := bucket(t, tx, "from"), bucket(t, tx, "to")
				a, _ := from.Get([]byte("amount"))
				b, _ := to.Get([]byte("amount"))
				seq, err := to.NextSequence()
				if err != nil {
					return err
				}
				move := int64(i%3 + 1)
				return errors.Join(
					from.Put([]byte("amount"), itob(btoi(a)-move)),
					to.Put([]byte("amount"), itob(btoi(b)+move)),
					to.Put(append([]byte("log"), itob(int64(seq))...), nil),
				)
			})
		}
		close(done)
		wg.Wait()
	})
}

func itob(n int64) []byte { return binary.BigEndian.AppendUint64(nil, uint64(n)) }

func btoi(b []byte) int64 {
	if len(b) == 0 {
		return 0
	}
	return int64(binary.BigEndian.Uint64(b))
}

// TestSnapshotIsolation: a View that began before an Update committed goes
// on seeing the old state until it ends; Views begun later see the new one.
func TestSnapshotIsolation(t *testing.T) {
	forEachBackend(t, func(t *testing.T, db store.DB) {
		putAll(t, db, "b", "x", "z")
		before := dumpDB(t, db, "b")
		began, committed := make(chan struct{}), make(chan struct{})
		var inView []string
		viewErr := make(chan error)
		go func() {
			viewErr <- db.View(func(tx store.Tx) error {
				b, err := tx.Bucket("b")
				if err != nil {
					return err
				}
				if _, err := tx.Bucket("new"); err != nil {
					return err
				}
				close(began)
				<-committed
				inView = dump(b, store.Range{})
				if _, ok := b.Get([]byte("y")); ok {
					return errors.New("the View sees a key committed after it began")
				}
				nb, _ := tx.Bucket("new")
				if _, ok := nb.Get([]byte("k")); ok {
					return errors.New("the View sees a bucket created after it began")
				}
				return nil
			})
		}()
		<-began
		update(t, db, func(tx store.Tx) error {
			b := bucket(t, tx, "b")
			return errors.Join(b.Put([]byte("x"), []byte("changed")), b.Put([]byte("y"), nil), b.Delete([]byte("z")),
				bucket(t, tx, "new").Put([]byte("k"), nil))
		})
		close(committed)
		if err := <-viewErr; err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(inView, before) {
			t.Errorf("the View saw %q, want %q", inView, before)
		}
		if got, want := dumpDB(t, db, "b"), []string{"x=changed", "y="}; !slices.Equal(got, want) {
			t.Errorf("a later View saw %q, want %q", got, want)
		}
	})
}

func TestSequence(t *testing.T) {
	forEachBackend(t, func(t *testing.T, db store.DB) {
		next := func(b store.Bucket) uint64 {
			t.Helper()
			n, err := b.NextSequence()
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		update(t, db, func(tx store.Tx) error {
			a, b := bucket(t, tx, "a"), bucket(t, tx, "b")
			if got := []uint64{a.Sequence(), next(a), next(a), next(b), a.Sequence()}; !slices.Equal(got, []uint64{0, 1, 2, 1, 2}) {
				t.Errorf("sequences %v, want [0 1 2 1 2]", got)
			}
			return nil
		})
		err := db.Update(func(tx store.Tx) error {
			if n := next(bucket(t, tx, "a")); n != 3 {
				t.Errorf("after commit: NextSequence = %d, want 3", n)
			}
			return errFail
		})
		wantErr(t, "failing update", err, errFail)
		update(t, db, func(tx store.Tx) error {
			if n := next(bucket(t, tx, "a")); n != 3 {
				t.Errorf("after rollback: NextSequence = %d, want 3", n)
			}
			if err := tx.DeleteBucket("b"); err != nil {
				return err
			}
			if n := next(bucket(t, tx, "b")); n != 1 {
				t.Errorf("after DeleteBucket: NextSequence = %d, want 1", n)
			}
			return nil
		})
		view(t, db, func(tx store.Tx) error {
			a := bucket(t, tx, "a")
			if a.Sequence() != 3 {
				t.Errorf("View: Sequence = %d, want 3", a.Sequence())
			}
			_, err := a.NextSequence()
			wantErr(t, "NextSequence in a View", err, store.ErrReadOnly)
			return nil
		})
	})
}

// TestSetSequence: a bucket's counter can be set to any value, lower
// too, keys untouched; NextSequence counts on from it; a rolled back
// Update leaves it; a View may not set it.
func TestSetSequence(t *testing.T) {
	forEachBackend(t, func(t *testing.T, db store.DB) {
		putAll(t, db, "a", "1")
		set := func(b store.Bucket, n uint64) {
			t.Helper()
			if err := b.SetSequence(n); err != nil {
				t.Fatal(err)
			}
		}
		update(t, db, func(tx store.Tx) error {
			a, c := bucket(t, tx, "a"), bucket(t, tx, "c")
			set(a, 40)
			if n, err := a.NextSequence(); err != nil || n != 41 {
				t.Errorf("NextSequence after SetSequence(40) = %d, %v; want 41", n, err)
			}
			set(a, 7)
			set(c, 9) // a bucket that was never written
			return nil
		})
		err := db.Update(func(tx store.Tx) error {
			set(bucket(t, tx, "a"), 1000)
			return errFail
		})
		wantErr(t, "failing update", err, errFail)
		view(t, db, func(tx store.Tx) error {
			a, c := bucket(t, tx, "a"), bucket(t, tx, "c")
			if a.Sequence() != 7 || c.Sequence() != 9 {
				t.Errorf("sequences %d and %d after commit and rollback, want 7 and 9", a.Sequence(), c.Sequence())
			}
			wantErr(t, "SetSequence in a View", a.SetSequence(3), store.ErrReadOnly)
			return nil
		})
		if got := dumpDB(t, db, "a"); !slices.Equal(got, []string{"1=v:1"}) {
			t.Errorf("keys of a: %q, want [1=v:1]", got)
		}
		update(t, db, func(tx store.Tx) error {
			set(bucket(t, tx, "c"), 0) // back to zero: an empty bucket, as never written
			return nil
		})
		view(t, db, func(tx store.Tx) error {
			if c := bucket(t, tx, "c"); c.Sequence() != 0 {
				t.Errorf("sequence of c %d after SetSequence(0), want 0", c.Sequence())
			}
			return nil
		})
	})
}

// TestDeleteBucket: deleting a bucket empties it for every handle on it,
// the handles stay writable, and other buckets are untouched.
func TestDeleteBucket(t *testing.T) {
	forEachBackend(t, func(t *testing.T, db store.DB) {
		putAll(t, db, "a", "1", "2")
		putAll(t, db, "b", "3")
		update(t, db, func(tx store.Tx) error {
			a := bucket(t, tx, "a")
			if err := tx.DeleteBucket("a"); err != nil {
				return err
			}
			if err := tx.DeleteBucket("never-written"); err != nil {
				t.Errorf("deleting an unknown bucket: %v", err)
			}
			if _, ok := a.Get([]byte("1")); ok {
				t.Error("a handle taken before DeleteBucket still sees the old keys")
			}
			return a.Put([]byte("4"), []byte("v:4"))
		})
		if got := snapshotAll(t, db, "a", "b"); !slices.Equal(got, []string{"a seq 0", "4=v:4", "b seq 0", "3=v:3"}) {
			t.Errorf("after DeleteBucket: %q", got)
		}
	})
}

// TestInputRules: bad keys, values and bucket names get typed errors, a
// rejected write changes nothing and does not spoil the transaction.
func TestInputRules(t *testing.T) {
	long := bytes.Repeat([]byte("k"), store.MaxKeySize)
	longName := strings.Repeat("n", store.MaxBucketNameSize)
	cases := []struct {
		name string
		do   func(tx store.Tx) error
		want error // nil: accepted
	}{
		{"empty key", func(tx store.Tx) error { return mustBucket(tx, "b").Put(nil, []byte("v")) }, store.ErrKey},
		{"longest key", func(tx store.Tx) error { return mustBucket(tx, "b").Put(long, []byte("v")) }, nil},
		{"key too long", func(tx store.Tx) error { return mustBucket(tx, "b").Put(append(long, 'x'), nil) }, store.ErrKey},
		{"delete empty key", func(tx store.Tx) error { return mustBucket(tx, "b").Delete([]byte{}) }, store.ErrKey},
		{"delete key too long", func(tx store.Tx) error { return mustBucket(tx, "b").Delete(append(long, 'x')) }, store.ErrKey},
		{"value of 1 MiB", func(tx store.Tx) error { return mustBucket(tx, "b").Put([]byte("big"), make([]byte, 1<<20)) }, nil},
		{"value too large", func(tx store.Tx) error {
			return mustBucket(tx, "b").Put([]byte("huge"), make([]byte, store.MaxValueSize+1))
		}, store.ErrValueTooLarge},
		{"empty bucket name", func(tx store.Tx) error { _, err := tx.Bucket(""); return err }, store.ErrBucketName},
		{"longest bucket name", func(tx store.Tx) error { return mustBucket(tx, longName).Put([]byte("k"), nil) }, nil},
		{"bucket name too long", func(tx store.Tx) error { _, err := tx.Bucket(longName + "n"); return err }, store.ErrBucketName},
		{"delete bucket with empty name", func(tx store.Tx) error { return tx.DeleteBucket("") }, store.ErrBucketName},
		{"binary bucket name", func(tx store.Tx) error { return mustBucket(tx, "\x00\xff").Put([]byte("k"), nil) }, nil},
	}
	forEachBackend(t, func(t *testing.T, db store.DB) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				before := snapshotAll(t, db, "b")
				update(t, db, func(tx store.Tx) error {
					err := c.do(tx)
					if c.want == nil && err != nil {
						t.Errorf("rejected: %v", err)
					}
					if c.want != nil {
						wantErr(t, c.name, err, c.want)
					}
					// The transaction goes on after a rejected write.
					return bucket(t, tx, "other").Put([]byte(c.name), nil)
				})
				if c.want != nil {
					if after := snapshotAll(t, db, "b"); !slices.Equal(after, before) {
						t.Errorf("a rejected write changed the bucket: %q", after)
					}
				}
				view(t, db, func(tx store.Tx) error {
					if _, ok := bucket(t, tx, "other").Get([]byte(c.name)); !ok {
						t.Error("the transaction's other write was lost")
					}
					return nil
				})
			})
		}
		view(t, db, func(tx store.Tx) error {
			b := bucket(t, tx, "b")
			if v, ok := b.Get(long); !ok || string(v) != "v" {
				t.Error("the longest key was not stored")
			}
			if v, ok := b.Get([]byte("big")); !ok || len(v) != 1<<20 {
				t.Errorf("the 1 MiB value came back with %d bytes", len(v))
			}
			for _, k := range [][]byte{nil, append(long, 'x')} {
				if _, ok := b.Get(k); ok {
					t.Errorf("Get of an invalid %d-byte key found a value", len(k))
				}
			}
			if _, err := tx.Bucket(longName + "n"); !errors.Is(err, store.ErrBucketName) {
				t.Errorf("View: bucket name too long: %v", err)
			}
			return nil
		})
	})
}

// mustBucket is bucket for table entries, which have no *testing.T.
func mustBucket(tx store.Tx, name string) store.Bucket {
	b, err := tx.Bucket(name)
	if err != nil {
		panic(err)
	}
	return b
}

// TestMisuse: writes in a View, use of a transaction after it ended, and use
// of a closed store.
func TestMisuse(t *testing.T) {
	forEachBackend(t, func(t *testing.T, db store.DB) {
		putAll(t, db, "b", "k")
		var (
			ended   store.Tx
			endedB  store.Bucket
			endedRO store.Bucket
		)
		view(t, db, func(tx store.Tx) error {
			b := bucket(t, tx, "b")
			wantErr(t, "Put in a View", b.Put([]byte("k"), nil), store.ErrReadOnly)
			wantErr(t, "Delete in a View", b.Delete([]byte("k")), store.ErrReadOnly)
			wantErr(t, "DeleteBucket in a View", tx.DeleteBucket("b"), store.ErrReadOnly)
			endedRO = b
			return nil
		})
		update(t, db, func(tx store.Tx) error {
			ended, endedB = tx, bucket(t, tx, "b")
			return nil
		})
		for _, b := range []store.Bucket{endedB, endedRO} {
			wantErr(t, "Put after the end", b.Put([]byte("k"), nil), store.ErrTxDone)
			wantErr(t, "Delete after the end", b.Delete([]byte("k")), store.ErrTxDone)
			_, err := b.NextSequence()
			wantErr(t, "NextSequence after the end", err, store.ErrTxDone)
			mustPanic(t, "Get after the end", func() { b.Get([]byte("k")) })
			mustPanic(t, "Scan after the end", func() {
				for range b.Scan(store.Range{}) {
				}
			})
			mustPanic(t, "Sequence after the end", func() { b.Sequence() })
		}
		wantErr(t, "DeleteBucket after the end", ended.DeleteBucket("b"), store.ErrTxDone)
		mustPanic(t, "Bucket after the end", func() { ended.Bucket("b") })

		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		ran := false
		wantErr(t, "View after Close", db.View(func(store.Tx) error { ran = true; return nil }), store.ErrClosed)
		wantErr(t, "Update after Close", db.Update(func(store.Tx) error { ran = true; return nil }), store.ErrClosed)
		if ran {
			t.Error("a transaction ran on a closed store")
		}
		if err := db.Close(); err != nil {
			t.Errorf("second Close: %v", err)
		}
	})
}
