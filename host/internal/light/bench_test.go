package light_test

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/host/internal/cputime"
	"github.com/didlight/didlight/host/internal/eidtest"
	"github.com/didlight/didlight/host/internal/eidtest/scenario"
	"github.com/didlight/didlight/host/internal/light"
)

// replayEnv runs this test binary as the replay of the recorded scenario
// at the checkpoint it names, on a loopback port it prints: a benchmark's
// upstream in a process of its own, so that the benchmark's process CPU
// time is the light node's alone.
const replayEnv = "LIGHT_BENCH_REPLAY"

// serveReplay serves the replay until its parent closes its standard input.
func serveReplay(checkpoint string) int {
	h, _, err := eidtest.Handler(checkpoint)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	go http.Serve(l, h)
	fmt.Printf("http://%s/\n", l.Addr())
	bufio.NewReader(os.Stdin).ReadByte() // until the parent goes
	return 0
}

// startReplayProcess starts the replay of checkpoint in a child process
// and returns its URL.
func startReplayProcess(b *testing.B, checkpoint string) string {
	b.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), replayEnv+"="+checkpoint)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stdin.Close(); cmd.Wait() })
	url, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		b.Fatalf("the replay process: %v", err)
	}
	return url[:len(url)-1]
}

// BenchmarkFirstResolve is a light node's first resolve of a DID's whole
// history (did_resolveDID, all=true) of 1, 5 and 20 operations: asking the
// upstream, verifying the answer and building both dialects' answers, the
// head already known (Run polls it apart). The upstream is the replay, in
// a process of its own, so that this process's CPU time is the light
// node's work beyond the upstream's answer: its request and the answer's
// reading included, the upstream's own work not. Resolves run on several
// goroutines at once, as a node serves them, so that no core idles while
// one waits for the upstream (an idle core would spin the scheduler and
// run the collector's idle workers, CPU a busy node does not spend on
// waiting); cpu-µs/op is the process's CPU time over the resolves made.
// bare-cpu-µs/op is the CPU time of as many P-256 verifies as the history
// needs (each operation's signature and its document's proofs), timed on
// the same goroutines; x-bare is their ratio (the target: at most
// 1.3).
func BenchmarkFirstResolve(b *testing.B) {
	url := startReplayProcess(b, scenario.Final)
	rec, err := eidtest.Load()
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1, 5, 20} {
		d := withOperations(b, rec.Manifest, n)
		b.Run(fmt.Sprintf("ops=%d", n), func(b *testing.B) {
			const parallelism = 4 // goroutines a core
			c := testClient(b, url, 10*time.Second)
			// A Resolver for each goroutine, its head known; nothing is
			// kept (every answer is larger than the bound), so that every
			// resolve is a first one.
			rs := make(chan *light.Resolver, parallelism*runtime.GOMAXPROCS(0))
			all, sigs := []*light.Resolver{}, 0
			for range cap(rs) {
				r := light.New(light.Config{Client: c, CacheBytes: 1, Poll: time.Hour})
				a, err := r.DID(b.Context(), d, true)
				if err != nil {
					b.Fatal(err)
				}
				sigs = signatures(a)
				rs <- r
				all = append(all, r)
			}
			bare := bareVerifyCPU(b, sigs*cap(rs))
			b.SetParallelism(parallelism)
			b.ResetTimer()
			cpu0 := cputime.Now()
			b.RunParallel(func(pb *testing.PB) {
				r := <-rs
				for pb.Next() {
					if _, err := r.DID(b.Context(), d, true); err != nil {
						b.Error(err)
						return
					}
				}
			})
			cpu := cputime.Now() - cpu0
			b.StopTimer()
			verified := 0
			for _, r := range all {
				st := r.State()
				verified += int(st.Answers.Verified) - 1
				if st.Kept.Answers != 0 {
					b.Fatalf("%d answers kept: want none, every resolve a first one", st.Kept.Answers)
				}
			}
			if verified != b.N {
				b.Fatalf("%d answers verified in %d resolves", verified, b.N)
			}
			resolve := float64(cpu.Microseconds()) / float64(b.N)
			b.ReportMetric(float64(sigs), "p256/op")
			b.ReportMetric(resolve, "cpu-µs/op")
			b.ReportMetric(bare*float64(sigs), "bare-cpu-µs/op")
			b.ReportMetric(resolve/(bare*float64(sigs)), "x-bare")
		})
	}
}

// signatures is how many P-256 verifies a history's verification needs:
// each operation's signature and the proofs of the document it publishes.
func signatures(a *light.DIDAnswer) int {
	n := 0
	for i := range a.Resolved.History {
		n++
		if doc := a.Resolved.Documents[i]; doc != nil {
			n += len(doc.Proofs())
		}
	}
	return n
}

// bareVerifyCPU returns the CPU time, in µs, of one bare P-256 verify,
// from n of them on as many goroutines as the resolves run on.
func bareVerifyCPU(b *testing.B, n int) float64 {
	seed := sha256.Sum256([]byte("bench bare verify"))
	k, err := keys.NewPrivateKey(seed[:])
	if err != nil {
		b.Fatal(err)
	}
	digest := sha256.Sum256([]byte("didlight"))
	pub, sig := k.Public(), k.Sign(digest)
	var wg sync.WaitGroup
	each := max(n/runtime.GOMAXPROCS(0), 50)
	cpu0 := cputime.Now()
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for range each {
				if !(keys.Native{}).Verify(pub, digest, sig) {
					b.Error("the bare signature does not verify")
				}
			}
		})
	}
	wg.Wait()
	return float64((cputime.Now() - cpu0).Microseconds()) / float64(each*runtime.GOMAXPROCS(0))
}

// withOperations returns the scenario's DID with n operations, all of
// them valid at the end.
func withOperations(b *testing.B, m *scenario.Manifest, n int) did.DID {
	b.Helper()
	for _, s := range m.DIDs {
		if len(m.Accepted(s.DID)) == n {
			d, err := did.Parse(s.DID)
			if err != nil {
				b.Fatal(err)
			}
			return d
		}
	}
	b.Fatalf("no DID of the scenario has %d operations", n)
	return did.DID{}
}
