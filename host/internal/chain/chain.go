package chain

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/answers"
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/didreads"
	"github.com/didlight/didlight/host/internal/ledgerstore"
	"github.com/didlight/didlight/host/internal/mempool"
	"github.com/didlight/didlight/host/internal/producer"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// MaxArbiters is the most arbiters Config.Arbiters may ask for.
const MaxArbiters = 64

// MempoolLogFile is the name of the mempool log (Config.MempoolLog) in a
// node's data directory, next to the store's file.
const MempoolLogFile = "mempool.log"

// Config configures Open.
type Config struct {
	DB           store.DB         // the store; the chain never closes it
	DevSeed      string           // "" means DefaultDevSeed
	Arbiters     int              // arbiter keys confirming each block; 0 means 1
	BlockTime    time.Duration    // 0 mines as soon as transactions arrive; else a block per interval
	NoMining     bool             // Run makes no block until SetMining(true): blocks only when a control asks (Mine, MineBlocks, IncreaseTime)
	Now          func() time.Time // the wall clock; nil means time.Now
	Engine       Engine           // nil means Native
	Logger       *slog.Logger     // nil discards
	MempoolSize  int              // most pooled transactions; 0 means DefaultMempoolSize
	MempoolBytes int              // most bytes of pooled transactions; 0 means DefaultMempoolBytes
	Follower     bool             // blocks come from another node through Apply (follow.go); none are made here
	GenesisTime  time.Time        // a new chain's genesis time, its clock starting there (StartAt); zero: GenesisTime and the wall clock
	MempoolLog   string           // the file the mempool is logged to (one sync acknowledges a batch); "" keeps it in DB (poollog.go)
}

// Chain is an open chain. Its methods are safe for concurrent use.
//
// Its changing state has four owners, one lock each, taken in this order
// (a holder of one may take a later one, never an earlier):
//
//  1. mining: the block maker. Held while a block is made (Mine, Run,
//     MineTxs, MinePrepared) or applied (Apply) and by the devnet
//     controls; only its holder writes blocks, and it owns genesis and
//     producer.
//  2. mu: the head, as readers see it (the tip, the clock, the epoch,
//     counts, closed), and the subscribers who hear when it moves.
//  3. pool: the mempool (package mempool, one lock inside its Pool), with
//     the commit queue of the transactions being stored and the dev
//     outputs claimed for funding.
//  4. cache: documents, resolve answers, query pages and W3C answers reads
//     keep (package answers, whose lock is taken inside its methods).
//
// The pool's lock and cache's are leaves: no lock is taken while one is held.
// The ledger (package ledgerstore) and the DID index (index) have no lock:
// their state is in db, written only in the Update of a block, under
// mining.
// The mempool log (poolLog) has a lock of its own, a leaf too.
// A submitter's answer is sent from one place: the mempool's Pool for what
// became of its transaction, mempool.Pending's Settle for its mempool
// commit.
type Chain struct {
	db        store.DB
	params    ledger.Params
	engine    Engine
	verifier  keys.Verifier
	log       *slog.Logger
	now       func() time.Time
	blockTime time.Duration
	dev       Account
	arbiters  []*keys.PrivateKey
	producer  ela.ProgramHash // who every coinbase pays: arbiter 0, or the dev account (metaPayDev); written by Open and with mining held
	genesis   *ela.Block      // written by Open and by a control's Reset and Restart, with mining held
	nodeID    uint64
	follower  *follower          // nil unless Config.Follower
	limits    ledger.BlockLimits // the most one block holds

	mining sync.Mutex // the block producer (see above; lockControl takes it for the devnet controls)

	mu        sync.RWMutex // guards the fields below
	tip       record.Tip
	tipHeader ela.Header
	clock     ledger.Clock // the devnet's clock; the zero Clock on a follower's chain
	epoch     uint64
	txnCount  uint64
	closed    bool
	subs      subscribers

	pool         *mempool.Pool[*entry]
	poolLog      *mempool.Log // Config.MempoolLog, or nil; it owns its file and lock
	poolInMemory bool         // the store is not durable and there is no log: the mempool is kept in memory only (poollog.go)
	cache        answers.Cache
	index        *didindex.Index // the DID index; stateless, its state in db and cache

	*didreads.Reads // the DID reads, over index and cache (didreads.go)

	blocks   *producer.Producer // when Run makes blocks; it counts the SubmitTx calls under way
	received atomic.Uint64      // transactions SubmitTx was given
	counts   counters           // what the chain did since Open (counts.go)
	done     chan struct{}      // closed by Close
}

