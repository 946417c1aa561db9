package chain

import (
	"fmt"

	"github.com/didlight/didlight/host/internal/devnet"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// storeFormat is the version of the record formats this package writes,
// kept in meta under metaFormat. Stores without it are of format 1, whose
// history entries lack Expires; stores of format 2 lack the postings of
// the views (didindex.BucketFields) and the counts (didindex.BucketCounts); stores of format
// 3 keep a key per posting of the views rather than containers of them;
// stores of format 4 keep the views as resolve.View writes them, without
// skip tables and without the documents; stores of format 5 keep each
// DID's key and document with its view, rather than the documents in a
// bucket of their own (didindex.BucketDocs); stores of format 6 keep the views as
// JSON text with skip tables rather than in encoded form (find.Encode)
// (didindex.Index.Upgrade upgrades the index of these); stores of format 7 keep each devnet snapshot as a copy of the chain's
// buckets rather than as a mark in an undo log (devnet.UpgradeSnapshots).
const storeFormat = 8

// upgrade brings a store written by an older version to storeFormat, in
// the Update that opens it, so that every read may assume the current
// formats. A store of a newer format is refused.
func (c *Chain) upgrade(tx store.Tx) error {
	format, err := getU64(tx, metaFormat)
	switch {
	case err != nil:
		return err
	case format == storeFormat:
		return nil
	case format > storeFormat:
		return fmt.Errorf("the store is of format %d, newer than this version's %d", format, storeFormat)
	}
	if format < 8 { // first, so that what the upgrade writes is logged after the snapshots
		if err := devnet.UpgradeSnapshots(tx, snapshotted()); err != nil {
			return fmt.Errorf("turning the snapshots of format %d into snapshots of format %d: %w", max(format, 1), storeFormat, err)
		}
	}
	if err := c.index.Upgrade(tx, format, storeFormat); err != nil {
		return err
	}
	c.log.Info("store upgraded", "from", max(format, 1), "to", storeFormat)
	return putMeta(tx, metaFormat, record.U64(storeFormat))
}
