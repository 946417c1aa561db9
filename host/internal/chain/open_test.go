package chain

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/host/internal/devnet"
	"github.com/didlight/didlight/host/internal/store/bolt"
	"github.com/didlight/didlight/host/internal/store/mem"
)

func TestGenesis(t *testing.T) {
	f := newFixture(t, Config{Arbiters: 3})
	c := f.c
	height, hash, bt := c.Tip()
	if height != 0 || bt != GenesisTime.Unix() || hash != c.genesis.Hash() {
		t.Fatalf("tip %d %s %d, want the genesis", height, hash, bt)
	}
	b, ctx, err := c.BlockByHeight(0)
	if err != nil {
		t.Fatal(err)
	}
	if b.Hash() != hash || ctx.Confirmations != 1 || !ctx.NextBlockHash.IsZero() || ctx.Difficulty != "1" {
		t.Errorf("genesis %s, context %+v", b.Hash(), ctx)
	}
	if len(b.Transactions) != 2 || b.Transactions[1].Hash() != ela.ELAAssetID() {
		t.Fatalf("genesis transactions %v", b.Transactions)
	}
	dev := c.DevAccount()
	cb := b.Transactions[0]
	if cb.Type() != ela.TxCoinBase || cb.Outputs[0].ProgramHash != dev.ProgramHash || cb.Outputs[0].Value != DevFunds {
		t.Errorf("the genesis coinbase %+v does not pay the dev account %s", cb.Outputs, dev.Address)
	}
	if bal, err := c.Balance(dev.ProgramHash, ela.ELAAssetID()); bal != DevFunds || err != nil {
		t.Errorf("dev balance %s, %v", bal, err)
	}
	utxos, err := c.UTXOs(dev.ProgramHash)
	if err != nil || len(utxos) != 1 || utxos[0] != (UTXO{Address: dev.ProgramHash, Txid: cb.Hash(), Asset: ela.ELAAssetID(), Value: DevFunds, TxType: ela.TxCoinBase, Confirmations: 1}) {
		t.Errorf("dev outputs %+v, %v", utxos, err)
	}
	asset, err := c.Asset(ela.ELAAssetID())
	if err != nil || *asset != (ela.Asset{Name: "ELA", Precision: 8}) {
		t.Errorf("asset %+v, %v", asset, err)
	}
	for _, h := range []ela.Hash{cb.Hash(), {1}} {
		if _, err := c.Asset(h); !errors.Is(err, ErrNotFound) {
			t.Errorf("Asset(%s) = %v, want ErrNotFound", h, err)
		}
	}
	cf, err := c.Confirm(hash)
	if err != nil || cf.BlockHash != hash || len(cf.Votes) != 3 || cf.Verify(keys.Native{}) != nil ||
		!cf.Sponsor.Equal(ArbiterKey(DefaultDevSeed, 0).Public()) {
		t.Errorf("genesis confirm %+v, %v", cf, err)
	}
	if st := c.Stats(); st.TxnCnt != 2 || st.RxTxnCnt != 0 || st.NodeID == 0 {
		t.Errorf("stats %+v", st)
	}
	checkIndexes(t, c)

	// The genesis depends on the seed only.
	other := newFixture(t, Config{Arbiters: 3})
	if _, h, _ := other.c.Tip(); h != hash || other.c.Stats().NodeID == c.Stats().NodeID {
		t.Errorf("a second store of the same seed has genesis %s (want %s) and node id %d", h, hash, other.c.Stats().NodeID)
	}
	seeded := newFixture(t, Config{DevSeed: "other"})
	if _, h, _ := seeded.c.Tip(); h == hash || seeded.c.DevAccount().Address == dev.Address {
		t.Error("another seed gives the same genesis or dev account")
	}
}

// The dev and arbiter keys are the documented hashes of the seed.
func TestDerivedKeys(t *testing.T) {
	for _, tt := range []struct {
		key  *keys.PrivateKey
		text string
	}{
		{DevKey("didlight"), "didlight dev account:didlight"},
		{DevKey("s"), "didlight dev account:s"},
		{ArbiterKey("didlight", 0), "didlight arbiter 0:didlight"},
		{ArbiterKey("s", 12), "didlight arbiter 12:s"},
	} {
		want := sha256.Sum256([]byte(tt.text))
		if string(tt.key.Bytes()) != string(want[:]) {
			t.Errorf("key of %q is %x, want its SHA-256 %x", tt.text, tt.key.Bytes(), want)
		}
	}
	f := newFixture(t, Config{})
	a := f.c.DevAccount()
	if a.Seed != DefaultDevSeed || !a.PublicKey.Equal(DevKey(DefaultDevSeed).Public()) || !strings.HasPrefix(a.Address, "E") ||
		a.ProgramHash != ela.ToProgramHash(ela.PrefixStandard, ela.SingleKeyScript(a.PublicKey, ela.OpCheckSig)) {
		t.Errorf("dev account %+v", a)
	}
}

