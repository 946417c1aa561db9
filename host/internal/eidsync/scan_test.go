package eidsync_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/didlight/didlight/host/client/eid"
	"github.com/didlight/didlight/host/internal/eidsync"
	"github.com/didlight/didlight/host/internal/eidtest"
	"github.com/didlight/didlight/host/internal/eidtest/eidfake"
)

func TestMain(m *testing.M) { serveFakeOrTest(m) }

// client returns an EID client of url with budget off unless cfg sets one.
func client(t testing.TB, url string, cfg eid.Config) *eid.Client {
	t.Helper()
	cfg.Network = eid.Network{Endpoints: []string{url}}
	if cfg.Budget == 0 {
		cfg.Budget = -1
	}
	c, err := eid.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// scan runs a Scanner of cfg until done says its progress is enough,
// and returns Run's error and the last progress reported.
func scan(t *testing.T, cfg eidsync.Config, done func(eidsync.Progress) bool) (eidsync.Progress, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var last eidsync.Progress
	report := cfg.Report
	cfg.Report = func(p eidsync.Progress) {
		last = p
		if report != nil {
			report(p)
		}
		if done(p) {
			cancel()
		}
	}
	if cfg.Poll == 0 {
		cfg.Poll = 5 * time.Millisecond
	}
	if cfg.FailureWait == 0 {
		cfg.FailureWait = time.Millisecond
	}
	s, err := eidsync.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	err = s.Run(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("no end in 30s; last progress %+v", last)
	}
	if errors.Is(err, context.Canceled) {
		err = nil
	}
	return last, err
}

func caughtUp(p eidsync.Progress) bool { return p.CaughtUp }

// recordedOps returns the operations EID accepted in the recording:
// didLog operation and data.
func recordedOps(t testing.TB) (ops, data []string) {
	rec, err := eidtest.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range rec.Manifest.Steps {
		if !s.Accepted {
			continue
		}
		var r struct{ DIDLog eid.DIDLog }
		if err := json.Unmarshal(s.Receipt, &r); err != nil {
			t.Fatal(err)
		}
		ops, data = append(ops, r.DIDLog.Operation), append(data, r.DIDLog.Data)
	}
	return ops, data
}

// TestScanRecording replays the recorded scenario through the scanner:
// every block from genesis to the head reaches the sink linked, and the
// operations it gets are the steps EID accepted, in their order, each
// with its didLog as the node wrote it.
func TestScanRecording(t *testing.T) {
	up := eidtest.NewUpstream(t, eidtest.Options{})
	m := up.Manifest
	sink := &memSink{}
	p, err := scan(t, eidsync.Config{Upstream: client(t, up.URL, eid.Config{}), Sink: sink, Contract: m.Contract, Batch: 16}, caughtUp)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	refused, creates := 0, 0
	for _, s := range m.Steps {
		if !s.Accepted {
			refused++
			continue
		}
		var r struct{ DIDLog eid.DIDLog }
		if err := json.Unmarshal(s.Receipt, &r); err != nil {
			t.Fatal(err)
		}
		if r.DIDLog.Operation == "create" {
			creates++
		}
		var index struct{ TransactionIndex string }
		json.Unmarshal(s.Receipt, &index)
		i, err := strconv.ParseUint(strings.TrimPrefix(index.TransactionIndex, "0x"), 16, 32)
		if err != nil {
			t.Fatalf("step %s: transactionIndex %q", s.Name, index.TransactionIndex)
		}
		h, _ := eidsync.ParseHash(s.TxHash)
		want = append(want, fmt.Sprintf("%d/%d %s %s", s.Block, i, h, r.DIDLog.Data))
	}
	if diff := cmp.Diff(want, sink.ops()); diff != "" {
		t.Errorf("operations (-recorded +scanned):\n%s", diff)
	}
	if len(sink.blocks) == 0 || sink.blocks[0].Number != 0 || sink.blocks[len(sink.blocks)-1].Number != p.Head {
		t.Fatalf("%d blocks applied, want 0 to %d", len(sink.blocks), p.Head)
	}
	for _, b := range sink.blocks {
		if b.UpstreamHead != p.Head { // a still upstream: the one head every pass asked
			t.Errorf("block %d read with the upstream's head %d, want %d", b.Number, b.UpstreamHead, p.Head)
		}
		for _, op := range b.Ops {
			if op.From != strings.ToLower(m.Signer) {
				t.Errorf("block %d: operation from %s, the signer is %s", b.Number, op.From, m.Signer)
			}
		}
	}
	if p.Ops != uint64(len(want)) || p.Refused != uint64(refused) || p.DIDs != uint64(creates) || p.Lag != 0 {
		t.Errorf("progress %+v, want %d operations, %d refused, %d creates, no lag", p, len(want), refused, creates)
	}
}

// TestScanBatches checks how a scan asks: blocks in batches of Batch with
// at most InFlight requests out, in full only those whose bloom may hold a
// DID transaction, receipts only of DID transactions, in one batch per
// batch of blocks that has some, and few Applies of many blocks, none
// larger than ApplyBlocks.
func TestScanBatches(t *testing.T) {
	for _, tc := range []struct {
		name                      string
		head                      uint64
		batch, inFlight, apply    int
		didBlocks                 []uint64
		wantBlockReqs, wantApplys int
	}{
		{"one at a time", 99, 10, 1, 1000, []uint64{3, 50, 51}, 10, 1},
		{"four in flight", 999, 50, 4, 300, []uint64{0, 1, 420, 999}, 20, 4},
		{"uneven end", 104, 25, 3, 0, nil, 5, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := eidfake.New(22, eidsync.MainnetContract, tc.head)
			ops, data := recordedOps(t)
			var want []string
			for i, n := range tc.didBlocks {
				tx := c.Put(n, i%2 == 0, true, ops[i], data[i])
				c.Put(n, i%2 == 1, false, "", "")
				h, _ := eidsync.ParseHash(tx.Hash)
				want = append(want, fmt.Sprintf("%d/%d %s %s", n, tx.Index, h, data[i]))
			}
			sink := &memSink{}
			p, err := scan(t, eidsync.Config{Upstream: client(t, c.Start(t), eid.Config{}), Sink: sink, Batch: tc.batch, InFlight: tc.inFlight, ApplyBlocks: tc.apply}, caughtUp)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, sink.ops()); diff != "" {
				t.Errorf("operations (-placed +scanned):\n%s", diff)
			}
			if uint64(len(sink.blocks)) != tc.head+1 || p.Refused != uint64(len(tc.didBlocks)) {
				t.Errorf("%d blocks, %d refused; want %d, %d", len(sink.blocks), p.Refused, tc.head+1, len(tc.didBlocks))
			}
			withDID := map[uint64]bool{}
			for _, n := range tc.didBlocks {
				withDID[n/uint64(tc.batch)] = true
			}
			distinct := map[uint64]bool{}
			for _, n := range tc.didBlocks {
				distinct[n] = true
			}
			// Less the batches of full blocks and of receipts, eth_chainId and eth_blockNumber.
			blockReqs := int(c.Requests.Load()) - 2*len(withDID) - 2
			if blockReqs != tc.wantBlockReqs || c.ReceiptCalls.Load() != int64(2*len(tc.didBlocks)) || c.FullCalls.Load() != int64(len(distinct)) {
				t.Errorf("%d requests of blocks, %d receipts and %d blocks in full asked; want %d, %d, %d",
					blockReqs, c.ReceiptCalls.Load(), c.FullCalls.Load(), tc.wantBlockReqs, 2*len(tc.didBlocks), len(distinct))
			}
			if most := c.Most.Load(); most > int64(tc.inFlight) {
				t.Errorf("%d requests at once, want at most %d", most, tc.inFlight)
			}
			if len(sink.applies) != tc.wantApplys {
				t.Errorf("applies of %v blocks, want %d applies", sink.applies, tc.wantApplys)
			}
			for _, n := range sink.applies {
				if tc.apply > 0 && n > tc.apply+tc.batch {
					t.Errorf("an Apply of %d blocks, more than %d held and a batch", n, tc.apply)
				}
			}
		})
	}
}

