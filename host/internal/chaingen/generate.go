package chaingen

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/synth"
)

// Interval is the time between two generated blocks.
const Interval = time.Hour

// Limits of one generated block: a planned block larger than these is
// spread over several.
const (
	maxBlockBytes = 4 << 20
	maxBlockTxs   = 4096
)

// Options says what to generate.
type Options struct {
	Seed    string // the seed of the DIDs (synth.Plan)
	DIDs    int    // how many, at least 1
	DevSeed string // the chain's dev seed; "" means chain.DefaultDevSeed
	// Progress, if set, is called after each planned block with what is
	// done so far, from the goroutine that called Generate.
	Progress func(Progress)
}

// Progress is how far a generation got.
type Progress struct {
	Block, Blocks int // planned blocks done, of
	DIDs          int // DIDs created
	Ops           int // identity operations stored
}

// Report says what Generate wrote.
type Report struct {
	Progress
	Height uint32 // the chain's tip
}

// ErrNotFresh is returned when the store already holds blocks beyond
// the genesis block: Generate never adds to a chain.
var ErrNotFresh = errors.New("chaingen: the store holds a chain already")

// Generate writes the chain opts describes into db, which must be empty or
// hold only a genesis block. Requests are signed, and their signatures
// verified, on every core, ahead of the block being stored; the chain
// validates each block as it stores it. It stops with ctx's error when ctx
// ends, leaving the blocks stored so far.
func Generate(ctx context.Context, db store.DB, opts Options) (Report, error) {
	var clock atomic.Int64 // the time of the block being made, Unix seconds
	clock.Store(chain.GenesisTime.Add(Interval).Unix())
	c, err := chain.Open(chain.Config{DB: db, DevSeed: opts.DevSeed, Now: func() time.Time { return time.Unix(clock.Load(), 0) }})
	if err != nil {
		return Report{}, err
	}
	defer c.Close()
	if h, _, _ := c.Tip(); h != 0 {
		return Report{}, fmt.Errorf("%w: its tip is at height %d", ErrNotFresh, h)
	}
	plan, err := synth.NewPlan(opts.Seed, opts.DIDs, chain.GenesisTime.Add(2*Interval), Interval)
	if err != nil {
		return Report{}, err
	}
	g, err := newGenerator(c, plan)
	if err != nil {
		return Report{}, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cpu := newCores(runtime.GOMAXPROCS(0))
	signed, ready := make(chan *built, ahead), make(chan *built, 1)
	var buildErr error
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(signed)
		buildErr = g.buildAll(ctx, cpu, signed)
	})
	wg.Go(func() {
		defer close(ready)
		prepareAll(ctx, c, cpu, signed, ready)
	})
	rep, err := write(ctx, c, cpu, &clock, ready, plan.Blocks(), opts.Progress)
	if err != nil {
		cancel()
	}
	for range ready { // let the workers stop
	}
	wg.Wait()
	switch {
	case err != nil:
		return rep, err
	case buildErr != nil:
		return rep, buildErr
	}
	return rep, ctx.Err()
}

// ahead is how many planned blocks may wait, signed, for the writer: a
// few, so that the workers keep busy while it stores a large one.
const ahead = 4

// write stores the blocks that arrive on ready, in order, on the chain c
// whose clock reads clock, until ready closes or a block fails, and
// reports its progress after each.
func write(ctx context.Context, c *chain.Chain, cpu *cores, clock *atomic.Int64, ready <-chan *built, blocks int, progress func(Progress)) (Report, error) {
	rep := Report{Progress: Progress{Blocks: blocks}}
	for b := range ready {
		clock.Store(b.time.Unix())
		for _, txs := range b.blocks {
			cpu.take(true)
			blk, err := c.MinePrepared(ctx, txs)
			cpu.give()
			if err != nil {
				return rep, fmt.Errorf("chaingen: block %d of the plan: %w", b.h, err)
			}
			rep.Height = blk.Header.Height
		}
		rep.Block, rep.DIDs, rep.Ops = b.h+1, rep.DIDs+b.creates, rep.Ops+b.ops
		if progress != nil {
			progress(rep.Progress)
		}
	}
	return rep, nil
}

// prepareAll prepares the transactions of each block that arrives on
// signed (chain.PrepareTx: decoded, their signatures verified) on the
// cores the writer leaves, split into blocks within the limits, and sends
// it on to ready, until signed closes or ctx ends.
func prepareAll(ctx context.Context, c *chain.Chain, cpu *cores, signed <-chan *built, ready chan<- *built) {
	for b := range signed {
		prepared := make([]*chain.Prepared, len(b.raws))
		each(ctx, cpu, len(b.raws), func(j int) { prepared[j] = c.PrepareTx(b.raws[j]) })
		if ctx.Err() != nil {
			return
		}
		start := 0
		for _, chunk := range chunks(b.raws) {
			b.blocks = append(b.blocks, prepared[start:start+len(chunk)])
			start += len(chunk)
		}
		select {
		case ready <- b:
		case <-ctx.Done():
			return
		}
	}
}

// each calls do(j) for each j below n, on every core: each call takes a
// core from cpu. It stops early when ctx ends.
func each(ctx context.Context, cpu *cores, n int, do func(j int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for j := range next {
				cpu.take(false)
				do(j)
				cpu.give()
			}
		})
	}
	for j := range n {
		if ctx.Err() != nil {
			break
		}
		next <- j
	}
	close(next)
	wg.Wait()
}

// chunks splits a block's transactions into blocks within the limits.
func chunks(raws [][]byte) [][][]byte {
	var out [][][]byte
	start, size := 0, 0
	for i, raw := range raws {
		if i > start && (i-start == maxBlockTxs || size+len(raw) > maxBlockBytes) {
			out = append(out, raws[start:i])
			start, size = i, 0
		}
		size += len(raw)
	}
	return append(out, raws[start:])
}

