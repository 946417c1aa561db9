package chain

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/host/internal/devnet"
	"github.com/didlight/didlight/host/internal/mempool"
	"github.com/didlight/didlight/host/internal/store/bolt"
	"github.com/didlight/didlight/host/internal/wal"
)

// With a mempool log, acknowledged transactions are in the log, not the
// store; a block empties the log of them; records of transactions a block
// took in that a crash left in the log are dropped when it is reopened;
// a reset empties it.
func TestMempoolLog(t *testing.T) {
	dir := t.TempDir()
	db, err := bolt.Open(dir, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	path := filepath.Join(dir, MempoolLogFile)
	f := newFixture(t, Config{DB: db, MempoolLog: path})
	f.split(f.dev(), 4)
	mined := []ela.Hash{f.submit(f.transfer(f.dev(), newWallet("a").ph, 1)), f.submit(f.transfer(f.dev(), newWallet("b").ph, 1))}
	if n := poolRecords(t, f.c); n != 0 {
		t.Errorf("the pool bucket holds %d transactions, want them in the log only", n)
	}
	stale := readLog(t, path)
	if got := logged(t, path); !slices.Equal(got, mined) {
		t.Fatalf("the log holds %v, want %v", got, mined)
	}
	if got := txids(f.mine())[1:]; !slices.Equal(got, mined) {
		t.Fatalf("block holds %v, want %v", got, mined)
	}
	if got := logged(t, path); len(got) != 0 {
		t.Errorf("the log holds %v once its transactions are in a block, want none", got)
	}

	// A crash after the block left the log as it was before it.
	f.c.Close()
	if err := os.WriteFile(path, stale, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := f.reopen(time.Time{}); err != nil {
		t.Fatal(err)
	}
	if pool := f.c.Mempool(); len(pool) != 0 {
		t.Fatalf("reopened mempool %v, want it empty: its transactions are in a block", pool)
	}
	pooled := f.submit(f.transfer(f.dev(), newWallet("c").ph, 1))
	if err := f.reopen(time.Time{}); err != nil {
		t.Fatal(err)
	}
	if pool := f.c.Mempool(); len(pool) != 1 || pool[0].Hash() != pooled {
		t.Fatalf("reopened mempool %v, want only %s", pool, pooled)
	}
	if got := txids(f.mine())[1:]; !slices.Equal(got, []ela.Hash{pooled}) {
		t.Fatalf("the block after reopening holds %v, want %s", got, pooled)
	}
	if got := logged(t, path); len(got) != 0 {
		t.Errorf("the log holds %v after the reopened chain's block, want none", got)
	}

	f.submit(f.transfer(f.dev(), newWallet("d").ph, 1))
	if err := devnet.Reset(context.Background(), f.c); err != nil {
		t.Fatal(err)
	}
	if got := logged(t, path); len(got) != 0 {
		t.Errorf("the log holds %v after a reset, want none", got)
	}
	checkIndexes(t, f.c)
}

func readLog(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// logged returns the ids of the transactions the log at path replays.
func logged(t *testing.T, path string) []ela.Hash {
	t.Helper()
	bodies, _, _ := wal.Decode(readLog(t, path))
	var out []ela.Hash
	for _, body := range bodies {
		_, p, err := mempool.ParseLogRecord(body)
		if err != nil {
			t.Fatal(err)
		}
		tx, err := ela.ParseTx(p.Raw)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tx.Hash())
	}
	return out
}

func txids(b *ela.Block) []ela.Hash {
	out := make([]ela.Hash, len(b.Transactions))
	for i, tx := range b.Transactions {
		out[i] = tx.Hash()
	}
	return out
}

// On a store that keeps nothing past the process, the mempool is kept in
// memory: an admission writes no record. A snapshot stores the kept
// transactions in the pool bucket, which the block taking them in empties
// again; Close stores them too (TestReopenDropsInvalid opens them again),
// and once the pool is closed, no admission is acknowledged that Close
// would not have stored.
func TestPoolInMemory(t *testing.T) {
	f := newFixture(t, Config{})
	if !f.c.poolInMemory {
		t.Fatal("a chain on a memory store does not keep its mempool in memory")
	}
	f.split(f.dev(), 2)
	first := f.submit(f.transfer(f.dev(), newWallet("kept").ph, 1))
	if n := poolRecords(t, f.c); n != 0 || f.c.Stats().Mempool != 1 {
		t.Fatalf("after an admission: %d mempool records, %d pooled; want none stored, 1 pooled", n, f.c.Stats().Mempool)
	}
	if _, err := devnet.Snapshot(f.c); err != nil {
		t.Fatal(err)
	}
	if n := poolRecords(t, f.c); n != 1 {
		t.Fatalf("after a snapshot: %d mempool records, want 1", n)
	}
	second := f.submit(f.transfer(f.dev(), newWallet("kept").ph, 2))
	b := f.mine()
	if len(b.Transactions) != 3 || b.Transactions[1].Hash() != first || b.Transactions[2].Hash() != second {
		t.Fatalf("block %d holds %d transactions, want the coinbase, %s and %s", b.Header.Height, len(b.Transactions), first, second)
	}
	if n := poolRecords(t, f.c); n != 0 || f.c.Stats().Mempool != 0 {
		t.Fatalf("after the block: %d mempool records, %d pooled", n, f.c.Stats().Mempool)
	}
	f.c.pool.Close()
	if err := f.c.pool.Keep(&entry{}); !errors.Is(err, errClosed) {
		t.Errorf("keeping an entry in a closed pool: %v, want %v", err, errClosed)
	}
}
