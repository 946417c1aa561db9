package chain

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"log/slog"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/devnet"
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/bolt"
)

// upgradeEnv names the data directory of a child that opens a store of
// an older format and stops dead halfway through building its indexes.
const upgradeEnv = "DIDLIGHT_CHAIN_UPGRADE_CHILD"

// stopMidway is a log handler that, at the first progress line of the
// upgrade, says "midway" and blocks for ever, inside the upgrade's store
// Update, for the parent to kill the process there.
type stopMidway struct{}

func (stopMidway) Enabled(context.Context, slog.Level) bool { return true }
func (h stopMidway) WithAttrs([]slog.Attr) slog.Handler     { return h }
func (h stopMidway) WithGroup(string) slog.Handler          { return h }

func (stopMidway) Handle(_ context.Context, r slog.Record) error {
	if r.Message == didindex.LogUpgrade || r.Message == didindex.LogUpgradeViews {
		os.Stdout.WriteString("midway\n")
		select {}
	}
	return nil
}

// upgradeChild opens the store in dir; it never returns if the store
// needs an upgrade.
func upgradeChild(dir string) error {
	db, err := bolt.Open(dir, bolt.Options{LockTimeout: 10 * time.Second})
	if err != nil {
		return err
	}
	_, err = Open(Config{DB: db, Logger: slog.New(stopMidway{})})
	return err
}

// downgrade turns the store of a closed chain into format 2 (no postings
// of the views, no counts), 3 (a key per posting of the views, the
// counts as they are), 4 (the views without skip tables), 5 (the DIDs'
// keys and documents in the views) or 6 (the views as JSON text with
// empty skip tables, which a store of format 6 may hold). It returns the
// number of postings left.
func downgrade(t *testing.T, db store.DB, format uint64) (postings int) {
	t.Helper()
	err := db.Update(func(tx store.Tx) error {
		keys := map[string]string{} // creation sequence key → DID key
		for k, v := range bucket(tx, didindex.BucketDIDs).Scan(store.Range{}) {
			rec, err := record.ParseDID(v)
			if err != nil {
				return err
			}
			keys[string(record.SeqKey(rec.Seq))] = string(k)
		}
		views, docs := bucket(tx, didindex.BucketViews), bucket(tx, didindex.BucketDocs)
		for k := range views.Scan(store.Range{}) {
			doc, _ := docs.Get(k)
			parsed, err := did.ParseDocument(doc)
			if err != nil {
				return err
			}
			view := resolve.View(parsed)
			var old []byte
			switch format {
			case 6:
				old = append(appendBytes(nil, nil), view...)
			case 5:
				old = append(appendBytes(appendBytes(appendBytes(nil, []byte(keys[string(k)])), nil), view), doc...)
			default:
				old = append(appendBytes(nil, []byte(keys[string(k)])), view...)
			}
			if err := views.Put(k, old); err != nil {
				return err
			}
		}
		if format < 6 {
			if err := tx.DeleteBucket(didindex.BucketDocs); err != nil {
				return err
			}
		}
		if format >= 4 {
			for range bucket(tx, didindex.BucketFields).Scan(store.Range{}) {
				postings++
			}
		}
		for _, name := range []string{didindex.BucketFields, didindex.BucketCounts}[:4-min(format, 4)] {
			if err := tx.DeleteBucket(name); err != nil {
				return err
			}
		}
		if format == 3 {
			fields := bucket(tx, didindex.BucketFields)
			for k, v := range bucket(tx, didindex.BucketViews).Scan(store.Range{}) {
				seq, _ := record.ParseSeqKey(k)
				view, err := record.ParseViewV4(v)
				if err != nil {
					return err
				}
				for _, p := range didindex.Postings(view.JSON) {
					prefix, _ := record.FieldPrefix(p.Path, p.Value)
					if err := fields.Put(binary.BigEndian.AppendUint64(prefix, seq), nil); err != nil {
						return err
					}
					postings++
				}
			}
		}
		return putMeta(tx, metaFormat, record.U64(format))
	})
	if err != nil {
		t.Fatal(err)
	}
	return postings
}

// appendBytes appends b to dst with its length, as the store's records
// do.
func appendBytes(dst, b []byte) []byte {
	return append(binary.AppendUvarint(dst, uint64(len(b))), b...)
}

// publishMany creates n DIDs with a service and credentials on f's chain.
func publishMany(t *testing.T, f *fixture, n int) {
	t.Helper()
	for i := range n {
		u := newUser("upgrade " + string(rune('a'+i%26)) + string(rune('a'+i/26)))
		f.publish(u.create(t, u.document(t, GenesisTime.AddDate(3, 0, 0), []did.Service{service("hub", "Hub")}, "EmailCredential")))
	}
}

