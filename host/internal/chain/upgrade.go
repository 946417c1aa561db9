package chain

import (
	"fmt"

	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// storeFormat is the version of the record formats this package writes,
// kept in meta under metaFormat. Stores without it are of format 1, whose
// history entries lack Expires; stores of format 2 lack the postings of
// the views (bucketFields) and the counts (bucketCounts); stores of format
// 3 keep a key per posting of the views rather than containers of them;
// stores of format 4 keep the views as resolve.View writes them, without
// skip tables and without the documents; stores of format 5 keep each
// DID's key and document with its view, rather than the documents in a
// bucket of their own (bucketDocs); stores of format 6 keep the views as
// JSON text with skip tables rather than in encoded form (find.Encode);
// stores of format 7 keep each devnet snapshot as a copy of the chain's
// buckets rather than as a mark in an undo log (snapshotv1.go).
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
		if err := convertSnapshots(tx); err != nil {
			return fmt.Errorf("turning the snapshots of format %d into snapshots of format %d: %w", max(format, 1), storeFormat, err)
		}
	}
	if format < 2 {
		for _, name := range []string{bucketHistory, bucketCredHist} {
			if err := c.upgradeEntries(bucket(tx, name)); err != nil {
				return fmt.Errorf("upgrading %s to format %d: %w", name, storeFormat, err)
			}
		}
	}
	if format < 7 {
		if err := c.upgradeViews(tx, format); err != nil {
			return fmt.Errorf("upgrading the views to format %d: %w", storeFormat, err)
		}
	}
	if format < 4 {
		if err := c.buildIndexes(tx); err != nil {
			return fmt.Errorf("building the indexes of format %d: %w", storeFormat, err)
		}
	}
	c.log.Info("store upgraded", "from", max(format, 1), "to", storeFormat)
	return putMeta(tx, metaFormat, record.U64(storeFormat))
}

// logUpgrade is the message logged as buildIndexes goes, with the
// attributes done and of (DIDs).
const logUpgrade = "building indexes"

// buildIndexes writes the postings of every view and the counts of
// postings, in the Update that opens the store: a process killed meanwhile
// leaves the store as it was, and the next open starts again. It logs its
// progress about every tenth of the DIDs. It writes the containers and
// counts once, at the end, in the order of their keys: into the emptied
// buckets every put is then an append, where puts between keys already
// written move half of bbolt's node (it splits nodes only at commit) and
// grow with the square of the DIDs (96 s at 100k against 22 s). The
// store holds every written node in memory until the commit anyway.
func (c *Chain) buildIndexes(tx store.Tx) error {
	w := newBatch(c, tx, 0)
	for _, name := range []string{bucketFields, bucketCounts} {
		if err := tx.DeleteBucket(name); err != nil {
			return err
		}
	}
	for _, name := range []string{bucketServices, bucketCredTypes} {
		for k := range bucket(tx, name).Scan(store.Range{}) {
			w.count(name, postingPrefixOf(k), true)
		}
	}
	of := int(bucket(tx, bucketDIDs).Sequence())
	done := 0
	for k, v := range bucket(tx, bucketViews).Scan(store.Range{}) {
		seq, err := record.ParseSeqKey(k)
		if err != nil {
			return err
		}
		view, err := record.ParseView(v)
		if err != nil {
			return err
		}
		if err := w.postFields(viewIndex.EncodedPostings(view.Encoded), seq, true); err != nil {
			return err
		}
		w.count(bucketViews, nil, true)
		done++
		c.progress(logUpgrade, done, of)
	}
	return w.flush()
}

// logUpgradeViews is the message logged as upgradeViews goes, with the
// attributes done and of (DIDs).
const logUpgradeViews = "rewriting the views"

// upgradeViews rewrites the views of a store of format 6 or older in
// encoded form, in the Update that opens the store (a process killed
// meanwhile leaves the store as it was), logging its progress about every
// tenth of the DIDs. Views of format 5 or older lose their DIDs' keys and
// documents, which go to bucketDocs under the same keys; those of format 4
// or older have their documents read from the history. The keys stay, so
// every put of a view replaces a value in place, and every put of a
// document appends.
func (c *Chain) upgradeViews(tx store.Tx, format uint64) error {
	views, docs := bucket(tx, bucketViews), bucket(tx, bucketDocs)
	of := int(bucket(tx, bucketDIDs).Sequence())
	done := 0
	for k, v := range views.Scan(store.Range{}) {
		old, err := c.viewOfFormat(tx, format, v)
		if err != nil {
			return err
		}
		view, err := storedView(old.JSON)
		if err != nil {
			return err
		}
		if err := views.Put(k, view.Bytes()); err != nil {
			return err
		}
		if old.Doc != nil {
			if err := docs.Put(k, old.Doc); err != nil {
				return err
			}
		}
		done++
		c.progress(logUpgradeViews, done, of)
	}
	return nil
}

// viewOfFormat decodes a view of an older store format, with its DID's
// document in normalized form when the store keeps that with the view
// (format 5) or nowhere yet (format 4 and older: it is read from the
// history).
func (c *Chain) viewOfFormat(tx store.Tx, format uint64, v []byte) (*record.ViewV6, error) {
	switch format {
	case 6:
		return record.ParseViewV6(v)
	case 5:
		return record.ParseViewV5(v)
	}
	old, err := record.ParseViewV4(v)
	if err != nil {
		return nil, err
	}
	s := snapshot{c: c, tx: tx}
	rec, err := s.didRecord(old.DIDKey)
	if err == nil && rec == nil {
		err = fmt.Errorf("chain: a view names DID %s, which has no state: %w", old.DIDKey, store.ErrCorrupt)
	}
	if err != nil {
		return nil, err
	}
	doc, err := s.document(old.DIDKey, rec)
	if err != nil {
		return nil, err
	}
	old.Doc = doc.Normalized()
	return old, nil
}

// progress logs msg with done and of when done reaches another tenth of of.
func (c *Chain) progress(msg string, done, of int) {
	if done%max((of+9)/10, 1) == 0 {
		c.log.Info(msg, "done", done, "of", of)
	}
}

// postingPrefixOf returns the PostingPrefix of a PostingKey.
func postingPrefixOf(k []byte) []byte { return k[:max(len(k)-8, 0)] }

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
			return fmt.Errorf("the operation of %s does not decode: %v: %w", e.Txid, err, store.ErrCorrupt)
		}
		e.Expires = resolve.NewEntry(op, "", 0, 0, 0).Expires
		if err := b.Put(k, e.Bytes()); err != nil {
			return err
		}
	}
	return nil
}