// TestScanReorg switches the upstream to a branch that replaces its last
// blocks once the scan has reached its head: the sink is rolled back to
// the last block both branches share and gets the new branch's blocks
// and operations, the dropped ones gone.
func TestScanReorg(t *testing.T) {
	for _, tc := range []struct {
		name          string
		head          uint64
		fork, newHead uint64
		keep          uint64 // blocks the sink keeps hashes of; 0: all
		wantErr       bool
	}{
		{"last block", 200, 200, 203, 0, false},
		{"ten blocks, longer", 200, 191, 215, 0, false},
		{"deeper than a window", 200, 150, 201, 0, false},
		{"deeper than the sink keeps", 200, 150, 201, 30, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := eidfake.New(22, eidsync.MainnetContract, tc.head)
			ops, data := recordedOps(t)
			c.Put(100, false, true, ops[0], data[0])
			c.Put(tc.fork, true, true, ops[1], data[1]) // dropped by the reorg
			sink := &memSink{keep: tc.keep}
			switched := false
			p, err := scan(t, eidsync.Config{Upstream: client(t, c.Start(t), eid.Config{}), Sink: sink, Batch: 7, Report: func(p eidsync.Progress) {
				if p.CaughtUp && !switched {
					switched = true
					c.Reorg(tc.fork, tc.newHead)
					c.Put(tc.newHead, false, true, ops[2], data[2])
				}
			}}, func(p eidsync.Progress) bool { return switched && p.CaughtUp && p.Synced == tc.newHead })
			if _, ok := errors.AsType[*eidsync.SinkError](err); ok != tc.wantErr || (err != nil && !ok) {
				t.Fatalf("error %v", err)
			}
			if tc.wantErr {
				if len(sink.rollbacks) != 0 || len(sink.blocks) != int(tc.head)+1 {
					t.Errorf("rolled back to %v, %d blocks: want the sink as it was", sink.rollbacks, len(sink.blocks))
				}
				return
			}
			if diff := cmp.Diff([]uint64{tc.fork - 1}, sink.rollbacks); diff != "" {
				t.Errorf("rollbacks (-want +got):\n%s", diff)
			}
			var got []string
			for _, b := range sink.blocks {
				if b.Hash.String() != c.Hash(b.Number) {
					t.Fatalf("block %d is %s, the upstream's is %s", b.Number, b.Hash, c.Hash(b.Number))
				}
				for _, op := range b.Ops {
					got = append(got, fmt.Sprint(b.Number, " ", op.Data[:12]))
				}
			}
			want := []string{fmt.Sprint(100, " ", data[0][:12]), fmt.Sprint(tc.newHead, " ", data[2][:12])}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("operations (-want +got):\n%s", diff)
			}
			if p.Reorgs != 1 || p.RolledBack == 0 {
				t.Errorf("progress %+v, want one reorg", p)
			}
		})
	}
}