// formatOf reads the store's format.
func formatOf(t *testing.T, db store.DB) (format uint64, fields int) {
	t.Helper()
	err := db.View(func(tx store.Tx) error {
		var err error
		format, err = getU64(tx, metaFormat)
		for range bucket(tx, didindex.BucketFields).Scan(store.Range{}) {
			fields++
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return format, fields
}

// A store of format 2 gets its postings and counts when opened, one of
// format 3 its containers of postings, and each of them and one of format
// 4 or 5 its documents apart from its views, and each of them and one of
// format 6 its views in encoded form, with progress logged, and answers
// queries through them.
func TestUpgradeIndexes(t *testing.T) {
	for _, from := range []uint64{2, 3, 4, 5, 6} {
		t.Run(fmt.Sprint(from), func(t *testing.T) {
			f := newFixture(t, Config{})
			publishMany(t, f, 20)
			f.c.Close()
			downgrade(t, f.db, from)
			var logged bytes.Buffer
			f.cfg.Logger = slog.New(slog.NewTextHandler(&logged, nil))
			f.open()
			checkIndexes(t, f.c)
			if format, _ := formatOf(t, f.db); format != storeFormat {
				t.Errorf("format %d after the upgrade, want %d", format, storeFormat)
			}
			wantIndexes := 10
			if from >= 4 {
				wantIndexes = 0 // the postings are those of format 4
			}
			for msg, want := range map[string]int{didindex.LogUpgradeViews: 10, didindex.LogUpgrade: wantIndexes} {
				if n := bytes.Count(logged.Bytes(), []byte("msg=\""+msg+"\"")); n != want {
					t.Errorf("%d lines %q for 20 DIDs, want %d:\n%s", n, msg, want, logged.Bytes())
				}
			}
			for _, q := range []Query{{Service: "Hub", Limit: 1}, {Condition: compile(t, `{"service.type":"Hub","credential.type":"EmailCredential"}`), Limit: 1},
				{Condition: compile(t, `{"credential.type":{$ne:"KYC"}}`), Skip: 19}} {
				res, err := f.c.Query(context.Background(), q)
				if err != nil || !bytes.HasPrefix(res, []byte(`{"total":20,`)) || !bytes.Contains(res, []byte(`"document":[{"id":"did:elastos:`)) {
					t.Errorf("query %+v after the upgrade: %.60s (%v)", q, res, err)
				}
			}
		})
	}
}

// A process killed halfway through the upgrade leaves the store of its
// older format, with its views and postings as they were; the next open
// upgrades it.
func TestUpgradeCrash(t *testing.T) {
	for _, from := range []uint64{2, 3, 4, 5, 6} {
		t.Run(fmt.Sprint(from), func(t *testing.T) { upgradeCrash(t, from) })
	}
}

func upgradeCrash(t *testing.T, from uint64) {
	dir := t.TempDir()
	db, err := bolt.Open(dir, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, Config{DB: db})
	publishMany(t, f, 30)
	f.c.Close()
	postings := downgrade(t, db, from)
	db.Close()

	cmd, lines, stderr := startChild(t, upgradeEnv, dir)
	midway := lines.Scan() && lines.Text() == "midway"
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if !midway {
		t.Fatalf("the child did not stop midway: %q; stderr: %s", lines.Text(), stderr.Bytes())
	}

	db, err = bolt.Open(dir, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if format, fields := formatOf(t, db); format != from || fields != postings {
		t.Fatalf("after the kill: format %d with %d postings, want format %d with %d", format, fields, from, postings)
	}
	err = db.View(func(tx store.Tx) error {
		for k, v := range bucket(tx, didindex.BucketViews).Scan(store.Range{}) {
			parse := map[uint64]func([]byte) (*record.ViewV6, error){6: record.ParseViewV6, 5: record.ParseViewV5}[from]
			if parse == nil {
				parse = record.ParseViewV4
			}
			if view, err := parse(v); err != nil || view.JSON[0] != '{' {
				t.Errorf("after the kill, view %x is not of format %d: %q (%v)", k, min(from, 4), v, err)
			}
		}
		docs := 0
		for range bucket(tx, didindex.BucketDocs).Scan(store.Range{}) {
			docs++
		}
		if want := map[bool]int{true: 30}[from == 6]; docs != want {
			t.Errorf("after the kill, %d documents apart from the views, want %d", docs, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	f.cfg.DB, f.db = db, db
	f.open()
	checkIndexes(t, f.c)
	if format, fields := formatOf(t, db); format != storeFormat || fields == 0 {
		t.Errorf("reopened: format %d with %d postings, want format %d with postings", format, fields, storeFormat)
	}
}

// A snapshot taken by an older version holds a copy of a store of its
// format: reverting to it upgrades the store again, in the revert's
// transaction.
func TestRevertOlderFormat(t *testing.T) {
	for _, from := range []uint64{2, 3, 5, 6} {
		t.Run(fmt.Sprint(from), func(t *testing.T) {
			f := newFixture(t, Config{})
			publishMany(t, f, 20)
			downgrade(t, f.db, from)
			id, err := devnet.Snapshot(f.c)
			if err != nil {
				t.Fatal(err)
			}
			if err := devnet.Revert(context.Background(), f.c, id); err != nil {
				t.Fatal(err)
			}
			checkIndexes(t, f.c)
			if format, _ := formatOf(t, f.db); format != storeFormat {
				t.Errorf("format %d after the revert, want %d", format, storeFormat)
			}
		})
	}
}
