package eid

import (
	"errors"
	"fmt"
	"strings"

	"github.com/didlight/didlight/core/did"
)

// ErrUnfetched is what Env.Docs wraps for a DID whose answer the caller
// has not fetched yet: verification then fails with a *NeedError naming
// it, rather than calling the answer wrong.
var ErrUnfetched = errors.New("eid: not fetched yet")

// NeedError is the error of a verification that cannot finish without
// more from the upstream. The caller fetches what it names and verifies
// again with it; a later attempt may need more (the documents a fetched
// document's own checks need). Nothing in the answer was found wrong.
type NeedError struct {
	// DIDs are other DIDs whose documents verification looks up: resolve
	// each (did_resolveDID with all=true), verify it with [VerifyDID], and
	// let Env.Docs serve its latest document.
	DIDs []did.DID
	// Txids are transactions whose block and sender decide whether EID
	// checked them (its migration window): fetch each with
	// eth_getTransactionByHash, read it with [ParseTransaction] and pass it
	// in Env.Transactions.
	Txids []string
}

func (e *NeedError) Error() string {
	var parts []string
	if len(e.DIDs) > 0 {
		names := make([]string, len(e.DIDs))
		for i, d := range e.DIDs {
			names[i] = d.String()
		}
		parts = append(parts, "the documents of "+strings.Join(names, ", "))
	}
	if len(e.Txids) > 0 {
		parts = append(parts, "the blocks and senders of transactions "+strings.Join(e.Txids, ", "))
	}
	return fmt.Sprintf("eid: verification needs %s", strings.Join(parts, " and "))
}

// recorder is the Lookup verification uses: the caller's, noting the DIDs
// it has not fetched.
type recorder struct {
	docs    did.Lookup
	asked   int
	missing []did.DID
}

func (r *recorder) Document(d did.DID) (*did.Document, error) {
	r.asked++
	if r.docs == nil {
		r.miss(d)
		return nil, fmt.Errorf("%s: %w", d, ErrUnfetched)
	}
	doc, err := r.docs.Document(d)
	if errors.Is(err, ErrUnfetched) {
		r.miss(d)
	}
	return doc, err
}

func (r *recorder) miss(d did.DID) {
	for _, m := range r.missing {
		if m.Key() == d.Key() {
			return
		}
	}
	r.missing = append(r.missing, d)
}

// need returns the error of a verification that ended with err and noted
// txids without their provenance: a *NeedError when what is missing is what
// stopped it (or nothing did), else err.
func (r *recorder) need(err error, txids []string) error {
	switch {
	case err != nil && !errors.Is(err, ErrUnfetched):
		return err
	case err != nil || len(txids) > 0:
		return &NeedError{DIDs: r.missing, Txids: txids}
	}
	return nil
}