func TestOpenConfig(t *testing.T) {
	for _, cfg := range []Config{
		{},
		{DB: mem.New(), Arbiters: -1},
		{DB: mem.New(), Arbiters: MaxArbiters + 1},
		{DB: mem.New(), BlockTime: -time.Second},
		{DB: mem.New(), MempoolSize: -1},
		{DB: mem.New(), MempoolBytes: -1},
	} {
		if c, err := Open(cfg); err == nil {
			c.Close()
			t.Errorf("Open(%+v) succeeds", cfg)
		}
	}
}

// A store keeps one seed's chain; reopening keeps everything, including
// the mempool (in the store, or in a mempool log) and the devnet clock.
func TestReopen(t *testing.T) {
	for _, log := range []bool{false, true} {
		t.Run(fmt.Sprint("log=", log), func(t *testing.T) { testReopen(t, log) })
	}
}

func testReopen(t *testing.T, log bool) {
	dir := t.TempDir()
	db, err := bolt.Open(dir, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{DB: db}
	if log {
		cfg.MempoolLog = filepath.Join(dir, MempoolLogFile)
	}
	f := newFixture(t, cfg)
	bob := newWallet("bob")
	f.submit(f.transfer(f.dev(), bob.ph, 5*ela.OneELA))
	f.mine()
	if _, err := devnet.IncreaseTime(f.c, time.Hour); err != nil {
		t.Fatal(err)
	}
	pooled := f.submit(f.transfer(f.dev(), bob.ph, ela.OneELA))
	height, hash, bt := f.c.Tip()
	stats := f.c.Stats()
	f.c.Close()

	if _, err := Open(Config{DB: db, DevSeed: "other", MempoolLog: cfg.MempoolLog}); err == nil || !strings.Contains(err.Error(), "another dev seed") {
		t.Errorf("opening with another seed: %v", err)
	}
	f.open()
	if h, hh, tt := f.c.Tip(); h != height || hh != hash || tt != bt {
		t.Errorf("reopened at %d %s %d, want %d %s %d", h, hh, tt, height, hash, bt)
	}
	if st := f.c.Stats(); st != stats {
		t.Errorf("stats %+v, want %+v", st, stats)
	}
	if txs := f.c.Mempool(); len(txs) != 1 || txs[0].Hash() != pooled {
		t.Fatalf("mempool %v, want %s", txs, pooled)
	}
	if b := f.mine(); b.Transactions[1].Hash() != pooled || int64(b.Header.Timestamp) < f.clock.Now().Add(time.Hour).Unix() {
		t.Errorf("block %d at %d: the pooled transaction or the clock's lead was lost", b.Header.Height, b.Header.Timestamp)
	}
	if bal, _ := f.c.Balance(bob.ph, ela.ELAAssetID()); bal != 6*ela.OneELA {
		t.Errorf("bob holds %s", bal)
	}
	checkIndexes(t, f.c)
	f.c.Close()
	db.Close()
}

// Reopening validates the stored mempool again: a transaction that is no
// longer valid (its document expired while the node was down) is dropped,
// from memory and from the store; the others stay, in their order.
func TestReopenDropsInvalid(t *testing.T) {
	f := newFixture(t, Config{})
	f.split(f.dev(), 3)
	keep1 := f.submit(f.transfer(f.dev(), newWallet("x").ph, 1))
	u := newUser("short lived")
	gone := f.submit(f.opTx(f.dev(), u.create(t, u.document(t, f.clock.Now().Add(time.Minute), nil))))
	keep2 := f.submit(f.transfer(f.dev(), newWallet("y").ph, 1))
	f.c.Close()
	f.clock.advance(time.Hour)
	f.open()
	pool := f.c.Mempool()
	if len(pool) != 2 || pool[0].Hash() != keep1 || pool[1].Hash() != keep2 {
		t.Fatalf("reopened mempool %v, want %s and %s without %s", pool, keep1, keep2, gone)
	}
	f.c.Close()
	f.open()
	if n := len(f.c.Mempool()); n != 2 {
		t.Errorf("the dropped transaction is back after another reopen: %d pooled", n)
	}
	f.mine()
	checkIndexes(t, f.c)
}
