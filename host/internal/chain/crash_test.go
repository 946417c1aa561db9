package chain

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/mempool"
	"github.com/didlight/didlight/host/internal/store/bolt"
	"github.com/didlight/didlight/host/internal/wal"
)

// The chain crash test runs this test binary again as a child that ingests
// transactions and DID operations into a bolt store and makes blocks, until
// it is killed. crashEnv names the child's data directory.
const crashEnv = "DIDLIGHT_CHAIN_CRASH_CHILD"

// soakEnv asks for a long crash test: DIDLIGHT_SOAK=1 kills the child
// soakKills times, a larger number that many times.
const (
	soakEnv      = "DIDLIGHT_SOAK"
	soakKills    = 400
	defaultKills = 30
)

// crashWorkers is how many goroutines of the child submit at once.
const crashWorkers = 4

func TestMain(m *testing.M) {
	if dir := os.Getenv(upgradeEnv); dir != "" {
		if err := upgradeChild(dir); err != nil {
			fmt.Fprintln(os.Stderr, "upgrade child:", err)
			os.Exit(2)
		}
	}
	if dir := os.Getenv(crashEnv); dir != "" {
		if err := crashChild(dir); err != nil {
			fmt.Fprintln(os.Stderr, "crash child:", err)
			os.Exit(2)
		}
	}
	if dir := os.Getenv(revertEnv); dir != "" {
		if err := revertChild(dir); err != nil {
			fmt.Fprintln(os.Stderr, "revert child:", err)
			os.Exit(2)
		}
	}
	os.Exit(m.Run())
}

// crashChild opens the chain, says "ready", then submits transactions from
// crashWorkers goroutines and makes blocks, printing "sent TXID" before
// SubmitTx, "ack TXID" once it has accepted a transaction and "block
// HEIGHT" once Mine has stored a block. It returns only on an error.
func crashChild(dir string) error {
	db, err := bolt.Open(dir, bolt.Options{LockTimeout: 10 * time.Second})
	if err != nil {
		return err
	}
	var out sync.Mutex
	say := func(format string, args ...any) {
		out.Lock()
		defer out.Unlock()
		fmt.Printf(format+"\n", args...)
	}
	c, err := Open(Config{DB: db, Logger: slog.New(evictions{say}), MempoolLog: filepath.Join(dir, MempoolLogFile)})
	if err != nil {
		return err
	}
	if err := fundWorkers(c); err != nil {
		return err
	}
	say("ready")
	errc := make(chan error, crashWorkers+1)
	for w := range crashWorkers {
		go func() { errc <- crashWorker(c, w, say) }()
	}
	go func() {
		r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
		for {
			time.Sleep(time.Duration(r.IntN(20)) * time.Millisecond)
			b, err := c.Mine(context.Background())
			if err != nil {
				errc <- err
				return
			}
			say("block %d", b.Header.Height)
		}
	}()
	return <-errc
}

// evictions is a log handler that says "evict TXID" for each transaction a
// block evicts from the mempool (an operation that stopped being valid
// while it waited, such as a declare whose owner a deactivate before it in
// the block deactivated).
type evictions struct{ say func(string, ...any) }

func (evictions) Enabled(context.Context, slog.Level) bool { return true }
func (h evictions) WithAttrs([]slog.Attr) slog.Handler     { return h }
func (h evictions) WithGroup(string) slog.Handler          { return h }

func (h evictions) Handle(_ context.Context, r slog.Record) error {
	if r.Message != logEvicted {
		return nil
	}
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "txid" {
			h.say("evict %s", a.Value)
		}
		return a.Key != "txid"
	})
	return nil
}

// workerWallet is the wallet crash worker w spends from.
func workerWallet(w int) wallet { return newWallet("crash worker " + strconv.Itoa(w)) }

// fundWorkers pays every worker's wallet from the dev account, once: a new
// store's first act.
func fundWorkers(c *Chain) error {
	if bal, err := c.Balance(workerWallet(0).ph, ela.ELAAssetID()); err != nil || bal > 0 {
		return err
	}
	utxos, err := c.UTXOs(c.dev.ProgramHash)
	if err != nil || len(utxos) != 1 {
		return fmt.Errorf("the dev account holds %d outputs (%v)", len(utxos), err)
	}
	tx := &ela.Tx{Payload: &ela.TransferAsset{}, Inputs: []ela.Input{{TxID: utxos[0].Txid, Index: utxos[0].Index}}}
	for w := range crashWorkers {
		for range 8 {
			tx.Outputs = append(tx.Outputs, out(workerWallet(w).ph, 1000*ela.OneELA))
		}
	}
	tx.Outputs = append(tx.Outputs, out(c.dev.ProgramHash, utxos[0].Value-crashWorkers*8000*ela.OneELA-c.params.MinFee))
	tx.SignStandard(c.dev.PrivateKey)
	if _, err := c.SubmitTx(tx.Bytes()); err != nil && ledger.Code(rejectCode(err)) != ledger.Duplicate {
		return err
	}
	_, err = c.Mine(context.Background())
	return err
}

