package chain

import (
	"fmt"

	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/chain/internal/record"
	"github.com/didlight/didlight/host/store"
)

// storeFormat is the version of the record formats this package writes,
// kept in meta under metaFormat. Stores without it are of format 1, whose
// history entries lack Expires.
const storeFormat = 2

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
	for _, name := range []string{bucketHistory, bucketCredHist} {
		if err := c.upgradeEntries(bucket(tx, name)); err != nil {
			return fmt.Errorf("upgrading %s to format %d: %w", name, storeFormat, err)
		}
	}
	c.log.Info("store upgraded", "from", max(format, 1), "to", storeFormat)
	return putMeta(tx, metaFormat, record.U64(storeFormat))
}

// upgradeEntries rewrites the format 1 history entries of b with the
// Expires that resolve.NewEntry derives from their operations.
func (c *Chain) upgradeEntries(b store.Bucket) error {
	for k, v := range b.Scan(store.Range{}) {
		e, err := record.ParseEntryV1(v)
		if err != nil {
			return err
		}
		op, err := c.engine.DecodeOperation(e.Request)
		if err != nil {
			return fmt.Errorf("the operation of %s does not decode: %v: %w", e.Txid, err, record.ErrCorrupt)
		}
		e.Expires = resolve.NewEntry(op, "", 0, 0, 0).Expires
		if err := b.Put(k, e.Bytes()); err != nil {
			return err
		}
	}
	return nil
}
