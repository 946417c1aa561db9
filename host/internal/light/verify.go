package light

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/eid"
	"github.com/didlight/didlight/core/resolve"
)

// Bounds on what one verification may fetch: rounds of NeedErrors, and
// DIDs whose documents a document's verification needs in turn (a
// customized DID's controllers, theirs, …).
const (
	maxRounds = 8
	maxDepth  = 8
)

// DID returns the upstream's answer for d (its whole history with all),
// verified: the one kept for the head, or asked and verified now.
func (r *Resolver) DID(ctx context.Context, d did.DID, all bool) (*DIDAnswer, error) {
	v, err := r.answer(ctx, key{kind: kindDID, subject: d.String(), all: all}, func(ctx context.Context, h *Head) (any, error) {
		return r.fetchDID(ctx, d, all, h, nil)
	})
	if err != nil {
		return nil, err
	}
	return v.(*DIDAnswer), nil
}

// Credential returns the upstream's did_resolveCredential answer for id
// (issuer nil for none), verified.
func (r *Resolver) Credential(ctx context.Context, id did.URL, issuer *did.DID) (*CredentialAnswer, error) {
	req := eid.CredentialRequest{ID: id.String()}
	if issuer != nil {
		req.Issuer = issuer.String()
	}
	k := key{kind: kindCredential, subject: req.ID, issuer: req.Issuer}
	v, err := r.answer(ctx, k, func(ctx context.Context, h *Head) (any, error) {
		r.counts.asked.Add(1)
		raw, err := r.client.ResolveCredential(ctx, id, issuer)
		if err != nil {
			return nil, r.failed("did_resolveCredential", req.ID, err)
		}
		return r.verified(k, h, raw, func(old any) (sized, error) {
			a := *old.(*CredentialAnswer)
			a.Head = *h
			return &a, nil
		}, func() (sized, error) {
			var res *eid.ResolvedCredential
			err := r.settle(ctx, h, nil, func(env eid.Env) (err error) {
				res, err = eid.VerifyCredential(raw, req, env)
				return err
			})
			if err != nil {
				return nil, r.refusal("did_resolveCredential", req.ID, err)
			}
			return &CredentialAnswer{Raw: raw, Resolved: res, Head: *h}, nil
		})
	})
	if err != nil {
		return nil, err
	}
	return v.(*CredentialAnswer), nil
}

// CredentialList returns the upstream's did_listCredentials answer for d,
// checked ([eid.VerifyCredentialList]).
func (r *Resolver) CredentialList(ctx context.Context, d did.DID, skip, limit int) (*ListAnswer, error) {
	k := key{kind: kindList, subject: d.String(), skip: skip, limit: limit}
	v, err := r.answer(ctx, k, func(ctx context.Context, h *Head) (any, error) {
		r.counts.asked.Add(1)
		raw, err := r.client.ListCredentials(ctx, d, skip, limit)
		if err != nil {
			return nil, r.failed("did_listCredentials", d.String(), err)
		}
		return r.verified(k, h, raw, func(old any) (sized, error) {
			a := *old.(*ListAnswer)
			a.Head = *h
			return &a, nil
		}, func() (sized, error) {
			l, err := eid.VerifyCredentialList(raw, eid.ListRequest{DID: d.String(), Skip: skip, Limit: limit})
			if err != nil {
				return nil, r.refused("did_listCredentials", d.String(), err)
			}
			return &ListAnswer{Raw: raw, Result: resolve.CredentialList(d, l.IDs), List: l, Head: *h}, nil
		})
	})
	if err != nil {
		return nil, err
	}
	return v.(*ListAnswer), nil
}

// answer returns the answer to k: the one kept for the upstream's head, or
// fetch's at that head, made once for all who ask meanwhile.
func (r *Resolver) answer(ctx context.Context, k key, fetch func(context.Context, *Head) (any, error)) (any, error) {
	h, err := r.head(ctx)
	if err != nil {
		return nil, err
	}
	if e, fresh := r.cache.get(k, h.Number); fresh {
		r.counts.kept.Add(1)
		return e.val, nil
	}
	return r.flights.do(ctx, k, func(ctx context.Context) (any, error) { return fetch(ctx, h) })
}

// sized is an answer that says what it takes in memory.
type sized interface{ size() int64 }

// verified returns, and keeps for h, the answer to k that the upstream's
// raw bytes make: the one kept for an earlier head brought to h by reuse
// when raw is byte for byte what was verified then, else verify's. Nothing
// verify refuses is kept.
func (r *Resolver) verified(k key, h *Head, raw []byte, reuse func(old any) (sized, error), verify func() (sized, error)) (any, error) {
	var a sized
	var err error
	if e, _ := r.cache.get(k, h.Number); e != nil && bytes.Equal(e.raw, raw) {
		a, err = reuse(e.val)
		r.counts.reused.Add(1)
	} else if a, err = verify(); err == nil {
		r.counts.verified.Add(1)
	}
	if err != nil {
		return nil, err
	}
	r.cache.put(&entry{key: k, head: h.Number, raw: raw, val: a, size: a.size()})
	return a, nil
}

