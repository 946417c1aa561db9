package bolt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/didlight/didlight/host/internal/store"
)

// trimValue is the value the trim tests keep under key i: 4 kB, a page
// of its own, each different.
func trimValue(i int) []byte {
	return bytes.Repeat(fmt.Appendf(nil, "%08d", i), 512)
}

func trimKey(i int) []byte { return fmt.Appendf(nil, "k%08d", i) }

// putRange stores the values of keys from to to-1, in one Update.
func putRange(t testing.TB, db *DB, from, to int) {
	err := db.Update(func(tx store.Tx) error {
		b, err := tx.Bucket("b")
		if err != nil {
			return err
		}
		for i := from; i < to; i++ {
			if err := b.Put(trimKey(i), trimValue(i)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Error(err)
	}
}

// checkRange reads keys from to to-1 back, by Get and by ScanShared, and
// says which one first differs from its value.
func checkRange(db *DB, from, to int) error {
	return db.View(func(tx store.Tx) error {
		b, err := tx.Bucket("b")
		if err != nil {
			return err
		}
		for i := from; i < to; i++ {
			if v, ok := b.Get(trimKey(i)); !ok || !bytes.Equal(v, trimValue(i)) {
				return fmt.Errorf("Get %s: %.16q (found %v), want %.16q", trimKey(i), v, ok, trimValue(i))
			}
		}
		i := from
		for k, v := range b.ScanShared(store.Range{Start: trimKey(from)}) {
			if i == to {
				break
			}
			if !bytes.Equal(k, trimKey(i)) || !bytes.Equal(v, trimValue(i)) {
				return fmt.Errorf("ScanShared %d: %s = %.16q, want %s = %.16q", i, k, v, trimKey(i), trimValue(i))
			}
			i++
		}
		if i != to {
			return fmt.Errorf("ScanShared stopped at %d of %d to %d", i, from, to)
		}
		return nil
	})
}

// Trim runs while readers check every value and a writer grows the file
// past its mapping, so that bbolt remaps it: no reader sees a value
// change, and every value, old and new, reads back equal at the end.
func TestTrimConcurrent(t *testing.T) {
	// 4 MB of values at first, 12 MB at the end: the map, 1 MB at open
	// and doubling, is remapped at 8 MB while the readers run.
	db, err := Open(t.TempDir(), Options{NoSync: true, mapSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const old, batches, batch = 1000, 40, 50
	putRange(t, db, 0, old)
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	loop := func(fn func() error) {
		wg.Go(func() {
			for ctx.Err() == nil {
				if err := fn(); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	loop(db.Trim)
	for range 2 {
		loop(func() error { return checkRange(db, 0, old) })
	}
	for j := range batches {
		putRange(t, db, old+j*batch, old+(j+1)*batch)
		if err := db.Trim(); err != nil {
			t.Fatal(err)
		}
	}
	stop()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if err := checkRange(db, 0, old+batches*batch); err != nil {
		t.Error(err)
	}
}

// Scanned tells of a transaction that scanned BigScan bytes, once however
// many did, and not of one that scanned less; and it tells while the scan
// goes on.
func TestScanned(t *testing.T) {
	db, err := Open(t.TempDir(), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	per := len(trimKey(0)) + len(trimValue(0))
	n := (BigScan + per - 1) / per // n keys scanned are BigScan bytes, n-1 are not
	putRange(t, db, 0, n)
	for i, tc := range []struct {
		scans, keys int
		want        bool
	}{
		{1, n - 1, false},
		{1, n, true},
		{3, n, true},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			for range tc.scans {
				scanKeys(t, db, tc.keys)
			}
			select {
			case <-db.Scanned():
				if !tc.want {
					t.Errorf("%d scans of %d keys: signalled", tc.scans, tc.keys)
				}
			default:
				if tc.want {
					t.Errorf("%d scans of %d keys: not signalled", tc.scans, tc.keys)
				}
			}
		})
	}
	select {
	case <-db.Scanned():
		t.Error("signalled twice")
	default:
	}
	err = db.View(func(tx store.Tx) error {
		b, err := tx.Bucket("b")
		if err != nil {
			return err
		}
		i := 0
		for range b.ScanShared(store.Range{}) {
			if i++; i < n {
				continue
			}
			select {
			case <-db.Scanned():
			default:
				t.Errorf("not signalled after %d keys of %d bytes each, in the scan", i, per)
			}
			break
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// scanKeys scans the first k keys of bucket "b", and no more.
func scanKeys(t *testing.T, db *DB, k int) {
	err := db.View(func(tx store.Tx) error {
		b, err := tx.Bucket("b")
		if err != nil {
			return err
		}
		i := 0
		for range b.Scan(store.Range{}) {
			if i++; i == k {
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Trim on a closed store says so.
func TestTrimClosed(t *testing.T) {
	db := openT(t, t.TempDir())
	db.Close()
	if err := db.Trim(); !errors.Is(err, store.ErrClosed) {
		t.Errorf("Trim after Close: %v, want ErrClosed", err)
	}
}
