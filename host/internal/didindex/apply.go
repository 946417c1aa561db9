package didindex

import (
	"fmt"
	"slices"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/find"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// Apply records operation id of transaction txid at a height and
// position: appends it to the DID's history and updates the DID's state,
// its query view and its postings.
func (w *Batch) Apply(id *Operation, txid ela.Hash, height, pos uint32) error {
	// The entry keeps what resolve derives from the operation, so that
	// resolving decodes nothing.
	re := resolve.NewEntry(id.Op, txid.String(), height, int(pos), int64(w.time))
	e := record.Entry{Txid: txid, Time: w.time, Request: re.Request, Expires: re.Expires}
	history := BucketHistory
	if id.Credential() {
		history = BucketCredHist
	}
	if err := bucket(w.tx, history).Put(record.HistoryKey(id.Key, height, pos), e.Bytes()); err != nil {
		return err
	}
	if id.Credential() {
		return w.applyCredential(id, txid, height, pos)
	}
	rec, err := w.didRecord(id.Key)
	if err != nil {
		return err
	}
	var was *record.DID // the state an update replaces, indexed until then
	operation := id.Op.Request.Header.Operation
	switch {
	case operation == idop.Create && rec == nil:
		seq, err := bucket(w.tx, BucketDIDs).NextSequence()
		if err != nil {
			return err
		}
		rec = &record.DID{Seq: seq}
	case operation == idop.Create || rec == nil:
		return fmt.Errorf("chain: %s of %s in %s contradicts the stored state: %w", operation, id.Key, txid, store.ErrCorrupt)
	case operation == idop.Deactivate || rec.Deactivated:
		if err := w.unindex(id.Key, rec); err != nil {
			return err
		}
	default:
		was = &record.DID{Seq: rec.Seq, Services: rec.Services, Credentials: rec.Credentials}
	}
	rec.LastTxid = txid
	if operation == idop.Deactivate {
		rec.Deactivated = true
		rec.Services, rec.Credentials = nil, nil
		return w.putDID(id.Key, rec)
	}
	rec.DocTxid, rec.DocHeight, rec.DocPos = txid, height, pos
	rec.Services, rec.Credentials = id.services, id.credentials
	w.ix.cache.KeepDocument(txid, id.Op.Document)
	postings := id.Postings
	if postings == nil {
		postings = viewIndex.EncodedPostings(id.view.Encoded)
	}
	return w.index(id.Key, was, rec, id.view, id.doc, postings)
}

// index stores the state of the DID with key key with its query view, its
// document in normalized form and its postings, postings being the view's
// (viewIndex.Postings). When was is not nil, the DID is indexed in the
// state was, which rec replaces: only what differs is changed, and the
// view and document are put over the old ones, so that an update that
// keeps its types and most of its fields writes no posting again.
func (w *Batch) index(key string, was, rec *record.DID, v *record.View, doc []byte, postings []find.Posting) error {
	seqKey := record.SeqKey(rec.Seq)
	views := bucket(w.tx, BucketViews)
	added, removed := postings, []find.Posting(nil)
	if was == nil {
		w.count(BucketViews, nil, true)
	} else {
		old, err := w.viewPostings(views, key, rec.Seq)
		if err != nil {
			return err
		}
		added, removed = postingsDiff(postings, old), postingsDiff(old, postings)
	}
	if err := views.Put(seqKey, v.Bytes()); err != nil {
		return err
	}
	if err := bucket(w.tx, BucketDocs).Put(seqKey, doc); err != nil {
		return err
	}
	if err := w.postFields(removed, rec.Seq, false); err != nil {
		return err
	}
	if err := w.postFields(added, rec.Seq, true); err != nil {
		return err
	}
	var oldServices, oldCredentials []string
	if was != nil {
		oldServices, oldCredentials = was.Services, was.Credentials
	}
	if err := w.repost(BucketServices, oldServices, rec.Services, rec.Seq, key); err != nil {
		return err
	}
	if err := w.repost(BucketCredTypes, oldCredentials, rec.Credentials, rec.Seq, key); err != nil {
		return err
	}
	return w.putDID(key, rec)
}

// viewPostings returns the postings of the stored view of the DID with key key
// and creation sequence seq.
func (s Reader) viewPostings(views store.Bucket, key string, seq uint64) ([]find.Posting, error) {
	v, ok := views.Get(record.SeqKey(seq))
	if !ok {
		return nil, fmt.Errorf("chain: DID %s (number %d) has no view: %w", key, seq, store.ErrCorrupt)
	}
	view, err := record.ParseView(v)
	if err != nil {
		return nil, err
	}
	return viewIndex.EncodedPostings(view.Encoded), nil
}

// postingsDiff returns the postings of a that b lacks. Both are a view's
// postings, each once (find.Index.Postings), a few dozen: a scan of b
// costs less than a set.
func postingsDiff(a, b []find.Posting) []find.Posting {
	var out []find.Posting
	for _, p := range a {
		if !slices.Contains(b, p) {
			out = append(out, p)
		}
	}
	return out
}

// unindex removes a DID's query view, document and postings.
func (w *Batch) unindex(key string, rec *record.DID) error {
	views := bucket(w.tx, BucketViews)
	postings, err := w.viewPostings(views, key, rec.Seq)
	if err != nil {
		return err
	}
	if err := w.postFields(postings, rec.Seq, false); err != nil {
		return err
	}
	seqKey := record.SeqKey(rec.Seq)
	if err := views.Delete(seqKey); err != nil {
		return err
	}
	if err := bucket(w.tx, BucketDocs).Delete(seqKey); err != nil {
		return err
	}
	w.count(BucketViews, nil, false)
	if err := w.repost(BucketServices, rec.Services, nil, rec.Seq, ""); err != nil {
		return err
	}
	return w.repost(BucketCredTypes, rec.Credentials, nil, rec.Seq, "")
}

// repost changes the postings of a DID (key, creation sequence seq) in
// bucket name from those under the types old to those under the types
// now, leaving those under types in both as they are (key is "" when now
// is empty).
func (w *Batch) repost(name string, old, now []string, seq uint64, key string) error {
	b := bucket(w.tx, name)
	for _, t := range old {
		if slices.Contains(now, t) {
			continue
		}
		if err := b.Delete(record.PostingKey(t, seq)); err != nil {
			return err
		}
		w.count(name, record.PostingPrefix(t), false)
	}
	for _, t := range now {
		if slices.Contains(old, t) {
			continue
		}
		if err := b.Put(record.PostingKey(t, seq), []byte(key)); err != nil {
			return err
		}
		w.count(name, record.PostingPrefix(t), true)
	}
	return nil
}

func (w *Batch) putDID(key string, rec *record.DID) error {
	return bucket(w.tx, BucketDIDs).Put(record.Key(key), rec.Bytes())
}

// applyCredential records a declare or revoke (already in the credential
// id's history): a declare lists the id under its owner; a revoke adds its
// signer to the id's revokers.
func (w *Batch) applyCredential(id *Operation, txid ela.Hash, height, pos uint32) error {
	rec, err := w.credentialRecord(id.Key)
	if err != nil {
		return err
	}
	if rec == nil {
		rec = &record.Credential{}
	}
	op := id.Op
	switch op.Request.Header.Operation {
	case idop.Declare:
		if !rec.DeclTxid.IsZero() {
			return fmt.Errorf("chain: a second declare of %s in %s: %w", id.Key, txid, store.ErrCorrupt)
		}
		rec.DeclTxid, rec.DeclHeight, rec.DeclPos = txid, height, pos
		owned := bucket(w.tx, BucketOwned)
		seq, err := owned.NextSequence()
		if err != nil {
			return err
		}
		if err := owned.Put(record.PostingKey(op.DID.Key(), seq), []byte(op.CredentialID.String())); err != nil {
			return err
		}
	case idop.Revoke:
		rec.Revokers = append(rec.Revokers, op.Method.DID.String())
	default:
		return fmt.Errorf("chain: no index for %s operations", op.Request.Header.Operation)
	}
	return bucket(w.tx, BucketCreds).Put([]byte(id.Key), rec.Bytes())
}
