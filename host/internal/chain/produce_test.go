package chain

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/devnet"
	"github.com/didlight/didlight/host/internal/producer"
	"github.com/didlight/didlight/host/internal/store"
)

// Transfers move balances; each block's coinbase pays arbiter 0 the fees
// and the subsidy; reads see pooled and mined transactions as the REST API
// shows them.
func TestTransfers(t *testing.T) {
	f := newFixture(t, Config{Arbiters: 2})
	dev, bob, carol := f.dev(), newWallet("bob"), newWallet("carol")
	f.split(dev, 2)
	a := f.submit(f.transfer(dev, bob.ph, 7*ela.OneELA))
	b := f.submit(f.transfer(dev, carol.ph, 3*ela.OneELA))
	if pool := f.c.Mempool(); len(pool) != 2 || pool[0].Hash() != a || pool[1].Hash() != b {
		t.Fatalf("mempool %v, want %s then %s", pool, a, b)
	}
	tx, ctx, err := f.c.Tx(a)
	if err != nil || tx.Hash() != a || ctx != (ela.TxContext{}) {
		t.Errorf("pooled Tx: %v %+v %v", tx, ctx, err)
	}
	if bal, _ := f.c.Balance(bob.ph, ela.ELAAssetID()); bal != 0 {
		t.Errorf("a pooled transfer counts: bob holds %s", bal)
	}
	sub, stop := f.c.Subscribe()
	defer stop()
	blk := f.mine()
	if h := <-sub; h != blk.Header.Height {
		t.Errorf("subscriber got height %d, want %d", h, blk.Header.Height)
	}
	if len(blk.Transactions) != 3 || blk.Transactions[1].Hash() != a || blk.Transactions[2].Hash() != b {
		t.Fatalf("block transactions %v", blk.Transactions)
	}
	producer := newAccount(ArbiterKey(DefaultDevSeed, 0), "").ProgramHash
	cb := blk.Transactions[0].Outputs
	if len(cb) != 1 || cb[0].ProgramHash != producer || cb[0].Value != 2*f.c.params.MinFee+ledger.DevnetSubsidy {
		t.Errorf("coinbase outputs %+v", cb)
	}
	for ph, want := range map[ela.ProgramHash]ela.Fixed64{bob.ph: 7 * ela.OneELA, carol.ph: 3 * ela.OneELA, producer: 2*ledger.DevnetSubsidy + 3*f.c.params.MinFee} {
		if bal, err := f.c.Balance(ph, ela.ELAAssetID()); bal != want || err != nil {
			t.Errorf("%s holds %s (%v), want %s", ph, bal, err, want)
		}
	}
	tx, ctx, err = f.c.Tx(a)
	height, hash, _ := f.c.Tip()
	if err != nil || tx.Hash() != a || ctx != (ela.TxContext{BlockHash: hash, Confirmations: 1, BlockTime: blk.Header.Timestamp}) {
		t.Errorf("mined Tx: %+v %v", ctx, err)
	}
	f.mine()
	if _, ctx, _ := f.c.Tx(a); ctx.Confirmations != 2 {
		t.Errorf("confirmations %d after another block", ctx.Confirmations)
	}
	if _, _, err := f.c.Tx(ela.Hash{9}); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown Tx: %v", err)
	}
	byHash, bctx, err := f.c.BlockByHash(hash)
	if err != nil || byHash.Hash() != hash || bctx.Confirmations != 2 || bctx.NextBlockHash.IsZero() {
		t.Errorf("BlockByHash: %+v %v", bctx, err)
	}
	if h, err := f.c.BlockHash(height); h != hash || err != nil {
		t.Errorf("BlockHash(%d) = %s, %v", height, h, err)
	}
	for _, err := range []error{
		func() error { _, err := f.c.BlockHash(99); return err }(),
		func() error { _, _, err := f.c.BlockByHeight(99); return err }(),
		func() error { _, _, err := f.c.BlockByHash(ela.Hash{1}); return err }(),
		func() error { _, err := f.c.Confirm(ela.Hash{1}); return err }(),
	} {
		if !errors.Is(err, ErrNotFound) {
			t.Errorf("an unknown block: %v, want ErrNotFound", err)
		}
	}
	// Outputs with where they are, in one snapshot, address by address.
	bh := blk.Header.Height
	coinbase := blk.Transactions[0].Hash()
	u, err := f.c.UTXOs(bob.ph, carol.ph, producer)
	want := []UTXO{
		{Address: bob.ph, Txid: a, Index: 0, Asset: ela.ELAAssetID(), Value: 7 * ela.OneELA, TxType: ela.TxTransferAsset, Height: bh, Confirmations: 2},
		{Address: carol.ph, Txid: b, Index: 0, Asset: ela.ELAAssetID(), Value: 3 * ela.OneELA, TxType: ela.TxTransferAsset, Height: bh, Confirmations: 2},
	}
	if err != nil || len(u) != 5 || !slices.Equal(u[:2], want) {
		t.Errorf("outputs of bob and carol %+v, %v; want %+v", u, err, want)
	} else if cb := u[3]; cb.Txid != coinbase || cb.TxType != ela.TxCoinBase || cb.Height != bh || cb.Confirmations != 2 {
		t.Errorf("the producer's coinbase output %+v", cb)
	}
	if st := f.c.Stats(); st.TxnCnt != 2+2+3+1 || st.RxTxnCnt != 3 || st.Mempool != 0 {
		t.Errorf("stats %+v", st)
	}
	checkIndexes(t, f.c)
}