// fetchDID asks the upstream for d's answer and verifies it at h. path
// lists the DIDs whose verification needs d's document, to stop a cycle.
func (r *Resolver) fetchDID(ctx context.Context, d did.DID, all bool, h *Head, path []string) (*DIDAnswer, error) {
	r.counts.asked.Add(1)
	raw, err := r.client.ResolveDID(ctx, d, all)
	if err != nil {
		return nil, r.failed("did_resolveDID", d.String(), err)
	}
	k := key{kind: kindDID, subject: d.String(), all: all}
	v, err := r.verified(k, h, raw, func(old any) (sized, error) {
		return old.(*DIDAnswer).at(d, h)
	}, func() (sized, error) {
		var res *eid.Resolved
		err := r.settle(ctx, h, append(slices.Clip(path), d.Key()), func(env eid.Env) (err error) {
			res, err = eid.VerifyDID(raw, eid.Request{DID: d.String(), All: all}, env)
			return err
		})
		if err != nil {
			return nil, r.refusal("did_resolveDID", d.String(), err)
		}
		a, err := newDIDAnswer(d, raw, res, h)
		if err != nil {
			return nil, r.refused("did_resolveDID", d.String(), err)
		}
		return a, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*DIDAnswer), nil
}

// refusal returns the error of a verification that failed with err: an
// upstream that did not answer what it needed stays that failure (counted
// already); anything else refuses the answer.
func (r *Resolver) refusal(method, subject string, err error) error {
	if _, ok := errors.AsType[*UpstreamError](err); ok {
		return err
	}
	return r.refused(method, subject, err)
}

// settle runs verify until it stops asking for more: each *eid.NeedError's
// DIDs are resolved and verified in turn (their latest documents then
// served through Env.Docs) and its transactions fetched (Env.Transactions).
// path lists the DIDs being verified, which no document lookup may need.
func (r *Resolver) settle(ctx context.Context, h *Head, path []string, verify func(eid.Env) error) error {
	docs := documents{}
	env := eid.Env{Network: h.Network, Docs: docs, Verifier: r.verifier, Now: h.Time}
	for round := 0; ; round++ {
		err := verify(env)
		need, ok := errors.AsType[*eid.NeedError](err)
		switch {
		case !ok:
			return err
		case round == maxRounds:
			return fmt.Errorf("%w, still, after %d rounds of fetching", need, round)
		}
		for _, x := range need.DIDs {
			if _, ok := docs[x.Key()]; ok {
				return fmt.Errorf("verification needs the document of %s again, though it was given", x)
			}
			doc, err := r.document(ctx, x, h, path)
			if err != nil {
				return err
			}
			docs[x.Key()] = doc
		}
		for _, txid := range need.Txids {
			tx, err := r.transaction(ctx, txid)
			if err != nil {
				return err
			}
			env.Transactions = append(env.Transactions, tx)
		}
	}
}

// document returns x's latest document, from its whole history verified
// at h: kept, or fetched now. path lists the DIDs whose verification
// needs it.
func (r *Resolver) document(ctx context.Context, x did.DID, h *Head, path []string) (*did.Document, error) {
	switch {
	case slices.Contains(path, x.Key()):
		return nil, fmt.Errorf("verifying %s needs its own document (through %s)", x, strings.Join(path, " → "))
	case len(path) > maxDepth:
		return nil, fmt.Errorf("the document of %s is needed through %d DIDs (%s), more than %d", x, len(path), strings.Join(path, " → "), maxDepth)
	}
	if e, fresh := r.cache.get(key{kind: kindDID, subject: x.String(), all: true}, h.Number); fresh {
		return e.val.(*DIDAnswer).Resolved.Document, nil
	}
	a, err := r.fetchDID(ctx, x, true, h, path)
	if err != nil {
		return nil, fmt.Errorf("the document of %s: %w", x, err)
	}
	return a.Resolved.Document, nil
}

// transaction fetches the transaction txid for its provenance
// (eth_getTransactionByHash) and reads the operation it carries.
func (r *Resolver) transaction(ctx context.Context, txid string) (*eid.Transaction, error) {
	r.counts.asked.Add(1)
	tx, err := r.client.Transaction(ctx, txid)
	if err != nil {
		return nil, r.failed("eth_getTransactionByHash", txid, err)
	}
	t, err := eid.ParseTransaction(tx.Raw)
	if err != nil {
		return nil, fmt.Errorf("transaction %s: %w", txid, err)
	}
	return t, nil
}

// documents are the documents of other DIDs one verification looked up,
// each verified: its eid.Env.Docs.
type documents map[string]*did.Document

// Document returns x's document, or an error wrapping [eid.ErrUnfetched]
// when it has not been fetched yet.
func (ds documents) Document(x did.DID) (*did.Document, error) {
	if doc, ok := ds[x.Key()]; ok {
		return doc, nil
	}
	return nil, fmt.Errorf("%s: %w", x, eid.ErrUnfetched)
}
