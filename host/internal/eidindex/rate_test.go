package eidindex

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"sync"
	"testing"
	"time"

	"github.com/didlight/didlight/core/eid"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/host/internal/cputime"
	"github.com/didlight/didlight/host/internal/eidsync"
	"github.com/didlight/didlight/host/internal/eidtest/eidfake"
	"github.com/didlight/didlight/host/internal/store/bolt"
	"github.com/didlight/didlight/host/internal/synth"
)

var (
	rateDIDs    = flag.Int("rate-dids", 2000, "BenchmarkIndexRate: DIDs of the synthesized chain")
	rateCatchUp = flag.Bool("rate-catchup", true, "BenchmarkIndexRate: blocks read far below the upstream's head (false: at it, every block's undo kept)")
)

// synthBlocks returns the blocks of the synth plan of n DIDs as an EID
// follower receives them: each operation signed, in its receipt's didLog
// form, with an EVM transaction hash, each update naming the one before.
func synthBlocks(tb testing.TB, n int) ([]*eidsync.Block, int) {
	tb.Helper()
	plan, err := synth.NewPlan("rate", n, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), 5*time.Second)
	if err != nil {
		tb.Fatal(err)
	}
	last := map[int]eidsync.Hash{}
	var blocks []*eidsync.Block
	var parent eidsync.Hash
	ops := 0
	for h := range plan.Blocks() {
		b := &eidsync.Block{Number: uint64(h), Parent: parent, Time: uint64(plan.Time(h).Unix())}
		b.Hash = sha256.Sum256(binary.BigEndian.AppendUint64([]byte("block"), b.Number))
		for j, s := range plan.Block(h) {
			prev := ""
			if s.Op > 0 {
				p := last[s.Index]
				prev = hex.EncodeToString(p[:])
			}
			req, err := plan.Request(plan.DID(s.Index), s.Op, prev, plan.Time(h))
			if err != nil {
				tb.Fatal(err)
			}
			op := eidsync.Op{Index: uint32(j), From: "0x0000000000000000000000000000000000000001", Data: eidfake.LogData(req)}
			op.TxHash = sha256.Sum256(binary.BigEndian.AppendUint64(b.Hash[:], uint64(j)))
			last[s.Index] = op.TxHash
			b.Ops = append(b.Ops, op)
			ops++
		}
		blocks = append(blocks, b)
		parent = b.Hash
	}
	return blocks, ops
}

// recorder is a keys.Verifier that keeps what it is asked to verify.
type recorder struct {
	keys.Verifier
	mu    sync.Mutex
	asked []verifyCall
}

type verifyCall struct {
	pub    keys.PublicKey
	digest [32]byte
	sig    keys.Signature
}

func (r *recorder) Verify(pub keys.PublicKey, digest [32]byte, sig keys.Signature) bool {
	r.mu.Lock()
	r.asked = append(r.asked, verifyCall{pub, digest, sig})
	r.mu.Unlock()
	return r.Verifier.Verify(pub, digest, sig)
}

// indexAll applies blocks to a new index in a bolt store in dir, in
// batches of batch blocks as a scan hands them, and returns the index.
func indexAll(tb testing.TB, dir string, blocks []*eidsync.Block, batch int, wrap func(keys.Verifier) keys.Verifier) *Index {
	tb.Helper()
	db, err := bolt.Open(dir, bolt.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	ix, err := Open(Config{DB: db, Network: eid.NetworkOf(7203)})
	if err != nil {
		tb.Fatal(err)
	}
	if wrap != nil {
		ix.verifier = wrap(ix.verifier)
	}
	for i := 0; i < len(blocks); i += batch {
		if err := ix.Apply(context.Background(), blocks[i:min(i+batch, len(blocks))]); err != nil {
			tb.Fatal(err)
		}
	}
	return ix
}

// BenchmarkIndexRate measures, in one run, the rate an EID follower's
// index takes DID operations (Apply: each decoded from its didLog, checked
// by core/eid as EID checked it, indexed, into a bolt store on disk, 100
// blocks an update as a scan batches them; on the cores -cpu gives it, as a
// follower prepares operations on every core) against the rate one core
// (one goroutine) verifies with crypto/ecdsa the bare P-256 signatures of
// the same operations: every signature the index verified (outer proofs,
// document and credential proofs), the digest, key and signature given,
// nothing decoded or hashed. The operations are the synth plan's
// (-rate-dids DIDs): creates, updates, credential declares and revokes,
// deactivations, on documents with services and credentials, read as a
// catch-up reads them (-rate-catchup), Keep blocks or more below the
// upstream's head, or at the head, keeping every block's undo. sigs/op is
// how many signatures an operation carries; verify-ops/s is
// verify-sigs/s over sigs/op; ratio is index-ops/s over verify-ops/s, and
// ratio-1sig over verify-sigs/s (as if each operation carried one);
// ratio-cpu is the ratio of CPU time the verifying and the indexing took.
func BenchmarkIndexRate(b *testing.B) {
	blocks, ops := synthBlocks(b, *rateDIDs)
	if *rateCatchUp { // a scan from genesis of a chain Keep blocks longer
		blocks = catchUp(blocks, blocks[len(blocks)-1].Number+DefaultKeep)
	}
	rec := &recorder{}
	ix := indexAll(b, b.TempDir(), blocks, 100, func(v keys.Verifier) keys.Verifier { rec.Verifier = v; return rec })
	if c := ix.Counts(); c.Applied != uint64(ops) || c.Refused != 0 {
		b.Fatalf("indexed %+v of %d operations", c, ops)
	}
	var indexing, verifying, indexCPU, verifyCPU time.Duration
	b.ResetTimer()
	for range b.N {
		dir := b.TempDir()
		start, cpu := time.Now(), cputime.Now()
		indexAll(b, dir, blocks, 100, nil)
		indexing, indexCPU = indexing+time.Since(start), indexCPU+cputime.Now()-cpu
		start, cpu = time.Now(), cputime.Now()
		for _, c := range rec.asked {
			if !(keys.Native{}).Verify(c.pub, c.digest, c.sig) {
				b.Fatal("a signature the index verified does not verify")
			}
		}
		verifying, verifyCPU = verifying+time.Since(start), verifyCPU+cputime.Now()-cpu
	}
	b.StopTimer()
	indexRate := float64(ops*b.N) / indexing.Seconds()
	sigRate := float64(len(rec.asked)*b.N) / verifying.Seconds()
	verifyRate := sigRate * float64(ops) / float64(len(rec.asked))
	b.ReportMetric(float64(ops), "ops")
	b.ReportMetric(float64(len(rec.asked))/float64(ops), "sigs/op")
	b.ReportMetric(indexRate, "index-ops/s")
	b.ReportMetric(sigRate, "verify-sigs/s")
	b.ReportMetric(verifyRate, "verify-ops/s")
	b.ReportMetric(indexRate/verifyRate, "ratio")
	b.ReportMetric(indexRate/sigRate, "ratio-1sig")
	// The same from the process's CPU time, which a loaded machine's
	// waiting for a core does not count (nor the index's use of more than
	// one core).
	b.ReportMetric(float64(ops*b.N)/indexCPU.Seconds(), "index-ops/cpu-s")
	b.ReportMetric(float64(ops*b.N)/indexCPU.Seconds()/(float64(ops*b.N)/verifyCPU.Seconds()), "ratio-cpu")
}
