package didindex

import (
	"fmt"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// CredentialHistory returns the operations on the credential id with key
// key.
func (s Reader) CredentialHistory(key string) ([]resolve.Entry, error) {
	return s.entries(BucketCredHist, key, nil)
}

// credentialRecord returns the state of the credential id with key key, or
// nil.
func (s Reader) credentialRecord(key string) (*record.Credential, error) {
	v, ok := bucket(s.tx, BucketCreds).Get(record.Key(key))
	if !ok {
		return nil, nil
	}
	rec, err := record.ParseCredential(v)
	if err != nil {
		return nil, fmt.Errorf("chain: credential %s: %w", key, err)
	}
	return rec, nil
}

// CredentialState returns what idop.ValidateCredential needs about the
// credential id with key key: nil for an id never seen.
func (s Reader) CredentialState(key string) (*idop.CredentialState, error) {
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
	v, ok := bucket(s.tx, BucketCredHist).Get(record.HistoryKey(key, rec.DeclHeight, rec.DeclPos))
	if !ok {
		return nil, fmt.Errorf("chain: credential %s has no declare at %d/%d: %w", key, rec.DeclHeight, rec.DeclPos, store.ErrCorrupt)
	}
	e, err := record.ParseEntry(v)
	if err != nil {
		return nil, err
	}
	op, err := s.ix.decode(e.Request)
	if err != nil || op.Credential == nil {
		return nil, fmt.Errorf("chain: the declare of %s in %s does not decode: %v: %w", key, e.Txid, err, store.ErrCorrupt)
	}
	st.Declared, st.Txid = op.Credential, rec.DeclTxid.String()
	return st, nil
}

// CredentialList returns the listcredentials result object for d (see
// resolve.CredentialList): the ids of the credentials declared about d,
// newest first, revoked ones included, paged by skip and limit as
// resolve.CredentialPage says (limit 0 means its default). A negative skip
// or limit is an error wrapping ErrQuery.
func (s Reader) CredentialList(d did.DID, skip, limit int) ([]byte, error) {
	prefix := record.PostingPrefix(d.Key())
	var all []string
	for k, v := range bucket(s.tx, BucketOwned).Scan(store.Range{Prefix: prefix, Reverse: true}) {
		if _, err := record.ParsePostingKey(prefix, k); err != nil {
			return nil, err
		}
		all = append(all, string(v))
	}
	start, end, err := resolve.CredentialPage(len(all), skip, limit)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrQuery, err)
	}
	ids := make([]did.URL, 0, end-start)
	for _, text := range all[start:end] {
		id, err := did.ParseURL(text, did.DID{})
		if err != nil {
			return nil, fmt.Errorf("chain: a stored credential id %q: %w: %v", text, store.ErrCorrupt, err)
		}
		ids = append(ids, id)
	}
	return resolve.CredentialList(d, ids), nil
}
