package bolt

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/didlight/didlight/host/internal/store"
)

// The crash test runs this test binary again as a child process that
// commits steps into a store until it is killed; crashChildEnv carries the
// data directory to the child.
const crashChildEnv = "DIDLIGHT_STORE_CRASH_CHILD"

// soakEnv asks for a long crash test: DIDLIGHT_SOAK=1 kills the child
// soakKills times, any larger number that many times.
const (
	soakEnv     = "DIDLIGHT_SOAK"
	soakKills   = 2000
	defaultKill = 100
)

func TestMain(m *testing.M) {
	if dir := os.Getenv(crashChildEnv); dir != "" {
		crashChild(dir)
	}
	if dir := os.Getenv(compactChildEnv); dir != "" {
		compactChild(dir)
	}
	os.Exit(m.Run())
}

// crashChild opens the store, says "ready", then commits step after step
// and prints each step's number once Update has returned. It never returns.
func crashChild(dir string) {
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "crash child:", err)
		os.Exit(2)
	}
	db, err := Open(dir, Options{LockTimeout: 10 * time.Second})
	if err != nil {
		fail(err)
	}
	head, err := readHead(db)
	if err != nil {
		fail(err)
	}
	fmt.Println("ready")
	for n := head + 1; ; n++ {
		if err := commitStep(db, n); err != nil {
			fail(err)
		}
		fmt.Println(n)
	}
}

// Each step n writes key n, with values of different sizes, into the data
// buckets, deletes the key that fell out of the window, takes bucket "a"'s
// next sequence number, and records n and a checksum of its values in
// bucket "meta". Every check after a crash follows from these rules.
var crashBuckets = []string{"a", "b", "c"}

const window = 300 // keys kept per data bucket

func stepKey(n uint64) []byte { return binary.BigEndian.AppendUint64(nil, n) }

// stepValue is the value step n writes into bucket name: up to ~24 KiB of
// bytes derived from both, so that some values need overflow pages.
func stepValue(n uint64, name string) []byte {
	seed := sha256.Sum256(fmt.Appendf(nil, "%d/%s", n, name))
	size := int(binary.BigEndian.Uint16(seed[:]))
	switch name {
	case "a":
		size %= 200
	case "b":
		size %= 3000
	default:
		size %= 24000
	}
	return bytes.Repeat(seed[:], size/len(seed)+1)[:size]
}

func stepSum(n uint64) []byte {
	h := sha256.New()
	for _, name := range crashBuckets {
		h.Write(stepValue(n, name))
	}
	return h.Sum(nil)
}

func commitStep(db *DB, n uint64) error {
	return db.Update(func(tx store.Tx) error {
		for _, name := range crashBuckets {
			b, err := tx.Bucket(name)
			if err != nil {
				return err
			}
			if err := b.Put(stepKey(n), stepValue(n, name)); err != nil {
				return err
			}
			if n > window {
				if err := b.Delete(stepKey(n - window)); err != nil {
					return err
				}
			}
			if name == "a" {
				if seq, err := b.NextSequence(); err != nil || seq != n {
					return fmt.Errorf("step %d: sequence %d, %v", n, seq, err)
				}
			}
		}
		meta, err := tx.Bucket("meta")
		if err != nil {
			return err
		}
		return errors.Join(meta.Put([]byte("head"), stepKey(n)), meta.Put([]byte("sum"), stepSum(n)))
	})
}

func readHead(db *DB) (uint64, error) {
	var head uint64
	err := db.View(func(tx store.Tx) error {
		meta, err := tx.Bucket("meta")
		if err != nil {
			return err
		}
		if v, ok := meta.Get([]byte("head")); ok {
			head = binary.BigEndian.Uint64(v)
		}
		return nil
	})
	return head, err
}

// checkSteps returns the last step in the store, or an error if the store
// is not exactly the result of steps 1 to that one: every data bucket holds
// the keys of the window and no other, with the values the steps wrote, and
// the sequence and checksum agree with the head.
func checkSteps(db *DB) (uint64, error) {
	head, err := readHead(db)
	if err != nil {
		return 0, err
	}
	var want [][]byte
	for n := max(head, window) - window + 1; n <= head; n++ {
		want = append(want, stepKey(n))
	}
	return head, db.View(func(tx store.Tx) error {
		meta, _ := tx.Bucket("meta")
		if sum, _ := meta.Get([]byte("sum")); head > 0 && !bytes.Equal(sum, stepSum(head)) {
			return fmt.Errorf("head %d: checksum %x, want %x", head, sum, stepSum(head))
		}
		for _, name := range crashBuckets {
			b, _ := tx.Bucket(name)
			if name == "a" && b.Sequence() != head {
				return fmt.Errorf("head %d: bucket a at sequence %d", head, b.Sequence())
			}
			var keys [][]byte
			for k, v := range b.Scan(store.Range{}) {
				n := binary.BigEndian.Uint64(k)
				if !bytes.Equal(v, stepValue(n, name)) {
					return fmt.Errorf("head %d: bucket %s, step %d: wrong value", head, name, n)
				}
				keys = append(keys, k)
			}
			if !slices.EqualFunc(keys, want, bytes.Equal) {
				return fmt.Errorf("head %d: bucket %s holds %d keys from %x to %x, want %d", head, name, len(keys), keys[0], keys[len(keys)-1], len(want))
			}
		}
		return nil
	})
}

