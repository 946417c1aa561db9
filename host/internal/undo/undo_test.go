package undo

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/bolt"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// testLog covers buckets a and b; u is left alone.
var testLog = Log{Name: "log", Covered: func(name string) bool { return name == "a" || name == "b" }}

// op is one write of a test script.
type op struct {
	kind   string // put, delete, next, set, drop (DeleteBucket)
	bucket string
	key    string
	value  string
	seq    uint64
}

func (o op) do(tx store.Tx) error {
	if o.kind == "drop" {
		return tx.DeleteBucket(o.bucket)
	}
	b, err := tx.Bucket(o.bucket)
	if err != nil {
		return err
	}
	switch o.kind {
	case "put":
		return b.Put([]byte(o.key), []byte(o.value))
	case "delete":
		return b.Delete([]byte(o.key))
	case "next":
		_, err := b.NextSequence()
		return err
	case "set":
		return b.SetSequence(o.seq)
	}
	return fmt.Errorf("op %q", o.kind)
}

// dump describes buckets a, b and u: every key, value and sequence.
func dump(t *testing.T, db store.DB) string {
	t.Helper()
	var s string
	err := db.View(func(tx store.Tx) error {
		for _, name := range []string{"a", "b", "u"} {
			b, err := tx.Bucket(name)
			if err != nil {
				return err
			}
			s += fmt.Sprintf("%s seq %d:", name, b.Sequence())
			for k, v := range b.Scan(store.Range{}) {
				s += fmt.Sprintf(" %s=%s", k, v)
			}
			s += "\n"
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// run applies the ops of one Update through the log.
func run(t *testing.T, db store.DB, ops []op) {
	t.Helper()
	err := db.Update(func(tx store.Tx) error {
		tx = testLog.Tx(tx)
		for _, o := range ops {
			if err := o.do(tx); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// mark returns the log's position.
func mark(t *testing.T, db store.DB) uint64 {
	t.Helper()
	var m uint64
	err := db.View(func(tx store.Tx) (err error) {
		m, err = testLog.Mark(tx)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// undo undoes what was logged after m, and returns how many entries.
func undo(t *testing.T, db store.DB, m uint64) int {
	t.Helper()
	var n int
	err := db.Update(func(tx store.Tx) (err error) {
		n, err = testLog.Undo(testLog.Tx(tx), m)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func backends(t *testing.T) map[string]func() store.DB {
	return map[string]func() store.DB{
		"mem": func() store.DB { return mem.New() },
		"bolt": func() store.DB {
			db, err := bolt.Open(t.TempDir(), bolt.Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return db
		},
	}
}

// Undoing to a mark gives back every covered bucket as it was at the mark
// (keys, values, empty values, absences, sequences, deleted buckets), and
// leaves the other buckets as they are; undoing to the same mark again,
// after more writes, does it again; an earlier mark still works after.
func TestUndo(t *testing.T) {
	updates := [][]op{
		{{kind: "put", bucket: "a", key: "1", value: "one"}, {kind: "next", bucket: "a"}, {kind: "put", bucket: "u", key: "x", value: "u1"}},
		{{kind: "put", bucket: "a", key: "1", value: "uno"}, {kind: "put", bucket: "a", key: "1", value: "eins"}, {kind: "put", bucket: "b", key: "e", value: ""}},
		{{kind: "delete", bucket: "a", key: "1"}, {kind: "delete", bucket: "a", key: "never"}, {kind: "set", bucket: "b", seq: 90}},
		{{kind: "drop", bucket: "b"}, {kind: "put", bucket: "b", key: "new", value: "n"}, {kind: "next", bucket: "b"}},
		{{kind: "put", bucket: "a", key: "2", value: "two"}, {kind: "drop", bucket: "a"}, {kind: "put", bucket: "u", key: "x", value: "u2"}},
	}
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			db := open()
			var states []string
			var marks []uint64
			for _, u := range updates {
				states, marks = append(states, dump(t, db)), append(marks, mark(t, db))
				run(t, db, u)
			}
			final := dump(t, db)
			for i := len(marks) - 1; i >= 0; i-- {
				undo(t, db, marks[i])
				if got := withoutU(dump(t, db)); got != withoutU(states[i]) {
					t.Fatalf("undo to mark %d:\n%s\nwant\n%s", i, got, states[i])
				}
				for _, u := range updates[i:] { // again, then back once more
					run(t, db, u)
				}
				undo(t, db, marks[i])
				if got := withoutU(dump(t, db)); got != withoutU(states[i]) {
					t.Fatalf("a second undo to mark %d:\n%s\nwant\n%s", i, got, states[i])
				}
			}
			if got, want := lastLine(dump(t, db)), lastLine(final); got != want {
				t.Errorf("bucket u after the undos: %s, want it untouched: %s", got, want)
			}
		})
	}
}

// withoutU drops bucket u's line from a dump.
func withoutU(s string) string {
	lines := splitLines(s)
	return fmt.Sprint(lines[:2])
}

func lastLine(s string) string { return splitLines(s)[2] }

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := range len(s) {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}

// A transaction logs each key and sequence it changes once, whatever it
// writes to them; a rolled back one logs nothing; deleting an absent key
// logs nothing.
func TestLogSize(t *testing.T) {
	for _, tc := range []struct {
		name string
		ops  []op
		want int
	}{
		{"one put", []op{{kind: "put", bucket: "a", key: "1", value: "v"}}, 1},
		{"a key written three times", []op{{kind: "put", bucket: "a", key: "1", value: "v"}, {kind: "put", bucket: "a", key: "1", value: "w"}, {kind: "delete", bucket: "a", key: "1"}}, 1},
		{"a sequence moved twice", []op{{kind: "next", bucket: "a"}, {kind: "set", bucket: "a", seq: 9}}, 1},
		{"an absent key deleted", []op{{kind: "delete", bucket: "a", key: "none"}}, 0},
		{"an uncovered bucket", []op{{kind: "put", bucket: "u", key: "1", value: "v"}, {kind: "drop", bucket: "u"}}, 0},
		{"two buckets", []op{{kind: "put", bucket: "a", key: "1", value: "v"}, {kind: "put", bucket: "b", key: "1", value: "v"}}, 2},
		{"a bucket of two keys dropped, a key put again", []op{{kind: "put", bucket: "a", key: "1", value: "v"}, {kind: "put", bucket: "a", key: "2", value: "v"},
			{kind: "drop", bucket: "a"}, {kind: "put", bucket: "a", key: "1", value: "w"}}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := mem.New()
			m := mark(t, db)
			run(t, db, tc.ops)
			err := db.Update(func(tx store.Tx) error {
				tx = testLog.Tx(tx)
				for _, o := range tc.ops {
					if err := o.do(tx); err != nil {
						return err
					}
				}
				return errRollBack
			})
			if !errors.Is(err, errRollBack) {
				t.Fatal(err)
			}
			err = db.View(func(tx store.Tx) error {
				n, _, err := testLog.Size(tx, m)
				if n != tc.want {
					t.Errorf("%d entries logged, want %d", n, tc.want)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

var errRollBack = errors.New("rolled back")

// Writes made after Undo in the same transaction are logged as changes of
// what Undo gave back, so that undoing again goes back to the mark.
func TestWritesAfterUndo(t *testing.T) {
	db := mem.New()
	run(t, db, []op{{kind: "put", bucket: "a", key: "k", value: "at mark"}})
	then, m := dump(t, db), mark(t, db)
	run(t, db, []op{{kind: "put", bucket: "a", key: "k", value: "later"}})
	err := db.Update(func(tx store.Tx) error {
		tx = testLog.Tx(tx)
		b, err := tx.Bucket("a")
		if err != nil {
			return err
		}
		if err := b.Put([]byte("k"), []byte("before the undo")); err != nil {
			return err
		}
		if _, err := testLog.Undo(tx, m); err != nil {
			return err
		}
		return b.Put([]byte("k"), []byte("after the undo"))
	})
	if err != nil {
		t.Fatal(err)
	}
	undo(t, db, m)
	if got := dump(t, db); got != then {
		t.Errorf("after undoing a transaction that undid and wrote:\n%s\nwant\n%s", got, then)
	}
}

// Random scripts of writes, with a mark before each Update: undoing to
// each mark, newest first, gives back the state then.
func TestUndoRandom(t *testing.T) {
	for seed := range uint64(8) {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 32))
			db := mem.New()
			var states []string
			var marks []uint64
			for range 20 {
				states, marks = append(states, dump(t, db)), append(marks, mark(t, db))
				run(t, db, randomOps(r))
			}
			for _, i := range slices.Backward(slices.Collect(func(yield func(int) bool) {
				for i := range marks {
					if r.IntN(3) == 0 && !yield(i) {
						return
					}
				}
			})) {
				undo(t, db, marks[i])
				if got := withoutU(dump(t, db)); got != withoutU(states[i]) {
					t.Fatalf("undo to mark %d:\n%s\nwant\n%s", i, got, states[i])
				}
			}
		})
	}
}

func randomOps(r *rand.Rand) []op {
	kinds := []string{"put", "put", "put", "delete", "next", "set", "drop"}
	ops := make([]op, 1+r.IntN(6))
	for i := range ops {
		ops[i] = op{kind: kinds[r.IntN(len(kinds))], bucket: []string{"a", "b", "u"}[r.IntN(3)],
			key: fmt.Sprint(r.IntN(5)), value: fmt.Sprint(r.IntN(100)), seq: uint64(r.IntN(50))}
	}
	return ops
}

// An entry that does not decode is reported, and nothing changes.
func TestUndoCorrupt(t *testing.T) {
	db := mem.New()
	run(t, db, []op{{kind: "put", bucket: "a", key: "k", value: "v"}})
	before := dump(t, db)
	err := db.Update(func(tx store.Tx) error {
		return testLog.Append(tx, &record.Undo{Kind: record.UndoKind(7), Bucket: "a"})
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx store.Tx) error {
		_, err := testLog.Undo(tx, 0)
		return err
	})
	if !errors.Is(err, store.ErrCorrupt) {
		t.Errorf("undoing a corrupt entry: %v, want store.ErrCorrupt", err)
	}
	if got := dump(t, db); got != before {
		t.Errorf("a failed undo changed the store:\n%s\nwant\n%s", got, before)
	}
}

// Dropping the entries up to a mark leaves a later mark undoable to the
// same state, and the log's size after the mark unchanged.
func TestDrop(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			db := open()
			run(t, db, []op{{kind: "put", bucket: "a", key: "1", value: "one"}, {kind: "next", bucket: "a"}})
			early := mark(t, db)
			run(t, db, []op{{kind: "put", bucket: "a", key: "1", value: "two"}, {kind: "put", bucket: "b", key: "2", value: "x"}})
			late := mark(t, db)
			want := dump(t, db)
			run(t, db, []op{{kind: "delete", bucket: "a", key: "1"}, {kind: "next", bucket: "b"}})
			var before, after, dropped int
			err := db.Update(func(tx store.Tx) (err error) {
				if before, _, err = testLog.Size(tx, late); err != nil {
					return err
				}
				if dropped, err = testLog.Drop(tx, late); err != nil {
					return err
				}
				after, _, err = testLog.Size(tx, 0)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if dropped != int(late) || after != before {
				t.Errorf("dropped %d entries (want %d), %d left (want %d)", dropped, late, after, before)
			}
			if early == 0 || late <= early {
				t.Fatalf("marks %d, %d: the updates logged nothing", early, late)
			}
			undo(t, db, late)
			if got := dump(t, db); got != want {
				t.Errorf("after Drop and Undo:\n%s\nwant\n%s", got, want)
			}
		})
	}
}
