package chain

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/didlight/didlight/host/internal/devnet"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/bolt"
)

// revertEnv names the data directory of a child (this test binary run
// again) that reverts its chain to snapshot 1 and is killed meanwhile.
const revertEnv = "DIDLIGHT_CHAIN_REVERT_CHILD"

// revertChild opens the chain in dir, says "reverting", reverts to
// snapshot 1, says "reverted" and waits to be killed.
func revertChild(dir string) error {
	db, err := bolt.Open(dir, bolt.Options{LockTimeout: 10 * time.Second})
	if err != nil {
		return err
	}
	c, err := Open(Config{DB: db})
	if err != nil {
		return err
	}
	fmt.Println("reverting")
	if err := devnet.Revert(context.Background(), c, 1); err != nil {
		return err
	}
	fmt.Println("reverted")
	select {}
}

// A node killed while it reverts comes back before the revert or after it,
// never in between, with an undo log that still reverts to the snapshot:
// the child is killed at random times from when it begins a revert, to a
// snapshot reverted to once already, of a chain of a few hundred DIDs.
func TestRevertCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("kills child processes; skipped with -short")
	}
	prepared := t.TempDir()
	start := time.Now()
	after, before := prepareRevert(t, prepared)
	t.Logf("prepared in %s", time.Since(start))
	took := revertOnce(t, prepared, t.TempDir(), time.Hour)
	outcomes := map[string]int{}
	for i := range 12 {
		dir := t.TempDir()
		d := time.Duration(rand.Int64N(int64(2 * took)))
		revertOnce(t, prepared, dir, d)
		got, again := reopenedState(t, dir)
		switch got {
		case before:
			outcomes["before"]++
		case after:
			outcomes["after"]++
		default:
			t.Fatalf("kill %d, %s into the revert: the chain is neither before nor after it:\n%s\nbefore:\n%s\nafter:\n%s", i, d, got, before, after)
		}
		if again != after {
			t.Fatalf("kill %d, %s into the revert: reverting once more left\n%s\nwant\n%s", i, d, again, after)
		}
	}
	t.Logf("a revert took %s; 12 kills within twice that: %v", took, outcomes)
	if outcomes["before"] == 0 {
		t.Errorf("no kill landed before the revert committed (%v): the test proves nothing", outcomes)
	}
}

// prepareRevert builds a chain in dir with snapshot 1 taken after 300 DIDs
// and reverted to once, after 300 more and a pooled payment; then 100 more
// DIDs, snapshot 2, 50 more and another pooled payment. It returns the
// states (revertState) a revert to snapshot 1 must leave, and the chain's
// state before it.
func prepareRevert(t *testing.T, dir string) (after, before string) {
	db, err := bolt.Open(dir, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, Config{DB: db})
	f.publishUsers("revert a", 300)
	if _, err := devnet.Snapshot(f.c); err != nil {
		t.Fatal(err)
	}
	after = revertState(t, f.c, db)
	f.publishUsers("revert b", 300)
	f.submit(f.transfer(f.dev(), newWallet("w").ph, 500_000_000))
	if err := devnet.Revert(context.Background(), f.c, 1); err != nil {
		t.Fatal(err)
	}
	if again := revertState(t, f.c, db); again != after {
		t.Fatalf("after the first revert:\n%s\nwant\n%s", again, after)
	}
	f.publishUsers("revert c", 100)
	if _, err := devnet.Snapshot(f.c); err != nil {
		t.Fatal(err)
	}
	f.publishUsers("revert d", 50)
	f.submit(f.transfer(f.dev(), newWallet("v").ph, 500_000_000))
	before = revertState(t, f.c, db)
	f.c.Close()
	db.Close()
	return after, before
}

// revertState is storedState with the ids of the snapshots kept.
func revertState(t *testing.T, c *Chain, db store.DB) string {
	t.Helper()
	return fmt.Sprintf("%s\nsnapshots %v", storedState(t, c, db), snapshotIDs(t, db))
}

// revertOnce copies the store in prepared to dir, runs the revert child
// on it, kills it d after it says "reverting" (or once it has reverted,
// whichever comes later when d is an hour), and returns how long the
// revert took if the child said so.
func revertOnce(t *testing.T, prepared, dir string, d time.Duration) time.Duration {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(prepared, "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no store in %s: %v", prepared, err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o600)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	cmd, lines, stderr := startChild(t, revertEnv, dir)
	defer cmd.Wait()
	defer cmd.Process.Signal(syscall.SIGKILL)
	if !lines.Scan() || lines.Text() != "reverting" {
		t.Fatalf("the child said %q; stderr: %s", lines.Text(), stderr.Bytes())
	}
	start := time.Now()
	if d < time.Hour {
		time.Sleep(d) // then the deferred kill
		return 0
	}
	if !lines.Scan() || lines.Text() != "reverted" {
		t.Fatalf("the child said %q; stderr: %s", lines.Text(), stderr.Bytes())
	}
	return time.Since(start)
}

// reopenedState opens the chain a killed child left in dir and returns
// its revertState, then that of the chain reverted to snapshot 1 once
// more.
func reopenedState(t *testing.T, dir string) (state, again string) {
	t.Helper()
	db, err := bolt.Open(dir, bolt.Options{LockTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c, err := Open(Config{DB: db})
	if err != nil {
		t.Fatalf("reopen after the kill: %v", err)
	}
	defer c.Close()
	state = revertState(t, c, db)
	if err := devnet.Revert(context.Background(), c, 1); err != nil {
		t.Fatalf("reverting once more after the kill: %v", err)
	}
	return state, revertState(t, c, db)
}