func rejectCode(err error) int {
	if r, ok := errors.AsType[*RejectError](err); ok {
		return r.Code
	}
	return 0
}

// crashWorker submits transactions from its wallet: transfers to other
// workers and operations on its users' DIDs (create, update, deactivate),
// each carried by its own transaction.
func crashWorker(c *Chain, w int, say func(string, ...any)) error {
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(w)))
	me := workerWallet(w)
	for {
		u, err := freeOutput(c, me)
		if err != nil {
			return err
		}
		if u == nil {
			time.Sleep(2 * time.Millisecond)
			continue
		}
		var payload ela.Payload = &ela.TransferAsset{}
		outs := []ela.Output{out(workerWallet(r.IntN(crashWorkers)).ph, ela.OneELA)}
		if r.IntN(3) > 0 {
			req, err := crashOperation(c, w, r)
			if err != nil {
				return err
			}
			if req != nil {
				payload, outs = operation(*req), nil
			}
		}
		change := u.Value - c.params.MinFee - ela.Fixed64(len(outs))*ela.OneELA
		outs = append(outs, out(me.ph, change/2), out(me.ph, change-change/2))
		tx := &ela.Tx{Payload: payload, Inputs: []ela.Input{{TxID: u.Txid, Index: u.Index}}, Outputs: outs}
		tx.SignStandard(me.key)
		raw := tx.Bytes()
		say("sent %s", tx.Hash())
		h, err := c.SubmitTx(raw)
		switch {
		case err == nil:
			say("ack %s %x", h, raw)
		case rejectCode(err) == int(ledger.Payload), rejectCode(err) == int(ledger.DoubleSpend), rejectCode(err) == int(ledger.Duplicate):
			// A block landed between reading the wallet's outputs or a
			// DID's state and submitting, or the DID has an operation
			// pending: the worker raced the miner, as any client may.
		default:
			return err
		}
	}
}

// freeOutput returns the wallet's first output no pooled transaction
// spends, or nil.
func freeOutput(c *Chain, w wallet) (*UTXO, error) {
	all, err := c.UTXOs(w.ph)
	if err != nil {
		return nil, err
	}
	for i, u := range all {
		if u.Value > 4*ela.OneELA && !c.pool.Spent(ela.Input{TxID: u.Txid, Index: u.Index}) {
			return &all[i], nil
		}
	}
	return nil, nil
}

// crashOperation returns an operation on one of worker w's DIDs, chosen at
// random among the existing ones and the next to create, or nil when the
// one chosen is deactivated.
func crashOperation(c *Chain, w int, r *rand.Rand) (*idop.Request, error) {
	n := 0
	for ; ; n++ {
		st, _, err := crashState(c, w, n)
		if err != nil {
			return nil, err
		}
		if st == 3 {
			break
		}
	}
	i := r.IntN(n + 1)
	u := newUser(fmt.Sprintf("crash %d/%d", w, i))
	st, last, err := crashState(c, w, i)
	if err != nil {
		return nil, err
	}
	expires := time.Unix(time.Now().Unix(), 0).AddDate(5, 0, r.IntN(300))
	svcs := []did.Service{service("s", []string{"Hub", "Wallet", "Profile"}[r.IntN(3)])}
	doc, err := crashDocument(u, expires, svcs)
	if err != nil {
		return nil, err
	}
	var req idop.Request
	switch {
	case st == 3:
		req, err = idop.NewCreate(doc, u.primary(), u.key)
	case st == 2:
		return nil, nil
	case r.IntN(4) == 0: // declare or revoke one of a few credentials
		var c *did.Credential
		if c, err = signedCredential(u, u, fmt.Sprintf("c%d", r.IntN(4)), "EmailCredential"); err != nil {
			return nil, err
		}
		if r.IntN(3) == 0 {
			req, err = idop.NewRevoke(c.ID, u.primary(), u.key)
		} else {
			req, err = idop.NewDeclare(c, u.primary(), u.key)
		}
	case r.IntN(10) == 0:
		req, err = idop.NewDeactivate(u.did(), u.primary(), u.key)
	default:
		req, err = idop.NewUpdate(doc, last, u.primary(), u.key)
	}
	return &req, err
}

