package chain

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/host/internal/cputime"
	"github.com/didlight/didlight/host/internal/gcfloor"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/bolt"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// benchChunk is how many operations one iteration of BenchmarkIngest
// ingests: a burst, whose last block is made once its submitters are done.
// A larger chunk measures sustained ingest, the bursts' last blocks a
// smaller share of the time (docs/benchmarks.md, the sixth pass).
var benchChunk = flag.Int("ingest-chunk", 256, "operations one iteration of BenchmarkIngest and BenchmarkAdmit takes in")

// benchSubmitters is how many goroutines per core submit at once, as many
// clients would: while some wait for their mempool commit, the others keep
// the cores busy.
var benchSubmitters = flag.Int("ingest-submitters", 8, "goroutines per core submitting in BenchmarkIngest and BenchmarkAdmit")

// BenchmarkIngest measures how fast the chain takes in DID operations: each
// a create carried by its own signed transaction (three signatures: the
// transaction's program, the request's proof and the document's proof),
// submitted by benchSubmitters goroutines per core through SubmitTx and put
// into blocks by Run. An iteration ingests benchChunk operations; after
// each, the same process verifies as many bare P-256 signatures on one core
// (verifyRatio), so that both measures see the same machine. It reports
// ingested operations per second, bare verifies per second, and their ratio,
// all in wall time; and, to tell work from waiting, the process CPU time per
// ingested operation (cpu-ns/op) and the cores ingesting kept busy (cores:
// CPU time over wall time), which load from other processes lowers; the Go
// scheduler's Ps kept busy (Ps: GOMAXPROCS less the Ps' idle time,
// runtime/metrics' /cpu/classes/idle, over wall time), which it does not
// lower: a P waiting for the OS to run it is not idle, one with no goroutine
// to run is (the runtime samples the idle time at each GC, many a chunk);
// and the commits per operation (commits/op: store Updates and mempool log
// appends, each a disk sync on a data directory), which group commit lowers.
// cpu-ratio is the CPU time of the bare verifies over that of ingesting as
// many operations: the ratio ingest reaches per core it keeps busy, which
// other processes do not move (the wall-time ratio on two idle cores would
// be twice it, less what waiting costs). It runs with the node's heap floor
// (gcfloor.Node), as `didlight node` ingests, unless GOGC is set in the
// environment (GOGC=100 measures the collector's default).
func BenchmarkIngest(b *testing.B) {
	if os.Getenv("GOGC") == "" {
		defer gcfloor.Start(gcfloor.Node)()
	}
	for _, be := range benchStores {
		b.Run(be.name, func(b *testing.B) {
			cfg := be.open(b)
			db := &countingDB{DB: cfg.DB}
			cfg.DB, cfg.Now = db, time.Now
			benchIngest(b, cfg, db)
		})
	}
}

// benchStores are the stores BenchmarkIngest and BenchmarkMine run on: in
// memory, and bbolt with a mempool log, as a node keeps a data directory.
var benchStores = []struct {
	name string
	open func(b *testing.B) Config
}{
	{"mem", func(*testing.B) Config { return Config{DB: mem.New()} }},
	{"bolt", func(b *testing.B) Config {
		dir := b.TempDir()
		db, err := bolt.Open(dir, bolt.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { db.Close() })
		return Config{DB: db, MempoolLog: filepath.Join(dir, MempoolLogFile)}
	}},
}

// logAppends returns how many batches the chain's mempool log appended.
func (c *Chain) logAppends() int64 {
	if c.poolLog == nil {
		return 0
	}
	return int64(c.poolLog.Appends())
}

// countingDB counts the Updates of a store: each is one disk sync on a
// durable one.
type countingDB struct {
	store.DB
	updates atomic.Int64
}

func (db *countingDB) Update(fn func(store.Tx) error) error {
	db.updates.Add(1)
	return db.DB.Update(fn)
}