// built is a planned block, built and signed: its transactions in order
// (the funding of the next block first), with what they do; once
// prepared, the blocks it is stored as.
type built struct {
	h            int
	time         time.Time
	raws         [][]byte
	creates, ops int
	blocks       [][]*chain.Prepared
}

// generator builds the plan's blocks in order. It is owned by the
// goroutine running buildAll.
type generator struct {
	plan   *synth.Plan
	dev    chain.Account
	params ledger.Params
	last   map[int]ela.Hash // the last transaction of each DID with operations to come
	// funds is the funding transaction of the block being built: output
	// 1+j pays the fee of the block's transaction j.
	funds ela.Hash
	// change is the dev account's output the next funding transaction
	// spends, and spent the outputs of the last block's transactions,
	// which it collects too, so that none is left over.
	change      ela.Input
	changeValue ela.Fixed64
	spent       []ela.Input
}

// newGenerator returns a generator of plan on chain c, whose tip is its
// genesis block.
func newGenerator(c *chain.Chain, plan *synth.Plan) (*generator, error) {
	g := &generator{plan: plan, dev: c.DevAccount(), params: ledger.Devnet(), last: map[int]ela.Hash{}}
	utxos, err := c.UTXOs(g.dev.ProgramHash)
	if err != nil {
		return nil, err
	}
	if len(utxos) != 1 {
		return nil, fmt.Errorf("chaingen: the dev account has %d outputs after the genesis block, want 1", len(utxos))
	}
	g.change, g.changeValue = ela.Input{TxID: utxos[0].Txid, Index: utxos[0].Index}, utxos[0].Value
	return g, nil
}

// buildAll builds the funding block, then each planned block, and sends
// them to out, until ctx ends.
func (g *generator) buildAll(ctx context.Context, cpu *cores, out chan<- *built) error {
	steps := g.plan.Block(0)
	first := g.fund(len(steps))
	send := func(b *built) bool {
		select {
		case out <- b:
			return true
		case <-ctx.Done():
			return false
		}
	}
	if !send(&built{h: -1, time: g.plan.Time(-1), raws: [][]byte{first.Bytes()}}) {
		return nil
	}
	for h := range g.plan.Blocks() {
		var next []synth.Step
		if h+1 < g.plan.Blocks() {
			next = g.plan.Block(h + 1)
		}
		b, err := g.build(ctx, cpu, h, steps, len(next))
		if err != nil {
			return err
		}
		if !send(b) {
			return nil
		}
		steps = next
	}
	return nil
}

// fund returns the transaction funding n transactions of the next block:
// it spends the dev account's change and the outputs of the last block's
// transactions, and pays n fees and the change to the dev account.
func (g *generator) fund(n int) *ela.Tx {
	fee := g.params.MinFee
	outs := make([]ela.Output, 1+n)
	for i := range outs {
		outs[i] = ela.Output{AssetID: g.params.Asset, Value: fee, ProgramHash: g.dev.ProgramHash}
	}
	outs[0].Value = g.changeValue - fee - ela.Fixed64(n)*fee
	tx := &ela.Tx{Payload: &ela.TransferAsset{}, Inputs: append([]ela.Input{g.change}, g.spent...), Outputs: outs}
	tx.SignStandard(g.dev.PrivateKey)
	g.funds = tx.Hash()
	g.change, g.changeValue, g.spent = ela.Input{TxID: g.funds, Index: 0}, outs[0].Value, nil
	return tx
}

// build signs the transactions of planned block h, steps, on the cores
// the writer leaves, preceded by the funding of the next block's n
// transactions.
func (g *generator) build(ctx context.Context, cpu *cores, h int, steps []synth.Step, n int) (*built, error) {
	at := g.plan.Time(h)
	txs := make([]*ela.Tx, len(steps))
	errs := make([]error, len(steps))
	each(ctx, cpu, len(steps), func(j int) { txs[j], errs[j] = g.operation(steps[j], at, j) })
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	b := &built{h: h, time: at, raws: make([][]byte, 0, 1+len(steps))}
	b.raws = append(b.raws, g.fund(n).Bytes())
	for j, s := range steps {
		txid := txs[j].Hash()
		g.spent = append(g.spent, ela.Input{TxID: txid, Index: 0})
		b.raws = append(b.raws, txs[j].Bytes())
		b.ops++
		switch {
		case s.Op == 0:
			b.creates++
			fallthrough
		case s.Op < len(g.plan.Shape(s.Index).Ops())-1:
			g.last[s.Index] = txid
		default:
			delete(g.last, s.Index)
		}
	}
	return b, nil
}

// operation returns the signed transaction of step s, in the block stamped
// at, paid by output 1+j of the funding transaction.
func (g *generator) operation(s synth.Step, at time.Time, j int) (*ela.Tx, error) {
	d := g.plan.DID(s.Index)
	prev := ""
	if s.Op > 0 {
		prev = g.last[s.Index].String()
	}
	req, err := g.plan.Request(d, s.Op, prev, at)
	if err != nil {
		return nil, err
	}
	tx := &ela.Tx{
		Payload: &ela.Operation{Header: ela.OperationHeader(req.Header), Payload: req.Payload, Proof: ela.OperationProof(req.Proof)},
		Inputs:  []ela.Input{{TxID: g.funds, Index: uint16(1 + j)}},
		Outputs: []ela.Output{{AssetID: g.params.Asset, Value: 0, ProgramHash: g.dev.ProgramHash}},
	}
	tx.SignStandard(g.dev.PrivateKey)
	return tx, nil
}
