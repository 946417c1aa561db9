package didindex

import (
	"log/slog"

	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/host/internal/answers"
	"github.com/didlight/didlight/host/internal/store"
)

// Index reads and writes the DID index of a store. It holds no state of
// its own and takes no lock: what it keeps is in the store, whose
// transactions order its readers and writers, and in the answers.Cache it
// is given, whose lock is a leaf.
type Index struct {
	decode func(idop.Request) (*idop.Op, error)
	cache  *answers.Cache
	log    *slog.Logger
}

// New returns the index read and written with decode, which decodes a
// stored identity request, keeping parsed documents in cache, logging
// query plans and upgrades to log.
func New(decode func(idop.Request) (*idop.Op, error), cache *answers.Cache, log *slog.Logger) *Index {
	return &Index{decode: decode, cache: cache, log: log}
}

// Reader reads the index inside one store transaction: a View for readers
// and admission, or the Update that applies a block, which then sees the
// block's earlier operations.
type Reader struct {
	ix *Index
	tx store.Tx
}

// Read returns a Reader of the index in tx.
func (ix *Index) Read(tx store.Tx) Reader { return Reader{ix: ix, tx: tx} }

// Batch applies identity operations to the index inside the store Update
// of the block at time that carries them (or of several blocks, see At).
// The postings and counts it changes are kept in the batch until Flush,
// so that a block writes each of them once.
type Batch struct {
	Reader
	time   uint32
	counts map[string]int64        // changes to BucketCounts not yet written, by key (see count)
	fields map[string]*fieldChange // containers of BucketFields changed, not yet written, by key (see container)
	key    []byte                  // room for building keys
}

// At has the batch apply the operations of the next block, made at time,
// in the same transaction: a batch over several blocks writes each
// container and count they change once, at its Flush.
func (w *Batch) At(time uint32) { w.time = time }

// Write returns a Batch applying operations of a block made at time
// (Unix seconds) in tx.
func (ix *Index) Write(tx store.Tx, time uint32) *Batch {
	return &Batch{
		Reader: ix.Read(tx),
		time:   time,
		counts: map[string]int64{},
		fields: map[string]*fieldChange{},
	}
}