func crashDocument(u *user, expires time.Time, svcs []did.Service) (*did.Document, error) {
	doc, err := did.NewDocument(u.key.Public(), expires, svcs...)
	if err != nil {
		return nil, err
	}
	return doc.Sign(u.key, u.primary(), GenesisTime)
}

// crashState returns the status of worker w's DID i and its last
// transaction.
func crashState(c *Chain, w, i int) (int, string, error) {
	b, err := c.ResolveDID(context.Background(), newUser(fmt.Sprintf("crash %d/%d", w, i)).did(), false)
	if err != nil {
		return 0, "", err
	}
	var r resolved
	if err := json.Unmarshal(b, &r); err != nil {
		return 0, "", err
	}
	if len(r.Transaction) == 0 {
		return r.Status, "", nil
	}
	return r.Status, r.Transaction[0].Txid, nil
}

// TestCrash kills a child ingesting transactions and DID operations, at
// random moments, many times; after every other kill it also zeroes the
// mempool log's unacknowledged tail from a random point (tearLog). After each kill
// the chain must reopen at a block no lower than the last one the child
// stored, with every index exactly what its blocks imply (checkIndexes),
// and with every transaction the child had acknowledged in a block or in
// the mempool.
func TestCrash(t *testing.T) {
	kills := defaultKills
	if s := os.Getenv(soakEnv); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("%s=%q: want 1 or a number of kills", soakEnv, s)
		}
		kills = max(n, soakKills)
		if n == 1 {
			kills = soakKills
		}
	}
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 0))
	acked := map[ela.Hash][]byte{} // acknowledged transactions not evicted
	sent := map[ela.Hash]bool{}    // every transaction a child submitted
	evicted := 0
	reloaded := 0     // acknowledged transactions a reopened chain had only in its mempool (its log), over every kill
	torn := 0         // bytes of the log's unacknowledged tails zeroed
	var height uint32 // the highest block the child said it stored
	early := 0
	for i := range kills {
		// Most kills come while the child works; some while it opens, when
		// it validates its mempool again.
		waitReady, d := true, time.Duration(50+r.IntN(300))*time.Millisecond
		if i%5 == 4 {
			waitReady, d = false, time.Duration(r.IntN(60))*time.Millisecond
		}
		run := crashOnce(t, dir, waitReady, d)
		if !run.ready {
			early++
		}
		for h, raw := range run.acked {
			acked[h] = raw
		}
		for h := range run.sent {
			sent[h] = true
		}
		for _, h := range run.evicted {
			// A transaction made durable by a child killed before it said
			// "ack" may be evicted by the next child without an ack.
			if !sent[h] {
				t.Fatalf("kill %d: the child evicted %s, which no child submitted", i, h)
			}
			delete(acked, h)
			evicted++
		}
		height = max(height, run.height)
		if i%2 == 1 {
			torn += tearLog(t, filepath.Join(dir, MempoolLogFile), acked, r)
		}
		db, err := bolt.Open(dir, bolt.Options{})
		if err != nil {
			t.Fatalf("kill %d: %v", i, err)
		}
		c, err := Open(Config{DB: db, MempoolLog: filepath.Join(dir, MempoolLogFile)})
		if err != nil {
			t.Fatalf("kill %d: reopen: %v", i, err)
		}
		if h, _, _ := c.Tip(); h < height {
			t.Fatalf("kill %d: reopened at height %d, the child had stored block %d", i, h, height)
		}
		checkIndexes(t, c)
		pooled := 0
		for h, raw := range acked {
			_, ctx, err := c.Tx(h)
			switch {
			case errors.Is(err, ErrNotFound) && evictedUnsaid(c, raw):
				delete(acked, h)
				evicted++
			case err != nil:
				t.Fatalf("kill %d: acknowledged transaction %s is lost: %v", i, h, err)
			case ctx.BlockHash.IsZero():
				pooled++
			}
		}
		reloaded += pooled
		if i == kills-1 {
			h, _, _ := c.Tip()
			t.Logf("%d kills (%d before the child was ready): height %d, %d transactions acknowledged and kept, %d of them pooled at the end, %d reloaded from the mempool log over all reopens (%d bytes of its unacknowledged tails zeroed); %d evicted",
				kills, early, h, len(acked), pooled, reloaded, torn, evicted)
		}
		c.Close()
		db.Close()
	}
	if len(acked) < kills {
		t.Errorf("%d transactions acknowledged in %d runs: the child made little progress", len(acked), kills)
	}
}