// TestCrash kills a child process that is committing steps, at random
// moments, many times. After each kill the store must open, hold exactly
// the steps up to some head (each Update wholly present or wholly absent),
// have kept every step the child acknowledged, and take new commits.
func TestCrash(t *testing.T) {
	kills := defaultKill
	if s := os.Getenv(soakEnv); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("%s=%q: want 1 or a number of kills", soakEnv, s)
		}
		kills = soakKills
		if n > 1 {
			kills = n
		}
	}
	dir := crashDir(t, kills == defaultKill)
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 0))
	var (
		head    uint64 // the store's last step, as the parent last saw it
		unacked int    // kills that fell between a commit and its acknowledgement
		early   int    // kills before the child was ready
	)
	for i := range kills {
		// Most kills come while the child commits; some while it opens.
		waitReady, delay := true, time.Duration(r.IntN(25_000))*time.Microsecond
		if i%8 == 0 {
			waitReady, delay = false, time.Duration(r.IntN(5_000))*time.Microsecond
		}
		printed, ready := crashOnce(t, crashChildEnv, dir, waitReady, delay)
		acked := max(head, printed)
		if !ready {
			early++
		}
		db, err := Open(dir, Options{})
		if err != nil {
			t.Fatalf("kill %d: reopen: %v", i, err)
		}
		if head, err = checkSteps(db); err != nil {
			t.Fatalf("kill %d: %v", i, err)
		}
		switch {
		case head < acked:
			t.Fatalf("kill %d: store at step %d, but step %d was acknowledged", i, head, acked)
		case head > acked+1:
			t.Fatalf("kill %d: store at step %d, after only %d acknowledged", i, head, acked)
		case head == acked+1:
			unacked++
		}
		// The reopened store takes a commit and stays consistent.
		head++
		if err := commitStep(db, head); err != nil {
			t.Fatalf("kill %d: commit after reopen: %v", i, err)
		}
		if after, err := checkSteps(db); err != nil || after != head {
			t.Fatalf("kill %d: after a commit at reopen: head %d, want %d, %v", i, after, head, err)
		}
		db.Close()
	}
	t.Logf("%d kills (%d while opening); %d steps committed; %d kills fell between a commit and its acknowledgement", kills, early, head, unacked)
	if head < uint64(kills) {
		t.Errorf("only %d steps in %d kills: the child made no progress", head, kills)
	}
}

// crashOnce starts the child that env names, lets it run for delay (after it is ready, if
// waitReady), kills it with SIGKILL, and returns the last step it
// acknowledged (0 if none) and whether it got ready.
func crashOnce(t *testing.T, env, dir string, waitReady bool, delay time.Duration) (acked uint64, ready bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env+"="+dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	if waitReady {
		ready = lines.Scan() && lines.Text() == "ready"
		if !ready {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("child did not get ready: said %q; stderr: %s", lines.Text(), stderr.Bytes())
		}
	}
	time.Sleep(delay)
	cmd.Process.Signal(syscall.SIGKILL) // if it fails, the child ended by itself: see below
	for lines.Scan() {
		switch line := lines.Text(); line {
		case "ready":
			ready = true
		default:
			if acked, err = strconv.ParseUint(line, 10, 64); err != nil {
				t.Fatalf("child said %q", line)
			}
		}
	}
	err = cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("child ended by %v, not by the kill: %s", err, stderr.Bytes())
	}
	return acked, ready
}

// crashDir returns the data directory for the crash test. A killed process
// leaves its writes in the page cache, so a disk adds nothing to what the
// test checks but fsync waits: the default run uses a tmpfs when there is
// one, to fit many kills in a few seconds; the soak uses TMPDIR.
func crashDir(t *testing.T, fast bool) string {
	if !fast {
		return t.TempDir()
	}
	dir, err := os.MkdirTemp("/dev/shm", "didlight-crash-")
	if err != nil {
		return t.TempDir()
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}
