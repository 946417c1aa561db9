package eid

import (
	"errors"
	"fmt"
	"slices"

	"github.com/didlight/didlight/core/did"
)

// Fetched verifies answers with what the caller fetched because NeedErrors
// asked for it, kept as the upstream answered: other DIDs' did_resolveDID
// answers (all=true) and eth_getTransactionByHash answers. It is the
// Env.Docs of a caller that keeps answers rather than verified documents
// (the WebAssembly module, which keeps nothing between calls): each DID's
// answer is verified with [VerifyDID], in the same Env, the first time its
// document is looked up, and what that verification needs in turn joins
// the [NeedError] of the answer being verified. So the caller fetches what
// an error names, adds it, and verifies again, until it is done.
type Fetched struct {
	env     Env
	answers map[string][]byte        // by did.DID.Key()
	docs    map[string]*did.Document // verified, by did.DID.Key()
	busy    map[string]bool          // being verified: a lookup of one is a cycle
	need    NeedError                // what verifying the answers needed in this call
}

// NewFetched returns a Fetched that verifies in env. env.Docs is not used:
// other DIDs' documents come from the answers added.
func NewFetched(env Env) *Fetched {
	f := &Fetched{env: env, answers: map[string][]byte{}, docs: map[string]*did.Document{}, busy: map[string]bool{}}
	f.env.Docs = f
	return f
}

// AddDID adds the did_resolveDID answer (all=true) fetched for d.
func (f *Fetched) AddDID(d did.DID, answer []byte) { f.answers[d.Key()] = answer }

// AddTransaction adds an eth_getTransactionByHash answer fetched because a
// [NeedError] named its transaction.
func (f *Fetched) AddTransaction(answer []byte) error {
	tx, err := ParseTransaction(answer)
	if err != nil {
		return err
	}
	f.env.Transactions = append(f.env.Transactions, tx)
	return nil
}

// VerifyDID is [VerifyDID] with the documents of other DIDs served from
// their answers. A *NeedError names only what is not added yet.
func (f *Fetched) VerifyDID(answer []byte, req Request) (*Resolved, error) {
	f.need = NeedError{}
	r, err := VerifyDID(answer, req, f.env)
	return r, f.needs(err)
}

// VerifyCredential is [VerifyCredential] with the documents of other DIDs
// served from their answers. A *NeedError names only what is not added
// yet.
func (f *Fetched) VerifyCredential(answer []byte, req CredentialRequest) (*ResolvedCredential, error) {
	f.need = NeedError{}
	r, err := VerifyCredential(answer, req, f.env)
	return r, f.needs(err)
}

// Document returns d's latest document from d's answer, verified; an error
// wrapping [ErrUnfetched] when d's answer, or something its verification
// needs, has not been added.
func (f *Fetched) Document(d did.DID) (*did.Document, error) {
	k := d.Key()
	if doc, ok := f.docs[k]; ok {
		return doc, nil
	}
	answer, ok := f.answers[k]
	switch {
	case !ok:
		return nil, fmt.Errorf("%s: %w", d, ErrUnfetched)
	case f.busy[k]:
		return nil, fmt.Errorf("eid: verifying %s needs its own document, through the documents it needs", d)
	}
	f.busy[k] = true
	r, err := VerifyDID(answer, Request{DID: d.String(), All: true}, f.env)
	delete(f.busy, k)
	var need *NeedError
	switch {
	case errors.As(err, &need):
		f.need.DIDs = appendDIDs(f.need.DIDs, need.DIDs...)
		f.need.Txids = appendNew(f.need.Txids, need.Txids...)
		return nil, fmt.Errorf("%s: %w", d, ErrUnfetched)
	case err != nil:
		return nil, fmt.Errorf("eid: the answer for %s: %w", d, err)
	}
	f.docs[k] = r.Document
	return r.Document, nil
}

// needs returns err, or for a *NeedError one naming what it names and what
// the added answers' verification needs, less the DIDs whose answers were
// added (what their verification needs is named instead).
func (f *Fetched) needs(err error) error {
	var need *NeedError
	if !errors.As(err, &need) {
		return err
	}
	out := &NeedError{Txids: appendNew(nil, append(need.Txids, f.need.Txids...)...)}
	for _, d := range append(need.DIDs, f.need.DIDs...) {
		if _, ok := f.answers[d.Key()]; !ok {
			out.DIDs = appendDIDs(out.DIDs, d)
		}
	}
	return out
}

// appendDIDs appends the DIDs not in ds yet.
func appendDIDs(ds []did.DID, more ...did.DID) []did.DID {
	for _, d := range more {
		if !slices.ContainsFunc(ds, func(e did.DID) bool { return e.Key() == d.Key() }) {
			ds = append(ds, d)
		}
	}
	return ds
}

// appendNew appends the strings not in s yet.
func appendNew(s []string, more ...string) []string {
	for _, m := range more {
		if !slices.Contains(s, m) {
			s = append(s, m)
		}
	}
	return s
}