func benchIngest(b *testing.B, cfg Config, db *countingDB) {
	f := newFixture(b, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go f.c.Run(ctx)
	tips, stop := f.c.Subscribe()
	defer stop()
	w := newWallet("bench")
	f.submit(f.transfer(f.dev(), w.ph, 1_000_000*ela.OneELA))
	for f.c.Stats().Mempool > 0 {
		<-tips
	}
	r := newVerifyRatio()
	var updates int64
	var idle float64 // the Ps' idle seconds
	made := 0
	for b.Loop() {
		b.StopTimer()
		raws := f.benchOps(w, made, *benchChunk)
		made += len(raws)
		b.StartTimer()
		r.measure(b, len(raws), func() {
			updates0, idle0 := db.updates.Load()+f.c.logAppends(), schedIdle()
			f.ingest(raws, tips)
			idle += schedIdle() - idle0
			updates += db.updates.Load() + f.c.logAppends() - updates0
		})
	}
	r.report(b)
	b.ReportMetric(float64(runtime.GOMAXPROCS(0))-idle/r.wall.Seconds(), "Ps")
	b.ReportMetric(float64(updates)/float64(r.ops), "commits/op")
	height, _, _ := f.c.Tip()
	b.ReportMetric(float64(made)/float64(height), "ops/block")
	if _, err := f.c.ResolveDID(context.Background(), benchUser(made-1).did(), false); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkAdmit measures admission alone, on a chain in memory: the
// operations BenchmarkIngest submits, each decoded and validated against
// the chain (its three signatures verified, its view derived) on every
// core, none pooled, stored or put in a block: what ingest would reach if
// the mempool, the blocks and the store cost nothing, the floor under
// BenchmarkIngest/mem's ratio. It reports verifyRatio's metrics, as
// BenchmarkIngest does. Each iteration validates the same chunk with the
// chain's cache of decoded keys emptied, so that each key is decoded as
// a new DID's is.
func BenchmarkAdmit(b *testing.B) {
	if os.Getenv("GOGC") == "" {
		defer gcfloor.Start(gcfloor.Node)()
	}
	f := newFixture(b, Config{Now: time.Now})
	w := newWallet("bench")
	f.submit(f.transfer(f.dev(), w.ph, 1_000_000*ela.OneELA))
	f.mine()
	raws := f.benchOps(w, 0, *benchChunk)
	r := newVerifyRatio()
	for b.Loop() {
		b.StopTimer()
		f.c.verifier = keys.NewCache(keys.Native{}, keptKeys)
		b.StartTimer()
		r.measure(b, len(raws), func() { f.admitOnly(raws) })
	}
	r.report(b)
}

// mineBlock is how many operations one block of BenchmarkMine holds:
// about what BenchmarkIngest's blocks hold in its bursts of 256 (40 to
// 50; larger bursts make larger blocks).
var mineBlock = flag.Int("mine-block", 64, "operations one block of BenchmarkMine holds")

// BenchmarkMine measures making blocks alone, on each store as
// BenchmarkIngest opens it: mineBlock of the operations BenchmarkIngest
// submits are admitted into the mempool outside the timer, then one block
// takes them all in (Chain.Mine: checked again, stored, indexed, committed,
// and on bbolt dropped from the mempool log). It reports the process CPU
// time and the wall time of making the block, per operation (cpu-ns/op,
// wall-ns/op). Ingest pays that CPU time beside admission's
// (BenchmarkAdmit); the two are the floors under BenchmarkIngest's ratio.
// The chain grows by a block an iteration, and a block costs more on a
// larger chain (on bbolt, twice as much after 4096 operations as after
// 192), so compare it with BenchmarkIngest over as many operations:
// -benchtime 64x here against 16x there, at the flags' defaults.
func BenchmarkMine(b *testing.B) {
	if os.Getenv("GOGC") == "" {
		defer gcfloor.Start(gcfloor.Node)()
	}
	for _, be := range benchStores {
		b.Run(be.name, func(b *testing.B) {
			cfg := be.open(b)
			cfg.Now = time.Now
			f := newFixture(b, cfg)
			w := newWallet("bench")
			f.submit(f.transfer(f.dev(), w.ph, 1_000_000*ela.OneELA))
			f.mine()
			var wall, cpu time.Duration
			made := 0
			for b.Loop() {
				b.StopTimer()
				raws := f.benchOps(w, made, *mineBlock)
				made += len(raws)
				f.submitAll(raws)
				b.StartTimer()
				start, cpu0 := time.Now(), cputime.Now()
				f.mine()
				wall += time.Since(start)
				cpu += cputime.Now() - cpu0
				if n := f.c.Stats().Mempool; n > 0 {
					b.Fatalf("the block left %d of %d operations in the mempool", n, len(raws))
				}
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(made), "cpu-ns/op")
			b.ReportMetric(float64(wall.Nanoseconds())/float64(made), "wall-ns/op")
			b.ReportMetric(0, "ns/op") // the time of a whole block: not a measure per operation
		})
	}
}

// admitOnly decodes and validates raws as ingest submits them, pooling
// none.
func (f *fixture) admitOnly(raws [][]byte) {
	submitting(raws, func(raw []byte) error {
		e, err := f.c.prepare(bytes.Clone(raw))
		if err == nil {
			_, err = f.c.validate(e)
		}
		return err
	})
}

// submitting calls fn with each of raws from benchSubmitters goroutines
// per core, as many clients would submit them, and returns once all are
// done; an error panics (the benchmark's transactions are all valid).
func submitting(raws [][]byte, fn func(raw []byte) error) {
	next := make(chan []byte)
	var wg sync.WaitGroup
	for range *benchSubmitters * runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for raw := range next {
				if err := fn(raw); err != nil {
					panic(err)
				}
			}
		})
	}
	for _, raw := range raws {
		next <- raw
	}
	close(next)
	wg.Wait()
}

// verifyRatio measures operations against bare P-256 verifies: after each
// chunk of operations, as many verifies on one core, in the same process
// with nothing else running in it, so that both measures see the same
// machine.
type verifyRatio struct {
	pub    keys.PublicKey
	digest [32]byte
	sig    keys.Signature

	ops                          int
	wall, verify, cpu, verifyCPU time.Duration
}

