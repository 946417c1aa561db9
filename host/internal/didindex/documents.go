package didindex

import (
	"fmt"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// didRecord returns the state of the DID with key key, or nil.
func (s Reader) didRecord(key string) (*record.DID, error) {
	v, ok := bucket(s.tx, BucketDIDs).Get(record.Key(key))
	if !ok {
		return nil, nil
	}
	rec, err := record.ParseDID(v)
	if err != nil {
		return nil, fmt.Errorf("chain: DID %s: %w", key, err)
	}
	return rec, nil
}

// entry returns the history entry of the DID with key key at a height and
// position.
func (s Reader) entry(key string, height, pos uint32) (*record.Entry, error) {
	v, ok := bucket(s.tx, BucketHistory).Get(record.HistoryKey(key, height, pos))
	if !ok {
		return nil, fmt.Errorf("chain: DID %s has no operation at %d/%d: %w", key, height, pos, store.ErrCorrupt)
	}
	e, err := record.ParseEntry(v)
	if err != nil {
		return nil, fmt.Errorf("chain: DID %s: %w", key, err)
	}
	return e, nil
}

// document returns the latest document of a DID with state rec, parsed
// once and then kept in the index's cache.
func (s Reader) document(key string, rec *record.DID) (*did.Document, error) {
	if doc, ok := s.ix.cache.Document(rec.DocTxid); ok {
		return doc, nil
	}
	e, err := s.entry(key, rec.DocHeight, rec.DocPos)
	if err != nil {
		return nil, err
	}
	op, err := s.ix.decode(e.Request)
	if err != nil || op.Document == nil {
		return nil, fmt.Errorf("chain: the document of %s in %s does not decode: %v: %w", key, e.Txid, err, store.ErrCorrupt)
	}
	s.ix.cache.KeepDocument(rec.DocTxid, op.Document)
	return op.Document, nil
}

// State returns what idop.Validate needs about the DID with key key: nil
// when it does not exist.
func (s Reader) State(key string) (*idop.State, error) {
	rec, err := s.didRecord(key)
	if err != nil || rec == nil {
		return nil, err
	}
	doc, err := s.document(key, rec)
	if err != nil {
		return nil, err
	}
	return &idop.State{Document: doc, Txid: rec.LastTxid.String(), Deactivated: rec.Deactivated}, nil
}

// Document implements did.Lookup: the latest document of d, nil when d
// does not exist or is deactivated.
func (s Reader) Document(d did.DID) (*did.Document, error) {
	key := d.Key()
	rec, err := s.didRecord(key)
	if err != nil || rec == nil || rec.Deactivated {
		return nil, err
	}
	return s.document(key, rec)
}

// EntryDocument returns the document a history entry publishes, parsed
// once and then kept in the index's cache, where a DID's latest document
// usually is already.
func (s Reader) EntryDocument(e *resolve.Entry) (*did.Document, error) {
	txid, err := ela.ParseHash(e.Txid)
	if err != nil {
		return nil, fmt.Errorf("chain: history entry %q: %w: %w", e.Txid, store.ErrCorrupt, err)
	}
	if doc, ok := s.ix.cache.Document(txid); ok {
		return doc, nil
	}
	op, err := s.ix.decode(e.Request)
	if err != nil || op.Document == nil {
		return nil, fmt.Errorf("chain: the document of %s does not decode: %v: %w", e.Txid, err, store.ErrCorrupt)
	}
	s.ix.cache.KeepDocument(txid, op.Document)
	return op.Document, nil
}
