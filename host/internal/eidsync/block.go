// Package eidsync scans an EID node's blocks for DID operations and feeds them in order to an index.
package eidsync

import "context"

// Hash is a 32-byte block or transaction hash in the order EID's JSON-RPC
// writes it (0x and 64 hex digits, not byte-reversed).
type Hash [32]byte

// Block is what an index takes from one EID block: its place in the chain
// and the DID operations it accepted.
type Block struct {
	Number uint64
	Hash   Hash
	Parent Hash
	Time   uint64 // the header's timestamp, Unix seconds
	Ops    []Op   // the block's accepted DID and credential operations, in transaction order
	// UpstreamHead is the upstream's head when the scan read the block (0:
	// not known): a sink need not keep undo for a block far below it.
	UpstreamHead uint64
}

// Op is one accepted DID or credential operation: a transaction to the DID
// contract or to the 0x…16 precompile whose receipt has status 1 and a
// didLog (a refused one has neither and is not an Op).
type Op struct {
	TxHash Hash
	Index  uint32 // the transaction's index in its block
	From   string // the sender: 0x and 40 hex digits, lower case
	Data   string // the receipt's didLog.data (core/eid.DecodeLogData reads it)
}

// Sink is the index a scan feeds. Its methods are called from one goroutine
// at a time.
type Sink interface {
	// Head returns the number and hash of the last block applied; ok is
	// false before the first.
	Head() (number uint64, hash Hash, ok bool)
	// HashAt returns the hash of applied block number, for finding where a
	// reorganised upstream branched off; ok is false for a block the sink
	// does not keep (above its head, or older than it keeps undo for).
	HashAt(number uint64) (hash Hash, ok bool)
	// Apply applies blocks, consecutive and each the child of the one
	// before; the first is the child of Head (or the scan's first block).
	// It is atomic: all of blocks are applied and durable, or none.
	Apply(ctx context.Context, blocks []*Block) error
	// Rollback undoes every applied block above number, which becomes the
	// head.
	Rollback(number uint64) error
}