// TestScanResume stops a scan after its second Apply and starts another
// on the same sink: it continues from the sink's head, and the sink ends
// with what one whole scan gives.
func TestScanResume(t *testing.T) {
	c := eidfake.New(23, eidsync.TestnetContract, 499)
	ops, data := recordedOps(t)
	for i, n := range []uint64{10, 120, 121, 300, 499} {
		c.Put(n, i%2 == 0, true, ops[i], data[i])
	}
	url := c.Start(t)
	whole := &memSink{}
	if _, err := scan(t, eidsync.Config{Upstream: client(t, url, eid.Config{}), Sink: whole}, caughtUp); err != nil {
		t.Fatal(err)
	}
	sink := &memSink{}
	ctx, stop := context.WithCancel(context.Background())
	sink.onApply = func(s *memSink) {
		if len(s.applies) == 2 {
			stop()
		}
	}
	s, err := eidsync.New(eidsync.Config{Upstream: client(t, url, eid.Config{}), Sink: sink, Batch: 20, InFlight: 2, ApplyBlocks: 60})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Run after the stop: %v", err)
	}
	stopped, _, _ := sink.Head()
	if stopped == 0 || stopped >= 499 {
		t.Fatalf("stopped at block %d, want in the middle", stopped)
	}
	sink.onApply = nil
	p, err := scan(t, eidsync.Config{Upstream: client(t, url, eid.Config{}), Sink: sink}, caughtUp)
	if err != nil {
		t.Fatal(err)
	}
	if p.Blocks != 499-stopped {
		t.Errorf("the restart applied %d blocks, want the %d after block %d", p.Blocks, 499-stopped, stopped)
	}
	if diff := cmp.Diff(whole.ops(), sink.ops()); diff != "" || len(sink.blocks) != 500 {
		t.Errorf("%d blocks; operations (-whole +resumed):\n%s", len(sink.blocks), diff)
	}
}

