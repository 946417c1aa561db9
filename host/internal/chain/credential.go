package chain

import (
	"context"
	"fmt"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// ResolveCredential returns the resolvecredential result object for the
// credential id (see resolve.CredentialResult): declared (0), revoked (2)
// or not found (3). While the id is not declared, issuer (nil for none)
// says whose revokes count. An unknown id is a result, not an error. ctx
// is not consulted, as for ResolveDID.
func (c *Chain) ResolveCredential(_ context.Context, id did.URL, issuer *did.DID) ([]byte, error) {
	key := id.Key() // before the store read: nothing but reading goes on in one
	var out []byte
	err := c.view(func(s snapshot) error {
		h, err := s.credentialHistory(key)
		if err != nil {
			return err
		}
		var by did.DID
		if issuer != nil {
			by = *issuer
		}
		out, err = resolve.CredentialResult(id, h, by, s)
		return err
	})
	return out, err
}

// ListCredentials returns the listcredentials result object for d (see
// resolve.CredentialList): the ids of the credentials declared about d,
// newest first, revoked ones included, paged by skip and limit as
// resolve.CredentialPage says (limit 0 means its default). A negative skip
// or limit is an error wrapping ErrQuery. ctx is not consulted, as for
// ResolveDID.
func (c *Chain) ListCredentials(_ context.Context, d did.DID, skip, limit int) ([]byte, error) {
	prefix := record.PostingPrefix(d.Key()) // before the store read: nothing but reading goes on in one
	var out []byte
	err := c.view(func(s snapshot) error {
		var all []string
		for k, v := range bucket(s.tx, bucketOwned).Scan(store.Range{Prefix: prefix, Reverse: true}) {
			if _, err := record.ParsePostingKey(prefix, k); err != nil {
				return err
			}
			all = append(all, string(v))
		}
		start, end, err := resolve.CredentialPage(len(all), skip, limit)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrQuery, err)
		}
		ids := make([]did.URL, 0, end-start)
		for _, text := range all[start:end] {
			id, err := did.ParseURL(text, did.DID{})
			if err != nil {
				return fmt.Errorf("chain: a stored credential id %q: %w: %v", text, store.ErrCorrupt, err)
			}
			ids = append(ids, id)
		}
		out = resolve.CredentialList(d, ids)
		return nil
	})
	return out, err
}

// credentialHistory returns the operations on the credential id with key
// key.
func (s snapshot) credentialHistory(key string) ([]resolve.Entry, error) {
	return s.entries(bucketCredHist, key, nil)
}

// credentialRecord returns the state of the credential id with key key, or
// nil.
func (s snapshot) credentialRecord(key string) (*record.Credential, error) {
	v, ok := bucket(s.tx, bucketCreds).Get([]byte(key))
	if !ok {
		return nil, nil
	}
	rec, err := record.ParseCredential(v)
	if err != nil {
		return nil, fmt.Errorf("chain: credential %s: %w", key, err)
	}
	return rec, nil
}

// credentialState returns what idop.ValidateCredential needs about the
// credential id with key key: nil for an id never seen.
func (s snapshot) credentialState(key string) (*idop.CredentialState, error) {
	rec, err := s.credentialRecord(key)
	if err != nil || rec == nil {
		return nil, err
	}
	st := &idop.CredentialState{}
	for _, text := range rec.Revokers {
		d, err := did.Parse(text)
		if err != nil {
			return nil, fmt.Errorf("chain: credential %s: revoker %q: %w: %v", key, text, store.ErrCorrupt, err)
		}
		st.Revokers = append(st.Revokers, d)
	}
	if rec.DeclTxid.IsZero() {
		return st, nil
	}
	v, ok := bucket(s.tx, bucketCredHist).Get(record.HistoryKey(key, rec.DeclHeight, rec.DeclPos))
	if !ok {
		return nil, fmt.Errorf("chain: credential %s has no declare at %d/%d: %w", key, rec.DeclHeight, rec.DeclPos, store.ErrCorrupt)
	}
	e, err := record.ParseEntry(v)
	if err != nil {
		return nil, err
	}
	op, err := s.c.engine.DecodeOperation(e.Request)
	if err != nil || op.Credential == nil {
		return nil, fmt.Errorf("chain: the declare of %s in %s does not decode: %v: %w", key, e.Txid, err, store.ErrCorrupt)
	}
	st.Declared, st.Txid = op.Credential, rec.DeclTxid.String()
	return st, nil
}

// applyCredential records a declare or revoke (already in the credential
// id's history): a declare lists the id under its owner; a revoke adds its
// signer to the id's revokers.
func (w *batch) applyCredential(id *identity, txid ela.Hash, height, pos uint32) error {
	rec, err := w.credentialRecord(id.key)
	if err != nil {
		return err
	}
	if rec == nil {
		rec = &record.Credential{}
	}
	op := id.op
	switch op.Request.Header.Operation {
	case idop.Declare:
		if !rec.DeclTxid.IsZero() {
			return fmt.Errorf("chain: a second declare of %s in %s: %w", id.key, txid, store.ErrCorrupt)
		}
		rec.DeclTxid, rec.DeclHeight, rec.DeclPos = txid, height, pos
		owned := bucket(w.tx, bucketOwned)
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
	return bucket(w.tx, bucketCreds).Put([]byte(id.key), rec.Bytes())
}
