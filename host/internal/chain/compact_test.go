package chain

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.etcd.io/bbolt"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/host/internal/devnet"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/bolt"
)

// A compacted chain store holds exactly what it held (every bucket, key,
// value and sequence), is no larger, and the chain opened on it answers
// resolves, queries and its mempool exactly as before; the mempool log is
// left as it was.
func TestCompactChain(t *testing.T) {
	dir := t.TempDir()
	db, err := bolt.Open(dir, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(dir, MempoolLogFile)
	f := newFixture(t, Config{DB: db, MempoolLog: logPath})
	live := population(t, f, 12)
	if _, err := devnet.Snapshot(f.c); err != nil {
		t.Fatal(err)
	}
	f.submit(f.transfer(f.dev(), newWallet("compact").ph, ela.OneELA))
	before := chainAnswers(t, f, live)
	f.c.Close()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	stored, log := dumpStore(t, db.Path()), readLog(t, logPath)
	size := fileSize(t, db.Path())

	done, err := bolt.Compact(dir, bolt.CompactOptions{Check: CheckFormat})
	if err != nil {
		t.Fatal(err)
	}
	if got := dumpStore(t, db.Path()); !slices.Equal(got, stored) {
		t.Errorf("the compacted store differs: %d entries, want %d; first difference %q", len(got), len(stored), firstDiff(got, stored))
	}
	if after := fileSize(t, db.Path()); after > size || done.Before != size || done.After != after {
		t.Errorf("compacted %d -> %d bytes (reported %d -> %d); want no larger", size, after, done.Before, done.After)
	}
	if got := readLog(t, logPath); !bytes.Equal(got, log) {
		t.Errorf("the mempool log changed: %d bytes, was %d", len(got), len(log))
	}
	if f.db, err = bolt.Open(dir, bolt.Options{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.db.Close() })
	f.cfg.DB = f.db
	f.open()
	if after := chainAnswers(t, f, live); !slices.Equal(after, before) {
		t.Errorf("the chain answers differently after compaction:\n%q\nwant\n%q", after, before)
	}
}

// chainAnswers lists what the chain answers: each DID's resolve with its
// history, queries by service, credential and condition, the mempool and
// the tip.
func chainAnswers(t *testing.T, f *fixture, live []*did.Document) []string {
	t.Helper()
	var out []string
	for _, d := range live {
		b, err := f.c.ResolveDID(context.Background(), d.Subject(), true)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	for _, q := range []Query{
		{Service: "Hub"},
		{Credential: "KYC", Skip: 1, Limit: 3},
		{Condition: compile(t, `{"service.type":{"$in":["Wallet","Profile"]}}`)},
	} {
		b, err := f.c.Query(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	for _, tx := range f.c.Mempool() {
		out = append(out, "pooled "+tx.Hash().String())
	}
	height, hash, at := f.c.Tip()
	return append(out, fmt.Sprintf("tip %d %s %d", height, hash, at))
}

// dumpStore lists every bucket (with its sequence) and key/value of the
// bbolt file at path, nested buckets included, in order.
func dumpStore(t *testing.T, path string) []string {
	t.Helper()
	bdb, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	var out []string
	var walk func(prefix string, b *bbolt.Bucket) error
	walk = func(prefix string, b *bbolt.Bucket) error {
		out = append(out, fmt.Sprintf("bucket %s sequence %d", prefix, b.Sequence()))
		return b.ForEach(func(k, v []byte) error {
			if v == nil {
				return walk(fmt.Sprintf("%s/%x", prefix, k), b.Bucket(k))
			}
			out = append(out, fmt.Sprintf("%s %x=%x", prefix, k, v))
			return nil
		})
	}
	err = bdb.View(func(tx *bbolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bbolt.Bucket) error { return walk(string(name), b) })
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// firstDiff returns the first line of got that differs from want's.
func firstDiff(got, want []string) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return got[i]
		}
	}
	return "(one is a prefix of the other)"
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Size()
}

// CheckFormat accepts a chain of this version's format or an older one,
// and refuses a newer one and a store without a chain.
func TestCheckFormat(t *testing.T) {
	cases := []struct {
		name string
		edit func(tx store.Tx) error // applied to a new chain's store
		want string                  // in the error; "" for none
	}{
		{"current", func(store.Tx) error { return nil }, ""},
		{"format 1", func(tx store.Tx) error { return bucket(tx, bucketMeta).Delete([]byte(metaFormat)) }, ""},
		{"newer", func(tx store.Tx) error { return putMeta(tx, metaFormat, record.U64(storeFormat+1)) },
			fmt.Sprintf("format %d, newer than this version's %d", storeFormat+1, storeFormat)},
		{"no chain", func(tx store.Tx) error { return bucket(tx, bucketMeta).Delete([]byte(metaTip)) }, "no tip"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, Config{})
			f.c.Close()
			if err := f.db.Update(c.edit); err != nil {
				t.Fatal(err)
			}
			err := f.db.View(CheckFormat)
			if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
				t.Errorf("CheckFormat: %v; want %q", err, c.want)
			}
		})
	}
}