// With a block time, Run makes blocks on the interval, empty ones too;
// with none, as soon as transactions arrive.
func TestRun(t *testing.T) {
	for _, interval := range []time.Duration{0, 20 * time.Millisecond} {
		f := newFixture(t, Config{BlockTime: interval, Now: time.Now})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error)
		go func() { done <- f.c.Run(ctx) }()
		sub, stop := f.c.Subscribe()
		if interval > 0 {
			if h := <-sub; h != 1 {
				t.Errorf("first block at height %d", h)
			}
		}
		h := f.submit(f.transfer(f.dev(), newWallet("x").ph, 1))
		for {
			if _, ctx, _ := f.c.Tx(h); !ctx.BlockHash.IsZero() {
				break
			}
			<-sub
		}
		stop()
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
		checkIndexes(t, f.c)
	}
}

// With NoMining, Run makes no block, neither when transactions arrive nor
// on an interval, until a control asks (Mine) or SetMining turns it on.
func TestNoMining(t *testing.T) {
	for _, interval := range []time.Duration{0, 5 * time.Millisecond} {
		t.Run(interval.String(), func(t *testing.T) {
			f := newFixture(t, Config{NoMining: true, BlockTime: interval, Now: time.Now})
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error)
			go func() { done <- f.c.Run(ctx) }()
			defer func() {
				cancel()
				if err := <-done; err != nil {
					t.Errorf("Run: %v", err)
				}
			}()
			pay := f.submit(f.transfer(f.dev(), newWallet("x").ph, 1))
			time.Sleep(20 * (producer.InstantGap + interval)) // many times what Run waits before a block
			if h, _, _ := f.c.Tip(); h != 0 || f.c.Stats().Mempool != 1 {
				t.Fatalf("height %d with %d pooled before any control, want 0 with 1", h, f.c.Stats().Mempool)
			}
			if b := f.mine(); len(b.Transactions) != 2 || b.Transactions[1].Hash() != pay {
				t.Errorf("Mine made a block of %d transactions, want the coinbase and the payment", len(b.Transactions))
			}
			sub, stop := f.c.Subscribe()
			defer stop()
			f.submit(f.transfer(f.dev(), newWallet("y").ph, 1))
			f.c.SetMining(true)
			if h := <-sub; h != 2 {
				t.Errorf("the block after SetMining(true) at height %d, want 2", h)
			}
		})
	}
}

