package chain

import (
	"fmt"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/find"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// identity is an identity operation on its way into a block: the decoded
// operation and what the indexes need from the document it publishes,
// derived once when it is admitted.
type identity struct {
	op *idop.Op
	// key is what the operation changes (idop.Op.Subject), and what the
	// mempool holds one pending operation for.
	key                   string
	view                  *record.View   // the published document's, as stored (storedView)
	doc                   []byte         // the published document in normalized form
	postings              []find.Posting // the view's postings (viewIndex), if found ahead (PrepareTx)
	services, credentials []string
}

func newIdentity(op *idop.Op) *identity {
	return &identity{op: op, key: op.Subject()}
}

// credential reports whether the operation is on a credential.
func (id *identity) credential() bool {
	return id.op.Request.Header.Specification == idop.SpecCredential
}

// derive fills in what the indexes need from the document the operation
// publishes, once it is known to be valid.
func (id *identity) derive() error {
	if doc := id.op.Document; doc != nil && id.view == nil {
		view, err := storedView(resolve.View(doc))
		if err != nil {
			return err
		}
		id.view, id.doc = view, doc.Normalized()
		id.services, id.credentials = doc.ServiceTypes(), doc.CredentialTypes()
	}
	return nil
}

// storedView returns the view record the store keeps for a query view
// (resolve.View): the view in encoded form.
func storedView(view []byte) (*record.View, error) {
	form, err := find.Encode(view)
	if err != nil {
		return nil, fmt.Errorf("chain: encoding a query view: %w", err)
	}
	return &record.View{Encoded: form}, nil
}

// applyIdentity records operation id of transaction txid at a height and
// position: appends it to the DID's history and updates the DID's state,
// its query view and its postings.
func (w *batch) applyIdentity(id *identity, txid ela.Hash, height, pos uint32) error {
	// The entry keeps what resolve derives from the operation, so that
	// resolving decodes nothing.
	re := resolve.NewEntry(id.op, txid.String(), height, int(pos), int64(w.time))
	e := record.Entry{Txid: txid, Time: w.time, Request: re.Request, Expires: re.Expires}
	history := bucketHistory
	if id.credential() {
		history = bucketCredHist
	}
	if err := bucket(w.tx, history).Put(record.HistoryKey(id.key, height, pos), e.Bytes()); err != nil {
		return err
	}
	if id.credential() {
		return w.applyCredential(id, txid, height, pos)
	}
	rec, err := w.didRecord(id.key)
	if err != nil {
		return err
	}
	operation := id.op.Request.Header.Operation
	switch {
	case operation == idop.Create && rec == nil:
		seq, err := bucket(w.tx, bucketDIDs).NextSequence()
		if err != nil {
			return err
		}
		rec = &record.DID{Seq: seq}
	case operation == idop.Create || rec == nil:
		return fmt.Errorf("chain: %s of %s in %s contradicts the stored state: %w", operation, id.key, txid, store.ErrCorrupt)
	default:
		if err := w.unindex(id.key, rec); err != nil {
			return err
		}
	}
	rec.LastTxid = txid
	if operation == idop.Deactivate {
		rec.Deactivated = true
		rec.Services, rec.Credentials = nil, nil
		return w.putDID(id.key, rec)
	}
	rec.DocTxid, rec.DocHeight, rec.DocPos = txid, height, pos
	rec.Services, rec.Credentials = id.services, id.credentials
	w.c.cache.KeepDocument(txid, id.op.Document)
	postings := id.postings
	if postings == nil {
		postings = viewIndex.EncodedPostings(id.view.Encoded)
	}
	return w.index(id.key, rec, id.view, id.doc, postings)
}

// index stores the state of the DID with key key with its query view, its
// document in normalized form and its postings, postings being the view's
// (viewIndex.Postings).
func (w *batch) index(key string, rec *record.DID, v *record.View, doc []byte, postings []find.Posting) error {
	seqKey := record.SeqKey(rec.Seq)
	if err := bucket(w.tx, bucketViews).Put(seqKey, v.Bytes()); err != nil {
		return err
	}
	if err := bucket(w.tx, bucketDocs).Put(seqKey, doc); err != nil {
		return err
	}
	w.count(bucketViews, nil, true)
	if err := w.postFields(postings, rec.Seq, true); err != nil {
		return err
	}
	if err := w.post(bucketServices, rec.Services, rec.Seq, key); err != nil {
		return err
	}
	if err := w.post(bucketCredTypes, rec.Credentials, rec.Seq, key); err != nil {
		return err
	}
	return w.putDID(key, rec)
}

// unindex removes a DID's query view, document and postings.
func (w *batch) unindex(key string, rec *record.DID) error {
	views := bucket(w.tx, bucketViews)
	seqKey := record.SeqKey(rec.Seq)
	v, ok := views.Get(seqKey)
	if !ok {
		return fmt.Errorf("chain: DID %s (number %d) has no view: %w", key, rec.Seq, store.ErrCorrupt)
	}
	view, err := record.ParseView(v)
	if err != nil {
		return err
	}
	if err := w.postFields(viewIndex.EncodedPostings(view.Encoded), rec.Seq, false); err != nil {
		return err
	}
	if err := views.Delete(seqKey); err != nil {
		return err
	}
	if err := bucket(w.tx, bucketDocs).Delete(seqKey); err != nil {
		return err
	}
	w.count(bucketViews, nil, false)
	if err := w.post(bucketServices, rec.Services, rec.Seq, ""); err != nil {
		return err
	}
	return w.post(bucketCredTypes, rec.Credentials, rec.Seq, "")
}

// post adds the postings of a DID (key, creation sequence seq) under each
// type, or with key "" deletes them.
func (w *batch) post(name string, types []string, seq uint64, key string) error {
	b := bucket(w.tx, name)
	for _, t := range types {
		k := record.PostingKey(t, seq)
		var err error
		if key == "" {
			err = b.Delete(k)
		} else {
			err = b.Put(k, []byte(key))
		}
		if err != nil {
			return err
		}
		w.count(name, record.PostingPrefix(t), key != "")
	}
	return nil
}

func (w *batch) putDID(key string, rec *record.DID) error {
	return bucket(w.tx, bucketDIDs).Put([]byte(key), rec.Bytes())
}