// Open opens the chain kept in cfg.DB. An empty store gets the genesis
// block of cfg.DevSeed; a store holding another seed's chain is refused.
// Transactions the store's mempool holds are validated again: those still
// valid are pooled, the others dropped.
func Open(cfg Config) (*Chain, error) {
	if err := cfg.complete(); err != nil {
		return nil, err
	}
	c := cfg.chain()
	if err := c.update(func(tx store.Tx) error { return c.initStore(tx, cfg.GenesisTime) }); err != nil {
		return nil, fmt.Errorf("chain: open: %w", err)
	}
	if err := c.db.View(c.load); err != nil {
		return nil, fmt.Errorf("chain: open: %w", err)
	}
	c.pool = mempool.New(cfg.MempoolSize, cfg.MempoolBytes, c.position(), c.commitPool, c.admissions, gatherWait)
	logged, err := c.openPoolLog(cfg.MempoolLog)
	c.poolInMemory = c.poolLog == nil && !c.db.Durable()
	if err == nil {
		err = c.reloadPool(logged)
	}
	if err != nil {
		if c.poolLog != nil {
			c.poolLog.Close()
		}
		return nil, fmt.Errorf("chain: open: %w", err)
	}
	c.log.Info("chain open", "height", c.tip.Height, "tip", c.tip.Hash, "mempool", c.pool.Len(), "dev", c.dev.Address)
	return c, nil
}