// tearLog zeroes the mempool log's records from a random point after its
// last record of an acknowledged transaction, as a power cut may lose what
// was written but not synced (a kill loses nothing written): whole
// records, or part of one, of transactions never acknowledged. It returns
// how many bytes it zeroed.
func tearLog(t *testing.T, path string, acked map[ela.Hash][]byte, r *rand.Rand) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0 // the child was killed before it opened the log
	}
	if err != nil {
		t.Fatal(err)
	}
	bodies, offsets, end := wal.Decode(data)
	keep := 0
	for i, body := range bodies {
		_, p, err := mempool.ParseLogRecord(body)
		if err != nil {
			t.Fatalf("mempool log record %d: %v", i, err)
		}
		tx, err := ela.ParseTx(p.Raw)
		if err != nil {
			t.Fatalf("mempool log record %d: %v", i, err)
		}
		if _, ok := acked[tx.Hash()]; ok {
			keep = end
			if i+1 < len(offsets) {
				keep = int(offsets[i+1])
			}
		}
	}
	cut := keep + r.IntN(end-keep+1)
	clear(data[cut:end])
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return end - cut
}

// evictedUnsaid reports whether a transaction missing from the chain was
// evicted by a block whose log line the kill cut off: its identity
// operation is no longer valid, so the chain refuses it again with 45009.
// A transaction that was lost instead would be accepted.
func evictedUnsaid(c *Chain, raw []byte) bool {
	_, err := c.SubmitTx(raw)
	return rejectCode(err) == int(ledger.Payload)
}

// crashRun is what a child said before it was killed.
type crashRun struct {
	ready   bool
	acked   map[ela.Hash][]byte // the acknowledged transactions
	sent    map[ela.Hash]bool   // the transactions submitted
	evicted []ela.Hash
	height  uint32
}

// startChild runs this test binary again as a child whose environment
// variable env names dir, and returns it, the lines it prints and what it
// writes to stderr.
func startChild(t *testing.T, env, dir string) (*exec.Cmd, *bufio.Scanner, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env+"="+dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, bufio.NewScanner(stdout), &stderr
}

// crashOnce runs the child, lets it work for d (from when it is ready, if
// waitReady), kills it, and returns what it said.
func crashOnce(t *testing.T, dir string, waitReady bool, d time.Duration) crashRun {
	t.Helper()
	cmd, lines, stderr := startChild(t, crashEnv, dir)
	run := crashRun{acked: map[ela.Hash][]byte{}, sent: map[ela.Hash]bool{}}
	if waitReady {
		if run.ready = lines.Scan() && lines.Text() == "ready"; !run.ready {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the child did not get ready: %q; stderr: %s", lines.Text(), stderr.Bytes())
		}
	}
	timer := time.AfterFunc(d, func() { cmd.Process.Signal(syscall.SIGKILL) })
	defer timer.Stop()
	for lines.Scan() {
		word, arg, _ := strings.Cut(lines.Text(), " ")
		switch word {
		case "ready":
			run.ready = true
		case "ack":
			id, text, _ := strings.Cut(arg, " ")
			h, err := ela.ParseHash(id)
			raw, herr := hex.DecodeString(text)
			if err != nil || herr != nil {
				t.Fatalf("the child said %q", lines.Text())
			}
			run.acked[h] = raw
		case "sent", "evict":
			h, err := ela.ParseHash(arg)
			if err != nil {
				t.Fatalf("the child said %q", lines.Text())
			}
			if word == "sent" {
				run.sent[h] = true
			} else {
				run.evicted = append(run.evicted, h)
			}
		case "block":
			n, err := strconv.ParseUint(arg, 10, 32)
			if err != nil {
				t.Fatalf("the child said %q", lines.Text())
			}
			run.height = uint32(n)
		default:
			t.Fatalf("the child said %q", lines.Text())
		}
	}
	err := cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the child ended by %v, not by the kill: %s", err, stderr.Bytes())
	}
	return run
}
