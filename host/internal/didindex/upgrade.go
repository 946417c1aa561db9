package didindex

import (
	"fmt"

	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// Upgrade brings the index of a store of format from to format to, in the
// Update that opens the store, so that every read may assume the current
// formats: format 1's history entries lack Expires; format 2 lacks the
// postings of the views (BucketFields) and the counts (BucketCounts);
// format 3 keeps a key per posting of the views rather than containers of
// them; format 4 keeps the views as resolve.View writes them, without skip
// tables and without the documents; format 5 keeps each DID's key and
// document with its view, rather than the documents in a bucket of their
// own (BucketDocs); format 6 keeps the views as JSON text with skip tables
// rather than in encoded form (find.Encode).
func (ix *Index) Upgrade(tx store.Tx, from, to uint64) error {
	if from < 2 {
		for _, name := range []string{BucketHistory, BucketCredHist} {
			if err := ix.upgradeEntries(bucket(tx, name)); err != nil {
				return fmt.Errorf("upgrading %s to format %d: %w", name, to, err)
			}
		}
	}
	if from < 7 {
		if err := ix.upgradeViews(tx, from); err != nil {
			return fmt.Errorf("upgrading the views to format %d: %w", to, err)
		}
	}
	if from < 4 {
		if err := ix.buildIndexes(tx); err != nil {
			return fmt.Errorf("building the indexes of format %d: %w", to, err)
		}
	}
	return nil
}

// LogUpgrade is the message logged as buildIndexes goes, with the
// attributes done and of (DIDs).
const LogUpgrade = "building indexes"

// buildIndexes writes the postings of every view and the counts of
// postings, in the Update that opens the store: a process killed meanwhile
// leaves the store as it was, and the next open starts again. It logs its
// progress about every tenth of the DIDs. It writes the containers and
// counts once, at the end, in the order of their keys: into the emptied
// buckets every put is then an append, where puts between keys already
// written move half of bbolt's node (it splits nodes only at commit) and
// grow with the square of the DIDs (96 s at 100k against 22 s). The
// store holds every written node in memory until the commit anyway.
func (ix *Index) buildIndexes(tx store.Tx) error {
	w := ix.Write(tx, 0)
	for _, name := range []string{BucketFields, BucketCounts} {
		if err := tx.DeleteBucket(name); err != nil {
			return err
		}
	}
	for _, name := range []string{BucketServices, BucketCredTypes} {
		for k := range bucket(tx, name).Scan(store.Range{}) {
			w.count(name, postingPrefixOf(k), true)
		}
	}
	of := int(bucket(tx, BucketDIDs).Sequence())
	done := 0
	for k, v := range bucket(tx, BucketViews).Scan(store.Range{}) {
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
		w.count(BucketViews, nil, true)
		done++
		ix.progress(LogUpgrade, done, of)
	}
	return w.Flush()
}

// LogUpgradeViews is the message logged as upgradeViews goes, with the
// attributes done and of (DIDs).
const LogUpgradeViews = "rewriting the views"

// upgradeViews rewrites the views of a store of format 6 or older in
// encoded form, in the Update that opens the store (a process killed
// meanwhile leaves the store as it was), logging its progress about every
// tenth of the DIDs. Views of format 5 or older lose their DIDs' keys and
// documents, which go to BucketDocs under the same keys; those of format 4
// or older have their documents read from the history. The keys stay, so
// every put of a view replaces a value in place, and every put of a
// document appends.
func (ix *Index) upgradeViews(tx store.Tx, format uint64) error {
	views, docs := bucket(tx, BucketViews), bucket(tx, BucketDocs)
	of := int(bucket(tx, BucketDIDs).Sequence())
	done := 0
	for k, v := range views.Scan(store.Range{}) {
		old, err := ix.viewOfFormat(tx, format, v)
		if err != nil {
			return err
		}
		view, err := StoredView(old.JSON)
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
		ix.progress(LogUpgradeViews, done, of)
	}
	return nil
}

// viewOfFormat decodes a view of an older store format, with its DID's
// document in normalized form when the store keeps that with the view
// (format 5) or nowhere yet (format 4 and older: it is read from the
// history).
func (ix *Index) viewOfFormat(tx store.Tx, format uint64, v []byte) (*record.ViewV6, error) {
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
	s := ix.Read(tx)
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
func (ix *Index) progress(msg string, done, of int) {
	if done%max((of+9)/10, 1) == 0 {
		ix.log.Info(msg, "done", done, "of", of)
	}
}

// postingPrefixOf returns the PostingPrefix of a PostingKey.
func postingPrefixOf(k []byte) []byte { return k[:max(len(k)-8, 0)] }

// upgradeEntries rewrites the format 1 history entries of b with the
// Expires that resolve.NewEntry derives from their operations.
func (ix *Index) upgradeEntries(b store.Bucket) error {
	for k, v := range b.Scan(store.Range{}) {
		e, err := record.ParseEntryV1(v)
		if err != nil {
			return err
		}
		op, err := ix.decode(e.Request)
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