// A block Run cannot make (the tip carries the last time a block can)
// does not stop it: it logs why and tries again when more transactions
// arrive, and makes blocks again once a control lets it (a reset).
func TestRunGoesOn(t *testing.T) {
	logs := &logBuffer{}
	f := newFixture(t, Config{Now: time.Now, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if _, err := devnet.SetNextBlockTime(f.c, time.Unix(ledger.MaxBlockTime, 0)); err != nil {
		t.Fatal(err)
	}
	f.mine()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- f.c.Run(ctx) }()
	f.submit(f.transfer(f.dev(), newWallet("x").ph, 1))
	for !strings.Contains(logs.String(), "cannot make a block") {
		select {
		case err := <-done:
			t.Fatalf("Run returned %v, want it to go on", err)
		case <-time.After(time.Millisecond):
		}
	}
	sub, stop := f.c.Subscribe()
	defer stop()
	if err := devnet.Reset(ctx, f.c); err != nil {
		t.Fatal(err)
	}
	<-sub
	f.submit(f.transfer(f.dev(), newWallet("y").ph, 1))
	if h := <-sub; h != 1 {
		t.Errorf("after the reset Run made block %d, want 1", h)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run: %v", err)
	}
}

// logBuffer is a log's output, safe for the logger and the test at once.
type logBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Reset takes the chain back to its genesis, empties the mempool and fails
// the requests waiting for a block.
func TestReset(t *testing.T) {
	f := newFixture(t, Config{})
	genesis := f.c.genesis.Hash()
	u := newUser("reset")
	u.last = f.publish(u.create(t, u.document(t, GenesisTime.AddDate(1, 0, 0), nil)))
	if _, err := devnet.IncreaseTime(f.c, time.Hour); err != nil {
		t.Fatal(err)
	}
	other := newUser("waiting")
	errc := make(chan error, 1)
	go func() {
		_, err := f.c.SubmitRequest(context.Background(), other.create(t, other.document(t, GenesisTime.AddDate(1, 0, 0), nil)))
		errc <- err
	}()
	for f.c.Stats().Mempool == 0 {
		time.Sleep(time.Millisecond)
	}
	sub, stop := f.c.Subscribe()
	defer stop()
	node := f.c.Stats().NodeID
	if err := devnet.Reset(context.Background(), f.c); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; !errors.Is(err, ErrReset) {
		t.Errorf("the waiting request got %v", err)
	}
	if h := <-sub; h != 0 {
		t.Errorf("subscriber got %d", h)
	}
	if h, hash, bt := f.c.Tip(); h != 0 || hash != genesis || bt != GenesisTime.Unix() {
		t.Errorf("tip after reset %d %s %d", h, hash, bt)
	}
	if st := f.c.Stats(); st.Mempool != 0 || st.NodeID != node || st.TxnCnt != 2 {
		t.Errorf("stats after reset %+v", st)
	}
	f.resolveDID(u.did(), true).want(t, "after reset", 3, nil)
	if bal, _ := f.c.Balance(f.dev().ph, ela.ELAAssetID()); bal != DevFunds {
		t.Errorf("dev balance %s", bal)
	}
	// The devnet clock's lead is gone: the next block is at the wall clock.
	if b := f.mine(); int64(b.Header.Timestamp) != f.clock.Now().Unix() {
		t.Errorf("block time %d, clock %d", b.Header.Timestamp, f.clock.Now().Unix())
	}
	// The DID can be created again on the new chain.
	f.publish(u.create(t, u.doc))
	checkIndexes(t, f.c)
}

// Block times never go backwards, and the devnet clock leads the wall
// clock by what IncreaseTime added.
func TestBlockTime(t *testing.T) {
	f := newFixture(t, Config{})
	first := f.mine().Header.Timestamp
	if int64(first) != f.clock.Now().Unix() {
		t.Errorf("block time %d, clock %d", first, f.clock.Now().Unix())
	}
	if second := f.mine().Header.Timestamp; second != first+1 {
		t.Errorf("a block in the same second is stamped %d, want %d", second, first+1)
	}
	got, err := devnet.IncreaseTime(f.c, 90*time.Second)
	if err != nil || got.Unix() != f.clock.Now().Unix()+90 {
		t.Errorf("IncreaseTime gives %s (%v), want the clock + 90s", got, err)
	}
	if _, _, bt := f.c.Tip(); bt != got.Unix() {
		t.Errorf("tip time %d, want %d", bt, got.Unix())
	}
	for _, d := range []time.Duration{0, -time.Second, time.Millisecond, 1500 * time.Millisecond, 100 * 365 * 24 * time.Hour} {
		if _, err := devnet.IncreaseTime(f.c, d); err == nil {
			t.Errorf("IncreaseTime(%s) succeeds", d)
		}
	}
}

// After Close every call fails with store.ErrClosed, Run returns, and the store
// is left open for its owner.
func TestClose(t *testing.T) {
	f := newFixture(t, Config{})
	ctx := context.Background()
	u := newUser("closing")
	waiting := make(chan error, 1)
	go func() {
		_, err := f.c.SubmitRequest(ctx, u.create(t, u.document(t, GenesisTime.AddDate(1, 0, 0), nil)))
		waiting <- err
	}()
	for f.c.Stats().Mempool == 0 {
		time.Sleep(time.Millisecond)
	}
	done := make(chan error)
	go func() { done <- f.c.Run(ctx) }()
	sub, _ := f.c.Subscribe()
	f.c.Close()
	if err := <-waiting; !errors.Is(err, store.ErrClosed) && err != nil {
		t.Errorf("a waiting SubmitRequest got %v", err)
	}
	if err := <-done; err != nil {
		t.Errorf("Run after Close: %v", err)
	}
	if _, ok := <-sub; ok {
		t.Error("a subscription stays open after Close")
	}
	checks := map[string]error{
		"SubmitTx": func() error { _, err := f.c.SubmitTx([]byte{1}); return err }(),
		"Mine":     func() error { _, err := f.c.Mine(ctx); return err }(),
		"Reset":    devnet.Reset(ctx, f.c),
		"Balance":  func() error { _, err := f.c.Balance(ela.ProgramHash{}, ela.Hash{}); return err }(),
		"Increase": func() error { _, err := devnet.IncreaseTime(f.c, time.Second); return err }(),
	}
	for name, err := range checks {
		if !errors.Is(err, store.ErrClosed) {
			t.Errorf("%s after Close: %v", name, err)
		}
	}
	if f.c.Close() != nil {
		t.Error("a second Close fails")
	}
	if err := f.db.View(func(store.Tx) error { return nil }); err != nil {
		t.Errorf("the store was closed: %v", err)
	}
}