// newVerifyRatio returns a verifyRatio with nothing measured yet.
func newVerifyRatio() *verifyRatio {
	k := derive("bench verify")
	r := &verifyRatio{pub: k.Public(), digest: sha256.Sum256([]byte("didlight"))}
	r.sig = k.Sign(r.digest)
	return r
}

// measure runs fn, which handles n operations, timing it in wall and
// process CPU time, then times n bare verifies.
func (r *verifyRatio) measure(b *testing.B, n int, fn func()) {
	start, cpu0 := time.Now(), cputime.Now()
	fn()
	r.wall += time.Since(start)
	r.cpu += cputime.Now() - cpu0
	start, cpu0 = time.Now(), cputime.Now()
	for range n {
		if !(keys.Native{}).Verify(r.pub, r.digest, r.sig) {
			b.Fatal("the bare signature does not verify")
		}
	}
	r.verify += time.Since(start)
	r.verifyCPU += cputime.Now() - cpu0
	r.ops += n
}

// report reports operations and bare verifies per second (wall time),
// their ratio, the CPU time of the verifies over that of as many
// operations (cpu-ratio), the cores the operations kept busy (process CPU
// time over wall time) and their CPU time each (cpu-ns/op).
func (r *verifyRatio) report(b *testing.B) {
	ops := float64(r.ops) / r.wall.Seconds()
	verifies := float64(r.ops) / r.verify.Seconds()
	b.ReportMetric(ops, "ops/s")
	b.ReportMetric(verifies, "verify/s")
	b.ReportMetric(ops/verifies, "ratio")
	b.ReportMetric(float64(r.verifyCPU)/float64(r.cpu), "cpu-ratio")
	b.ReportMetric(r.cpu.Seconds()/r.wall.Seconds(), "cores")
	b.ReportMetric(float64(r.cpu.Nanoseconds())/float64(r.ops), "cpu-ns/op")
	b.ReportMetric(0, "ns/op") // the time of a whole chunk, building included: not a measure
}

// schedIdle returns the CPU time, in seconds, the Go scheduler's Ps have
// spent with no goroutine to run, as the runtime last sampled it.
func schedIdle() float64 {
	s := []metrics.Sample{{Name: "/cpu/classes/idle:cpu-seconds"}}
	metrics.Read(s)
	return s[0].Value.Float64()
}

// benchUser is the holder of the n-th DID the benchmark creates.
func benchUser(n int) *user {
	return &user{key: derive(string(binary.BigEndian.AppendUint64([]byte("bench user "), uint64(n))))}
}

// benchFund is what each operation's input holds: its fee and its change.
const benchFund = ela.OneELA

// benchChange is where the operations pay their change: not back to the
// funding wallet, whose outputs each chunk lists (free), so that the list
// stays one output long. Listing every change the run had made took a third
// of a 64-chunk run and made most of its garbage, outside the timer but
// collected during it.
var benchChange = newWallet("bench change").ph

// benchOps returns n signed transactions, each creating the DID of a new
// user (numbered from first), funded by w; building them (outside the
// timer) uses every core.
func (f *fixture) benchOps(w wallet, first, n int) [][]byte {
	f.t.Helper()
	funds := make([]ela.Output, n)
	for i := range funds {
		funds[i] = out(w.ph, benchFund)
	}
	split := f.submit(f.spendTx(w, &ela.TransferAsset{}, f.free(w), funds...))
	f.mine()
	raws := make([][]byte, n)
	var wg sync.WaitGroup
	for g := range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := g; i < n; i += runtime.GOMAXPROCS(0) {
				u := benchUser(first + i)
				doc, err := did.NewDocument(u.key.Public(), time.Now().AddDate(1, 0, 0), service("hub", "Hub"))
				if err == nil {
					doc, err = doc.Sign(u.key, u.primary(), time.Now())
				}
				var req idop.Request
				if err == nil {
					req, err = idop.NewCreate(doc, u.primary(), u.key)
				}
				if err != nil {
					panic(err)
				}
				tx := &ela.Tx{Payload: operation(req), Inputs: []ela.Input{{TxID: split, Index: uint16(i)}},
					Outputs: []ela.Output{out(benchChange, benchFund-f.c.params.MinFee)}}
				tx.SignStandard(w.key)
				raws[i] = tx.Bytes()
			}
		})
	}
	wg.Wait()
	return raws
}

// ingest submits raws (submitting) and returns once they are all in
// blocks.
func (f *fixture) ingest(raws [][]byte, tips <-chan uint32) {
	f.submitAll(raws)
	for f.c.Stats().Mempool > 0 {
		<-tips
	}
}

// submitAll submits raws to the mempool (submitting).
func (f *fixture) submitAll(raws [][]byte) {
	submitting(raws, func(raw []byte) error {
		_, err := f.c.SubmitTx(raw)
		return err
	})
}
