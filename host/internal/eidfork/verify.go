package eidfork

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/eid"
	"github.com/didlight/didlight/core/fork"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/store"
)

// Answerer is a chain that answers the DID SDKs' reads in EID's form
// (*chain.Chain).
type Answerer interface {
	Chain
	ResolveDIDSDK(ctx context.Context, d did.DID, all bool) ([]byte, error)
	ResolveCredential(ctx context.Context, id did.URL, issuer *did.DID) ([]byte, error)
}

// Verify checks each of kept, once grafted into c, as a light node checks
// an EID node's answers (eid.VerifyDID, eid.VerifyCredential): c's
// did_resolveDID answer for each DID, with all its operations, and its
// did_resolveCredential answer for each credential, every operation
// replayed in order with its signatures, with the documents of other DIDs
// as c holds them, at now. A file does not say which EID network its DIDs
// come from: an operation EID did not check in full is let pass as
// mainnet's blocks let it (eid.Mainnet: its migration window, in which EID
// took operations from the migration sender alone, and early expiry),
// judged by its kept block; its signature is checked always. The first
// that fails is a *VerifyError.
func Verify(ctx context.Context, c Answerer, now time.Time, kept ...*fork.Kept) error {
	for _, k := range kept {
		if err := ctx.Err(); err != nil {
			return err
		}
		if k.Absent() {
			continue
		}
		if err := verify(ctx, c, now, k); err != nil {
			return &VerifyError{Subject: k.DID, Err: err}
		}
	}
	return nil
}

// VerifyError is the error of a kept DID or credential that does not
// verify.
type VerifyError struct {
	Subject string // the DID, or the credential's id
	Err     error
}

func (e *VerifyError) Error() string { return fmt.Sprintf("%s does not verify: %v", e.Subject, e.Err) }

func (e *VerifyError) Unwrap() error { return e.Err }

// verify checks k, giving the verification the provenance its kept blocks
// tell when it asks for it.
func verify(ctx context.Context, c Answerer, now time.Time, k *fork.Kept) error {
	check, err := checker(ctx, c, k)
	if err != nil {
		return err
	}
	env := eid.Env{Network: eid.Mainnet, Docs: indexDocs{c}, Verifier: keys.Native{}, Now: now}
	for round := 0; ; round++ {
		err := check(env)
		need, ok := errors.AsType[*eid.NeedError](err)
		switch {
		case !ok:
			return err
		case len(need.DIDs) > 0:
			return fmt.Errorf("%w, which the file does not hold", need)
		case round > 0:
			return err
		}
		for _, txid := range need.Txids {
			tx, err := provenance(k, txid)
			if err != nil {
				return err
			}
			env.Transactions = append(env.Transactions, tx)
		}
	}
}

// checker returns the verification of c's answer for k.
func checker(ctx context.Context, c Answerer, k *fork.Kept) (func(eid.Env) error, error) {
	_, credential, err := fork.ParseSubject(k.DID)
	if err != nil {
		return nil, err
	}
	if credential {
		id, err := did.ParseCredentialID(k.DID)
		if err != nil {
			return nil, err
		}
		answer, err := c.ResolveCredential(ctx, id, nil)
		if err != nil {
			return nil, err
		}
		return func(env eid.Env) error {
			_, err := eid.VerifyCredential(answer, eid.CredentialRequest{ID: k.DID}, env)
			return err
		}, nil
	}
	d, err := did.Parse(k.DID)
	if err != nil {
		return nil, err
	}
	answer, err := c.ResolveDIDSDK(ctx, d, true)
	if err != nil {
		return nil, err
	}
	return func(env eid.Env) error {
		_, err := eid.VerifyDID(answer, eid.Request{DID: k.DID, All: true}, env)
		return err
	}, nil
}

// provenance is what k tells of the transaction txid: its block (a bound,
// at or above it, for a fork's older operations) and operation. Its sender
// is not kept: in mainnet's migration window EID took operations from the
// migration sender alone, so a block in the window names it.
func provenance(k *fork.Kept, txid string) (*eid.Transaction, error) {
	for _, o := range k.Ops {
		if o.Txid != txid {
			continue
		}
		tx := &eid.Transaction{Txid: txid, Block: o.Block, Request: o.Request}
		if o.Block <= eid.Mainnet.MigrationEnd {
			tx.From = eid.Mainnet.MigrationSender
		}
		return tx, nil
	}
	return nil, fmt.Errorf("verification asks about transaction %s, which it does not keep", txid)
}

// indexDocs looks other DIDs' documents up in a chain's DID index: each
// DID's latest document, also when it is deactivated (eid.Env.Docs).
type indexDocs struct{ c Chain }

func (ds indexDocs) Document(x did.DID) (doc *did.Document, err error) {
	err = ds.c.ViewIndex(func(_ store.Tx, r didindex.Reader) error {
		h, err := r.History(x.Key())
		if err != nil {
			return err
		}
		for i := range h { // newest first
			switch h[i].Request.Header.Operation {
			case idop.Create, idop.Update, idop.Transfer:
				doc, err = r.EntryDocument(&h[i])
				return err
			}
		}
		return nil
	})
	if err == nil && doc == nil {
		err = fmt.Errorf("%s: %w", x, eid.ErrUnfetched)
	}
	return doc, err
}