// TestScanFailures makes the upstream fail requests: the scan waits and
// asks again, says why meanwhile, and ends with every operation.
func TestScanFailures(t *testing.T) {
	c := eidfake.New(22, eidsync.MainnetContract, 299)
	ops, data := recordedOps(t)
	for i, n := range []uint64{5, 150, 299} {
		c.Put(n, false, true, ops[i], data[i])
	}
	c.Fail = func(n int) bool { return 1 <= n && n <= 4 || 10 <= n && n <= 12 }
	sink := &memSink{}
	var sawErr atomic.Bool
	_, err := scan(t, eidsync.Config{Upstream: client(t, c.Start(t), eid.Config{Retries: -1}), Sink: sink, Batch: 30, Report: func(p eidsync.Progress) {
		if p.Err != nil {
			sawErr.Store(true)
		}
	}}, caughtUp)
	if err != nil {
		t.Fatal(err)
	}
	if len(sink.ops()) != 3 || len(sink.blocks) != 300 || !sawErr.Load() {
		t.Errorf("%d operations in %d blocks, an error reported: %v", len(sink.ops()), len(sink.blocks), sawErr.Load())
	}
}

// TestScanContract checks the choice of the DID contract by chain id.
func TestScanContract(t *testing.T) {
	for _, tc := range []struct {
		name     string
		chainID  uint64
		given    string
		placedTo string
		wantOps  int
		wantErr  bool
	}{
		{"mainnet", 22, "", eidsync.MainnetContract, 1, false},
		{"testnet", 23, "", eidsync.TestnetContract, 1, false},
		{"testnet's on mainnet", 22, "", eidsync.TestnetContract, 0, false},
		{"given", 7203, "0x3A220F351252089D385B29BECA14E27F204C296A", "0x3a220f351252089d385b29beca14e27f204c296a", 1, false},
		{"another chain", 7203, "", eidsync.MainnetContract, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := eidfake.New(tc.chainID, tc.placedTo, 9)
			ops, data := recordedOps(t)
			c.Put(4, false, true, ops[0], data[0])
			sink := &memSink{}
			_, err := scan(t, eidsync.Config{Upstream: client(t, c.Start(t), eid.Config{}), Sink: sink, Contract: tc.given}, caughtUp)
			if _, ok := errors.AsType[*eidsync.SinkError](err); ok != tc.wantErr {
				t.Fatalf("error %v", err)
			}
			if len(sink.ops()) != tc.wantOps {
				t.Errorf("%d operations, want %d", len(sink.ops()), tc.wantOps)
			}
		})
	}
}

// TestScanBudget scans within the client's budget: a batch of n blocks
// spends n of it, so the upstream gets no more calls than the burst and
// the rate allow in the time the scan took.
func TestScanBudget(t *testing.T) {
	c := eidfake.New(22, eidsync.MainnetContract, 399)
	const budget, burst = 1000, 50
	start := time.Now()
	sink := &memSink{}
	if _, err := scan(t, eidsync.Config{Upstream: client(t, c.Start(t), eid.Config{Budget: budget, Burst: burst}), Sink: sink, Batch: 50, InFlight: 4}, caughtUp); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	calls := c.Elements.Load()
	if calls < 400 || float64(calls) > burst+budget*took.Seconds()+1 {
		t.Errorf("%d calls in %v, want 400 to what %d a second with bursts of %d allow", calls, took, budget, burst)
	}
	if len(sink.blocks) != 400 {
		t.Errorf("%d blocks", len(sink.blocks))
	}
}
