// Package eidindex keeps an EID chain's DIDs in a store: the DID index a devnet keeps, the EID head, and undo for its last blocks.
//
// An Index is the eidsync.Sink an EID scan feeds: each block's operations,
// rebuilt from their receipts' didLog, are checked as EID checked them in
// that block (eid.Network.Accept) against the index's state before them,
// and written with didindex's Batch in the same records as a devnet's, so
// that resolve, the credential methods, W3C resolution and query read both
// alike (didreads). A call's blocks and the new head are one store update.
// What each block changed is logged (host/internal/undo) for its last
// Keep blocks, so that Rollback can give back the index as it was at any
// of them when the upstream reorganises.
package eidindex

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/didlight/didlight/core/eid"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/host/internal/answers"
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/didreads"
	"github.com/didlight/didlight/host/internal/eidsync"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// DefaultKeep is how many of the last blocks an Index keeps undo for when
// Config.Keep is 0: far more than an EID reorganisation has dropped.
const DefaultKeep = 256

// keptKeys is how many decoded public keys the signature verifier keeps.
const keptKeys = 1 << 14

// Config configures Open.
type Config struct {
	DB      store.DB     // the store; the Index never closes it
	Network eid.Network  // the chain followed: its id, and the blocks in which EID did not check everything
	Keep    int          // blocks whose undo is kept; 0 means DefaultKeep
	Logger  *slog.Logger // refused operations and rollbacks; nil discards
}

// Head is the last block applied.
type Head struct {
	Number uint64
	Hash   eidsync.Hash
	Time   uint64 // the block's timestamp, Unix seconds
}

// Index is an EID chain's DID index in a store. Its methods are safe for
// concurrent use; Apply and Rollback are called from one goroutine at a
// time (eidsync.Sink).
//
// Locks, in the order they are taken: mu (the head and counts as readers
// see them), then the answers cache's, a leaf inside that package.
type Index struct {
	*didreads.Reads // the DID reads, over the index at the head

	db       store.DB
	net      eid.Network
	keep     uint64
	log      *slog.Logger
	verifier keys.Verifier
	index    *didindex.Index
	cache    answers.Cache

	mu     sync.RWMutex // guards the fields below
	head   Head
	headOK bool
	counts Counts
	closed bool
}

var _ eidsync.Sink = (*Index)(nil)

// Open opens the EID index kept in cfg.DB, or makes one in an empty
// store. A store holding another chain's index is refused.
func Open(cfg Config) (*Index, error) {
	if cfg.DB == nil {
		return nil, errors.New("eidindex: Config.DB is nil")
	}
	if cfg.Keep < 0 {
		return nil, fmt.Errorf("eidindex: Config.Keep %d is negative", cfg.Keep)
	}
	if cfg.Keep == 0 {
		cfg.Keep = DefaultKeep
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	ix := &Index{db: cfg.DB, net: cfg.Network, keep: uint64(cfg.Keep), log: cfg.Logger,
		verifier: keys.NewCache(keys.Native{}, keptKeys)}
	ix.index = didindex.New(idop.Decode, &ix.cache, cfg.Logger)
	ix.Reads = didreads.New(readSource{ix}, ix.index, &ix.cache)
	if err := ix.db.Update(ix.init); err != nil {
		return nil, fmt.Errorf("eidindex: open: %w", err)
	}
	if err := ix.db.View(ix.load); err != nil {
		return nil, fmt.Errorf("eidindex: open: %w", err)
	}
	if ix.headOK {
		ix.log.Info("EID index open", "block", ix.head.Number, "hash", ix.head.Hash, "dids", ix.counts.Applied)
	}
	return ix, nil
}

// init marks an empty store as this chain's EID index, or checks that the
// store is one.
func (ix *Index) init(tx store.Tx) error {
	meta := record.Bucket(tx, bucketMeta)
	v, ok := meta.Get(keyChain)
	if !ok {
		if err := meta.Put(keyFormat, record.U64(format)); err != nil {
			return err
		}
		return meta.Put(keyChain, record.U64(ix.net.ChainID))
	}
	chain, err := record.ParseU64(v)
	if err != nil {
		return fmt.Errorf("the chain id: %w: %w", store.ErrCorrupt, err)
	}
	if chain != ix.net.ChainID {
		return fmt.Errorf("the store holds the index of chain %d, not of chain %d", chain, ix.net.ChainID)
	}
	f, _ := meta.Get(keyFormat)
	if got, err := record.ParseU64(f); err != nil || got != format {
		return fmt.Errorf("the store's EID index is of format %x, this node reads format %d", f, format)
	}
	return nil
}

// load reads the head and counts from the store.
func (ix *Index) load(tx store.Tx) error {
	h, ok, err := readHead(tx)
	if err != nil {
		return err
	}
	c, err := readCounts(tx)
	if err != nil {
		return err
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.head, ix.headOK, ix.counts = h, ok, c
	return nil
}

// Close stops the index: later calls fail with an error wrapping
// store.ErrClosed. It does not close the store.
func (ix *Index) Close() error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.closed = true
	return nil
}

// Network returns the chain the index follows.
func (ix *Index) Network() eid.Network { return ix.net }

// Head returns the number and hash of the last block applied; ok is false
// before the first (eidsync.Sink).
func (ix *Index) Head() (number uint64, hash eidsync.Hash, ok bool) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.head.Number, ix.head.Hash, ix.headOK
}

// HeadBlock returns the last block applied with its time; ok is false
// before the first.
func (ix *Index) HeadBlock() (Head, bool) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.head, ix.headOK
}

// Counts returns what the index has applied and refused.
func (ix *Index) Counts() Counts {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.counts
}

// HashAt returns the hash of applied block number; ok is false for a block
// above the head or older than the index keeps undo for (eidsync.Sink).
func (ix *Index) HashAt(number uint64) (eidsync.Hash, bool) {
	var h eidsync.Hash
	var ok bool
	err := ix.view(func(tx store.Tx) error {
		var b kept
		b, ok = readKept(tx, number)
		h = b.hash
		return nil
	})
	return h, ok && err == nil
}

// view runs fn in a read transaction, unless the index is closed.
func (ix *Index) view(fn func(store.Tx) error) error {
	if err := ix.open(); err != nil {
		return err
	}
	return ix.db.View(fn)
}

// open returns an error wrapping store.ErrClosed once the index is closed.
func (ix *Index) open() error {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.closed {
		return fmt.Errorf("eidindex: %w", store.ErrClosed)
	}
	return nil
}

// readSource is the index as a didreads.Source: its tip is the head.
type readSource struct{ ix *Index }

func (s readSource) Tip() (uint32, ela.Hash, int64) {
	h, _ := s.ix.HeadBlock()
	return uint32(h.Number), ela.Hash(h.Hash), int64(h.Time)
}

func (s readSource) View(fn func(store.Tx) error) error { return s.ix.view(fn) }

func (readSource) ReadTip(tx store.Tx) (record.Tip, error) {
	h, _, err := readHead(tx)
	return record.Tip{Height: uint32(h.Number), Hash: ela.Hash(h.Hash), Time: uint32(h.Time)}, err
}