// complete checks cfg and fills in its defaults.
func (cfg *Config) complete() error {
	switch {
	case cfg.DB == nil:
		return errors.New("chain: Config.DB is nil")
	case cfg.Arbiters < 0 || cfg.Arbiters > MaxArbiters:
		return fmt.Errorf("chain: %d arbiters, want 1 to %d", cfg.Arbiters, MaxArbiters)
	case cfg.BlockTime < 0:
		return fmt.Errorf("chain: negative block time %s", cfg.BlockTime)
	case cfg.MempoolSize < 0 || cfg.MempoolBytes < 0:
		return fmt.Errorf("chain: negative mempool limit %d transactions, %d bytes", cfg.MempoolSize, cfg.MempoolBytes)
	case !cfg.GenesisTime.IsZero():
		if err := ledger.CheckGenesisTime(cfg.GenesisTime.Unix()); err != nil {
			return fmt.Errorf("chain: %w", err)
		}
	}
	if cfg.DevSeed == "" {
		cfg.DevSeed = DefaultDevSeed
	}
	if cfg.Arbiters == 0 {
		cfg.Arbiters = 1
	}
	if cfg.MempoolSize == 0 {
		cfg.MempoolSize = DefaultMempoolSize
	}
	if cfg.MempoolBytes == 0 {
		cfg.MempoolBytes = DefaultMempoolBytes
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Engine == nil {
		cfg.Engine = Native{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return nil
}

// chain returns the chain cfg describes, before its store is read.
func (cfg *Config) chain() *Chain {
	c := &Chain{
		db:        cfg.DB,
		params:    ledger.Devnet(),
		engine:    cfg.Engine,
		verifier:  keys.NewCache(keys.Native{}, keptKeys),
		log:       cfg.Logger,
		now:       cfg.Now,
		blockTime: cfg.BlockTime,
		dev:       newAccount(DevKey(cfg.DevSeed), cfg.DevSeed),
		limits:    ledger.MaxBlockLimits(),
		done:      make(chan struct{}),
	}
	c.index = didindex.New(cfg.Engine.DecodeOperation, &c.cache, cfg.Logger)
	c.Reads = newReads(c)
	for i := range cfg.Arbiters {
		c.arbiters = append(c.arbiters, ArbiterKey(cfg.DevSeed, i))
	}
	c.producer = newAccount(c.arbiters[0], cfg.DevSeed).ProgramHash
	if cfg.Follower {
		c.follower = newFollower(cfg.DevSeed)
	}
	c.blocks = producer.New(maker{c}, cfg.BlockTime, cfg.NoMining, c.done, cfg.Logger)
	c.genesis = c.genesisAt(GenesisTime)
	return c
}

// genesisAt returns the genesis block of the chain's seed stamped t.
func (c *Chain) genesisAt(t time.Time) *ela.Block {
	return c.params.Genesis(c.dev.ProgramHash, DevFunds, uint32(t.Unix()))
}

// initStore writes the genesis block and a node id into an empty store, or
// checks that the store holds this seed's chain, begun at the genesis time
// asked for if one was.
func (c *Chain) initStore(tx store.Tx, asked time.Time) error {
	if v, ok := getMeta(tx, metaGenesis); ok {
		began, err := readBegan(tx)
		if err != nil {
			return err
		}
		if !asked.IsZero() && (!began.asked || asked.Unix() != began.at.Unix()) {
			return fmt.Errorf("the store holds a chain begun at %s, not at the genesis time given, %s: start from an empty store, or reset the chain to that time",
				began, asked.UTC().Format(time.RFC3339))
		}
		c.genesis = c.genesisAt(began.at)
		if want := c.genesis.Hash(); string(v) != string(want[:]) {
			return fmt.Errorf("the store holds the chain of another dev seed (genesis %x, this seed's is %s)", reverse(v), want)
		}
		return c.upgrade(tx)
	}
	var id [8]byte
	if _, err := rand.Read(id[:]); err != nil {
		return err
	}
	if err := putMeta(tx, metaNodeID, id[:]); err != nil {
		return err
	}
	if err := putMeta(tx, metaFormat, record.U64(storeFormat)); err != nil {
		return err
	}
	b := c.beginAt(asked)
	c.genesis = b.genesis
	return c.writeGenesis(tx, b)
}

// writeGenesis writes the genesis block of b and its confirm, as the
// chain's only block, with b's time and clock.
func (c *Chain) writeGenesis(tx store.Tx, b beginning) error {
	h := b.genesis.Hash()
	if err := putMeta(tx, metaGenesis, h[:]); err != nil {
		return err
	}
	if err := b.put(tx); err != nil {
		return err
	}
	w := newBatch(c, tx, b.genesis.Header.Timestamp)
	txids := make([]ela.Hash, len(b.genesis.Transactions))
	for i, t := range b.genesis.Transactions {
		txids[i] = t.Hash()
		if err := w.applyTx(t, txids[i], t.Bytes(), 0, uint32(i), nil); err != nil {
			return err
		}
	}
	return w.putBlock(b.genesis, txids, c.confirm(h))
}

// load reads the state the chain keeps in memory.
func (c *Chain) load(tx store.Tx) error {
	h, err := readHead(tx)
	if err != nil {
		return err
	}
	v, ok := getMeta(tx, metaNodeID)
	if !ok || len(v) != 8 {
		return fmt.Errorf("chain: the node id is missing: %w", store.ErrCorrupt)
	}
	c.nodeID = binary.BigEndian.Uint64(v)
	c.setHead(h)
	c.producer = c.payee(tx)
	received, err := getU64(tx, metaReceived)
	c.received.Store(received)
	return err
}

// payee returns who the stored chain's coinbases pay: the dev account if
// PayCoinbasesToDev said so, else arbiter 0.
func (c *Chain) payee(tx store.Tx) ela.ProgramHash {
	if _, ok := getMeta(tx, metaPayDev); ok {
		return c.dev.ProgramHash
	}
	return newAccount(c.arbiters[0], c.dev.Seed).ProgramHash
}

// head is the chain's state that c.mu guards, as the store holds it.
type head struct {
	tip      record.Tip
	header   ela.Header
	clock    ledger.Clock
	epoch    uint64
	txnCount uint64
}

// readHead reads the chain's head from the store.
func readHead(tx store.Tx) (head, error) {
	var h head
	var err error
	if h.tip, err = readTip(tx); err != nil {
		return h, err
	}
	blk, err := ledgerstore.ReadBlock(tx, h.tip.Height)
	if err != nil {
		return h, err
	}
	h.header = blk.Header
	if h.clock, err = readClock(tx); err != nil {
		return h, err
	}
	if h.epoch, err = getU64(tx, metaEpoch); err != nil {
		return h, err
	}
	h.txnCount, err = getU64(tx, metaTxnCount)
	return h, err
}

// setHead makes h the chain's head in memory; the caller holds c.mu, or
// is Open.
func (c *Chain) setHead(h head) {
	c.tip, c.tipHeader, c.clock, c.epoch, c.txnCount = h.tip, h.header, h.clock, h.epoch, h.txnCount
}

// position returns the state the chain is at.
func (c *Chain) position() mempool.Position {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return mempool.Position{Epoch: c.epoch, Height: c.tip.Height, Tip: c.tip.Hash}
}

// confirm returns the DPoS confirm of a block: arbiter 0's proposal and an
// accepting vote by every arbiter.
func (c *Chain) confirm(h ela.Hash) *ela.Confirm {
	cf := ela.NewConfirm(c.arbiters[0], h, 0)
	for _, a := range c.arbiters {
		cf.AddVote(a, true)
	}
	return cf
}

// Close stops the chain: later calls fail with an error wrapping store.ErrClosed, Run returns,
// SubmitRequest callers still waiting get it too (their transactions
// stay in the stored mempool), and Close waits for a block being made. It
// does not close the store, which the caller may close once Close has
// returned.
func (c *Chain) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	close(c.done)
	c.subs.closeAll()
	c.mu.Unlock()
	c.mining.Lock()
	defer c.mining.Unlock()
	c.pool.Close()
	if c.poolLog != nil {
		return c.poolLog.Close()
	}
	if c.poolInMemory {
		return c.storeKept()
	}
	return nil
}

func (c *Chain) isClosed() bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.closed
}

// DevAccount returns the dev account: the genesis coinbase pays it DevFunds
// and SubmitRequest spends from it.
func (c *Chain) DevAccount() Account { return c.dev }

// Devnet reports whether the chain is a development chain that accepts the
// devnet controls (Mine, SubmitRequest, and package devnet's through
// Control). Every chain this package opens is one, except a follower's
// (Config.Follower).
func (c *Chain) Devnet() bool { return c.follower == nil }

// reverse returns b reversed, for showing a stored hash.
func reverse(b []byte) []byte {
	out := make([]byte, len(b))
	for i := range b {
		out[len(b)-1-i] = b[i]
	}
	return out
}
