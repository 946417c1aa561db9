package eidfork

import (
	"encoding/json"
	"fmt"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/fork"
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// bucketTxids files each grafted operation by its transaction: the txid
// as the DID index stores it (parseTxid) → Grafted, as JSON.
const bucketTxids = "eidforktxids"

// Grafted is what a chain knows of an EID transaction whose operation it
// grafted below its blocks: taken by a fork, or loaded from an EID export.
type Grafted struct {
	Subject   string `json:"subject"`   // the DID or credential the operation is about
	Operation string `json:"operation"` // its operation: create, update, declare, …
	Block     uint64 `json:"block"`     // the EID block that carried it, or (Exact false) one at or above it
	Exact     bool   `json:"exact"`     // Block is the transaction's own block
}

// GraftedTx returns what c holds of the EID transaction txid (a hash as
// the DID index stores it, which ela.Hash.String writes as EID does), or
// nil when c grafted no operation of it.
func GraftedTx(c Chain, txid ela.Hash) (*Grafted, error) {
	var g *Grafted
	err := c.ViewIndex(func(tx store.Tx, _ didindex.Reader) error {
		v, ok := record.Bucket(tx, bucketTxids).Get(txid[:])
		if !ok {
			return nil
		}
		g = &Grafted{}
		if err := json.Unmarshal(v, g); err != nil {
			return fmt.Errorf("eidfork: grafted transaction %s: %w: %v", txid, store.ErrCorrupt, err)
		}
		return nil
	})
	return g, err
}

// putTxids files k's operations by their txids. An operation's block is
// exact when it is the newest's, or below the next one's: a fork asks
// the block of the newest operation it keeps only, and gives the older
// ones that block as a bound (Fork.cut).
func putTxids(tx store.Tx, k *fork.Kept) error {
	b := record.Bucket(tx, bucketTxids)
	for i, o := range k.Ops {
		txid, err := parseTxid(o.Txid)
		if err != nil {
			return err
		}
		exact := i == len(k.Ops)-1 || o.Block < k.Ops[i+1].Block
		v, err := json.Marshal(Grafted{Subject: k.DID, Operation: o.Request.Header.Operation, Block: o.Block, Exact: exact})
		if err != nil {
			return err
		}
		if err := b.Put(txid[:], v); err != nil {
			return err
		}
	}
	return nil
}
