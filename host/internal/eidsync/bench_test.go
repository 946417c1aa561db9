package eidsync_test

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/didlight/didlight/host/client/eid"
	"github.com/didlight/didlight/host/internal/cputime"
	"github.com/didlight/didlight/host/internal/eidsync"
	"github.com/didlight/didlight/host/internal/eidtest"
	"github.com/didlight/didlight/host/internal/eidtest/eidfake"
	"github.com/didlight/didlight/host/internal/eidtest/eidnode"
)

// fakeEnv, set to a head block number, makes the test binary serve a
// fakeChain of empty blocks up to it on a loopback port instead of
// testing: it writes the URL as its first line and serves until its
// standard input closes. A benchmark runs its upstream so, in a process
// of its own, so that the upstream's CPU is not counted as the scan's.
const fakeEnv = "EIDSYNC_FAKE_UPSTREAM"

func serveFakeOrTest(m *testing.M) {
	head := os.Getenv(fakeEnv)
	if head == "" {
		code := eidtest.Main(m)
		if live.node != nil {
			live.node.Stop()
			os.RemoveAll(live.node.Dir)
		}
		os.Exit(code)
	}
	n, err := strconv.ParseUint(head, 10, 64)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s=%q: %v\n", fakeEnv, head, err)
		os.Exit(2)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fmt.Printf("http://%s\n", l.Addr())
	c := eidfake.New(22, eidsync.MainnetContract, n)
	go http.Serve(l, c.Handler())
	io.Copy(io.Discard, os.Stdin)
	os.Exit(0)
}

// startFake starts the test binary as a fake upstream of head+1 empty
// blocks in its own process, and returns its URL and a function that
// stops it and returns the CPU it used.
func startFake(b *testing.B, head uint64) (url string, stop func() time.Duration) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d", fakeEnv, head))
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		b.Fatalf("fake upstream: %v", err)
	}
	return line[:len(line)-1], func() time.Duration {
		in.Close()
		cmd.Wait()
		return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
}

// countSink keeps only its head and counts blocks, and ends the scan
// once it has n.
type countSink struct {
	number uint64
	hash   eidsync.Hash
	have   bool
	n      int
	stop   context.CancelFunc
}

func (s *countSink) Head() (uint64, eidsync.Hash, bool) { return s.number, s.hash, s.have }
func (s *countSink) HashAt(n uint64) (eidsync.Hash, bool) {
	return s.hash, s.have && n == s.number
}
func (s *countSink) Rollback(uint64) error { return fmt.Errorf("countSink: no rollback") }
func (s *countSink) Apply(_ context.Context, blocks []*eidsync.Block) error {
	last := blocks[len(blocks)-1]
	s.number, s.hash, s.have = last.Number, last.Hash, true
	if s.n -= len(blocks); s.n <= 0 {
		s.stop()
	}
	return nil
}

// BenchmarkScanEmptyBlocks scans blocks without DID transactions from a
// fake upstream in another process, over loopback, with the default
// batches and no budget: blocks/s, and the scanning process's CPU (user
// and system, read from the OS) per block; the upstream's CPU is its own
// process's, reported apart.
func BenchmarkScanEmptyBlocks(b *testing.B) {
	url, stop := startFake(b, 1<<40)
	c, err := eid.New(eid.Config{Network: eid.Network{Endpoints: []string{url}}, Budget: -1})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	sink := &countSink{n: b.N, stop: cancel}
	s, err := eidsync.New(eidsync.Config{Upstream: c, Sink: sink})
	if err != nil {
		b.Fatal(err)
	}
	cpu0 := cputime.Now()
	b.ResetTimer()
	start := time.Now()
	err = s.Run(ctx)
	took := time.Since(start)
	b.StopTimer()
	cpu := cputime.Now() - cpu0
	upCPU := stop()
	if ctx.Err() == nil {
		b.Fatal(err)
	}
	blocks := float64(sink.number + 1)
	b.ReportMetric(blocks/took.Seconds(), "blocks/s")
	b.ReportMetric(float64(cpu.Nanoseconds())/blocks, "scan-cpu-ns/block")
	b.ReportMetric(float64(upCPU.Nanoseconds())/blocks, "upstream-cpu-ns/block")
}

var eidBlocks = flag.Int("eid-blocks", 5000, "BenchmarkScanEIDNode: blocks the private EID chain is made of")

// BenchmarkScanEIDNode scans a private EID chain on a live node (EID_GETH,
// inside a network namespace of its own: eidnode.Start refuses otherwise),
// made first of -eid-blocks blocks holding one value transfer each (clique
// seals on demand), with the default settings and no budget: blocks/s in
// wall time and the scanning process's CPU per block. Each iteration scans
// the whole chain into a new sink.
func BenchmarkScanEIDNode(b *testing.B) {
	geth := os.Getenv(eidtest.GethEnv)
	if geth == "" {
		b.Skipf("needs a geth built from EID in %s, in a network namespace of its own", eidtest.GethEnv)
	}
	ctx := context.Background()
	live.once.Do(func() { live.node, live.err = makeChain(ctx, geth, *eidBlocks) })
	if live.err != nil {
		b.Fatal(live.err)
	}
	n := live.node
	c, err := eid.New(eid.Config{Network: eid.Network{Endpoints: []string{n.URL}}, Budget: -1})
	if err != nil {
		b.Fatal(err)
	}
	var blocks float64
	var took, cpu time.Duration
	b.ResetTimer()
	for range b.N {
		ctx, cancel := context.WithCancel(ctx)
		sink := &countSink{n: *eidBlocks + 1, stop: cancel}
		s, err := eidsync.New(eidsync.Config{Upstream: c, Sink: sink, Contract: eidsync.MainnetContract})
		if err != nil {
			b.Fatal(err)
		}
		cpu0, start := cputime.Now(), time.Now()
		if err := s.Run(ctx); ctx.Err() == nil {
			b.Fatal(err)
		}
		took += time.Since(start)
		cpu += cputime.Now() - cpu0
		blocks += float64(sink.number + 1)
	}
	b.ReportMetric(blocks/took.Seconds(), "blocks/s")
	b.ReportMetric(float64(cpu.Nanoseconds())/blocks, "scan-cpu-ns/block")
}

// live is the node of BenchmarkScanEIDNode, its chain made once for all
// its runs.
var live struct {
	once sync.Once
	node *eidnode.Node
	err  error
}

// makeChain starts a node sealing on demand and makes blocks blocks on
// it, one value transfer each.
func makeChain(ctx context.Context, geth string, blocks int) (*eidnode.Node, error) {
	dir, err := os.MkdirTemp("", "eidsync-bench-")
	if err != nil {
		return nil, err
	}
	n, err := eidnode.Start(ctx, eidnode.Config{Geth: geth, Dir: dir, OnDemand: true})
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	start := time.Now()
	for i := 1; i <= blocks; i++ {
		var tx string
		if err := n.Call(ctx, &tx, "eth_sendTransaction", map[string]string{"from": n.Signer, "to": "0x000000000000000000000000000000000000dead", "value": "0x1"}); err != nil {
			return n, err
		}
		for {
			var head string
			if err := n.Call(ctx, &head, "eth_blockNumber"); err != nil {
				return n, err
			}
			if h, _ := strconv.ParseUint(head[2:], 16, 64); h >= uint64(i) {
				break
			}
		}
	}
	fmt.Fprintf(os.Stderr, "eidsync: made %d blocks in %v\n", blocks, time.Since(start).Round(time.Millisecond))
	return n, nil
}
