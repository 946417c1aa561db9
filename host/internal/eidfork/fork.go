// Package eidfork takes the DIDs of a fork of an EID chain from its upstream when first asked.
//
// A fork (didlight node --fork of an EID node) is a devnet whose DIDs are
// the EID chain's as they stood at the fork height. A Fork is asked to
// Ensure a DID before the devnet reads it or admits an operation on it: a
// DID the chain's index holds (taken before, or made here) is left as it
// is; any other is taken once from the upstream, verified as a light node
// verifies it (host/internal/light), cut to its operations at or below the
// fork height (core/fork), kept in the store, and grafted into the chain's
// DID index below its own blocks. Credentials are taken alike when read
// (EnsureCredential) or listed (EnsureCredentials). A DID the upstream
// does not know, or that did not exist at the fork height, is kept as
// absent and never asked again. What is kept is read again after a restart, or after a devnet
// reset or revert, without the upstream.
package eidfork

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/fork"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/jsonrpc"
	"github.com/didlight/didlight/core/resolve"
	eidclient "github.com/didlight/didlight/host/client/eid"
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/light"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// The buckets of a fork, beside the chain's.
const (
	bucketKept  = "eidfork"      // a DID's key → fork.Kept, as Encode writes it
	bucketMeta  = "eidforkmeta"  // keyHeight → U64(the fork height)
	bucketLists = "eidforklists" // a DID's key → the ids of the credentials the upstream listed for it, oldest first, as JSON
)

var keyHeight = []byte("height")

// Chain is the devnet a fork grafts DIDs onto (*chain.Chain).
type Chain interface {
	// ViewIndex runs fn in a read transaction, with the DID index.
	ViewIndex(fn func(tx store.Tx, r didindex.Reader) error) error
	// Graft runs fn in one store update with no block written meanwhile.
	Graft(ctx context.Context, fn func(tx store.Tx, ix *didindex.Index) error) error
}

// Config configures New.
type Config struct {
	Chain    Chain
	Client   *eidclient.Client // the upstream, with its request budget
	Resolver *light.Resolver   // verifies the upstream's answers; it asks through Client
	// Height is the fork height: the upstream block whose state the fork
	// begins from. A store forked before keeps its own, and refuses
	// another.
	Height uint64
	Logger *slog.Logger // DIDs taken, and those that could not be; nil discards
}

// Fork takes DIDs from the upstream when first asked. Its methods are safe
// for concurrent use.
type Fork struct {
	chain  Chain
	client *eidclient.Client
	res    *light.Resolver
	height uint64
	log    *slog.Logger
}

// New returns the fork of cfg.Chain, whose store it marks with the fork
// height; a store forked at another height is refused.
func New(ctx context.Context, cfg Config) (*Fork, error) {
	if cfg.Chain == nil || cfg.Client == nil || cfg.Resolver == nil {
		return nil, errors.New("eidfork: Config.Chain, Client and Resolver are required")
	}
	f := &Fork{chain: cfg.Chain, client: cfg.Client, res: cfg.Resolver, height: cfg.Height, log: cfg.Logger}
	if f.log == nil {
		f.log = slog.New(slog.DiscardHandler)
	}
	err := f.chain.Graft(ctx, func(tx store.Tx, _ *didindex.Index) error {
		meta := record.Bucket(tx, bucketMeta)
		v, ok := meta.Get(keyHeight)
		if !ok {
			return meta.Put(keyHeight, record.U64(cfg.Height))
		}
		h, err := record.ParseU64(v)
		if err != nil {
			return fmt.Errorf("the fork height: %w: %w", store.ErrCorrupt, err)
		}
		if h != cfg.Height {
			return fmt.Errorf("the store holds a fork at height %d, not %d", h, cfg.Height)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("eidfork: %w", err)
	}
	return f, nil
}

// Stored returns the fork height db was forked at, or ok false when it
// was never forked. It reads the store only, so that a fork restarts with
// its upstream down.
func Stored(db store.DB) (height uint64, ok bool, err error) {
	err = db.View(func(tx store.Tx) error {
		v, found := record.Bucket(tx, bucketMeta).Get(keyHeight)
		if !found {
			return nil
		}
		ok = true
		var perr error
		height, perr = record.ParseU64(v)
		return perr
	})
	return height, ok, err
}

// Height returns the fork height.
func (f *Fork) Height() uint64 { return f.height }

// Ensure makes each of ids local: a DID the chain's index holds is left as
// it is; one kept before is grafted again if the index lost it (a devnet
// reset or revert); any other is taken from the upstream. The error of a
// DID that could not be taken names it and says what the upstream did.
func (f *Fork) Ensure(ctx context.Context, ids ...did.DID) error {
	for _, d := range ids {
		if err := f.ensure(ctx, d); err != nil {
			return err
		}
	}
	return nil
}

func (f *Fork) ensure(ctx context.Context, d did.DID) error {
	return f.ensureSubject(ctx, d.String(), d.Key(), false, func(ctx context.Context) (*fork.Kept, error) { return f.take(ctx, d) })
}

// EnsureCredential makes the credential id local as Ensure makes a DID:
// its owner first, then, when the owner was taken from the upstream, its
// declare and revokes at or below the fork height (did_resolveCredential,
// verified), with the DIDs they name.
func (f *Fork) EnsureCredential(ctx context.Context, id did.URL) error {
	if err := f.Ensure(ctx, id.DID); err != nil {
		return err
	}
	var owned bool
	err := f.chain.ViewIndex(func(tx store.Tx, _ didindex.Reader) error {
		var err error
		owned, err = taken(tx, id.DID.Key())
		return err
	})
	switch {
	case err != nil:
		return fmt.Errorf("eidfork: %s: %w", id, err)
	case !owned:
		return nil // its owner was made here, or did not exist at the fork height: the upstream has no credential of it
	}
	return f.ensureSubject(ctx, id.String(), id.Key(), true, func(ctx context.Context) (*fork.Kept, error) { return f.takeCredential(ctx, id) })
}

// EnsureCredentials makes d local, then the credentials the upstream
// lists for it (did_listCredentials, checked, every page), oldest first,
// each as EnsureCredential does; those declared above the fork height are
// kept as absent. The list is kept too, so that it is asked once. The
// list of a DID the upstream did not have at the fork height (one made
// here) is not asked for.
func (f *Fork) EnsureCredentials(ctx context.Context, d did.DID) error {
	if err := f.Ensure(ctx, d); err != nil {
		return err
	}
	var ids []string
	var exists bool
	err := f.chain.ViewIndex(func(tx store.Tx, _ didindex.Reader) error {
		if v, ok := record.Bucket(tx, bucketLists).Get([]byte(d.Key())); ok {
			exists = true
			return json.Unmarshal(v, &ids)
		}
		var err error
		exists, err = taken(tx, d.Key())
		return err
	})
	switch {
	case err != nil:
		return fmt.Errorf("eidfork: the credentials of %s: %w", d, err)
	case !exists:
		return nil // made here, or absent at the fork height (EID refuses to list it): what is local is all there is
	}
	if ids == nil {
		if ids, err = f.list(ctx, d); err != nil {
			f.log.Warn("fork: could not be taken from the upstream", "subject", "the credentials of "+d.String(), "err", err)
			return &TakeError{Subject: "the credentials of " + d.String(), Err: err}
		}
	}
	for _, s := range ids {
		id, err := did.ParseURL(s, d)
		if err != nil {
			return fmt.Errorf("eidfork: the credentials of %s: %w", d, err)
		}
		if err := f.EnsureCredential(ctx, id); err != nil {
			return err
		}
	}
	b, err := json.Marshal(ids)
	if err != nil {
		return err
	}
	return f.chain.Graft(ctx, func(tx store.Tx, _ *didindex.Index) error {
		return record.Bucket(tx, bucketLists).Put([]byte(d.Key()), b)
	})
}

// list asks the upstream for the ids of d's credentials, every page of
// EID's (listPage), and returns them oldest first.
func (f *Fork) list(ctx context.Context, d did.DID) ([]string, error) {
	ids := []string{}
	for skip := 0; ; skip += listPage {
		limit := 0 // EID's default page: listPage
		if skip > 0 {
			limit = listPage
		}
		a, err := f.res.CredentialList(ctx, d, skip, limit)
		if err != nil {
			return nil, err
		}
		for _, id := range a.List.IDs {
			ids = append(ids, id.String())
		}
		if len(a.List.IDs) < listPage {
			break
		}
	}
	slices.Reverse(ids) // EID lists the newest first
	return ids, nil
}

// listPage is the page EID's did_listCredentials gives when no limit is
// asked (Elastos.ELA.SideChain.EID internal/ethapi/didapi.go,
// ListCredentials).
const listPage = 128

// ensureSubject makes the DID or credential with index key key local,
// taking it with take when neither the index nor the store has it.
func (f *Fork) ensureSubject(ctx context.Context, name, key string, credential bool, take func(context.Context) (*fork.Kept, error)) error {
	var kept *fork.Kept
	var local bool
	err := f.chain.ViewIndex(func(tx store.Tx, r didindex.Reader) error {
		var err error
		if local, err = held(r, key, credential); err != nil || local {
			return err
		}
		if v, ok := record.Bucket(tx, bucketKept).Get([]byte(key)); ok {
			kept, err = fork.Decode(v)
		}
		return err
	})
	switch {
	case err != nil:
		return fmt.Errorf("eidfork: %s: %w", name, err)
	case local || kept != nil && kept.Absent():
		return nil
	case kept == nil:
		if kept, err = take(ctx); err != nil {
			f.log.Warn("fork: could not be taken from the upstream", "subject", name, "err", err)
			return &TakeError{Subject: name, Err: err}
		}
		f.log.Info("fork: taken from the upstream", "subject", name, "operations", len(kept.Ops), "height", f.height)
	}
	if err := f.ensureNeeds(ctx, kept); err != nil {
		return err
	}
	if err := Graft(ctx, f.chain, kept); err != nil {
		return fmt.Errorf("eidfork: grafting %s: %w", name, err)
	}
	return nil
}

// ensureNeeds makes local the DIDs a kept credential's operations name
// (its owner, issuer and signers), which its reads look up.
func (f *Fork) ensureNeeds(ctx context.Context, k *fork.Kept) error {
	if _, credential, _ := fork.ParseSubject(k.DID); !credential {
		return nil
	}
	for _, o := range k.Ops {
		op, err := idop.Decode(o.Request)
		if err != nil {
			return fmt.Errorf("eidfork: %s: operation %s: %w", k.DID, o.Txid, err)
		}
		if err := f.Ensure(ctx, fork.Needs(op)...); err != nil {
			return err
		}
	}
	return nil
}

// taken reports whether the DID with key key was taken from the upstream
// and existed at the fork height.
func taken(tx store.Tx, key string) (bool, error) {
	v, ok := record.Bucket(tx, bucketKept).Get([]byte(key))
	if !ok {
		return false, nil
	}
	k, err := fork.Decode(v)
	return err == nil && !k.Absent(), err
}

// held reports whether the DID index holds the DID or credential key.
func held(r didindex.Reader, key string, credential bool) (bool, error) {
	if credential {
		st, err := r.CredentialState(key)
		return st != nil, err
	}
	st, err := r.State(key)
	return st != nil, err
}

// TakeError is the error of a DID the upstream could not give: it did
// not answer, answered an error, or gave an answer that did not verify.
type TakeError struct {
	Subject string // the DID, or the credential's id
	Err     error
}

func (e *TakeError) Error() string {
	return fmt.Sprintf("fork: %s could not be taken from the upstream: %v", e.Subject, e.Err)
}

func (e *TakeError) Unwrap() error { return e.Err }

// RPCError is how JSON-RPC answers it: a resolver error saying which DID
// and what the upstream did.
func (e *TakeError) RPCError() *jsonrpc.Error { return jsonrpc.ResolverError(e.Error()) }

// take asks the upstream for d's whole history, verified, and cuts it at
// the fork height.
func (f *Fork) take(ctx context.Context, d did.DID) (*fork.Kept, error) {
	a, err := f.res.DID(ctx, d, true)
	if err != nil {
		return nil, err
	}
	kept := &fork.Kept{DID: d.String(), Height: f.height}
	if v := a.Resolved.Verified; v.Status != resolve.NotFound {
		kept.Ops, err = f.cut(ctx, v.History)
	}
	return kept, err
}

// takeCredential asks the upstream for the credential id's transactions
// (did_resolveCredential: its declare and revokes), verified, and cuts
// them at the fork height.
func (f *Fork) takeCredential(ctx context.Context, id did.URL) (*fork.Kept, error) {
	a, err := f.res.Credential(ctx, id, nil)
	if err != nil {
		return nil, err
	}
	h, err := credentialHistory(a.Raw)
	if err != nil {
		return nil, err
	}
	kept := &fork.Kept{DID: id.String(), Height: f.height}
	kept.Ops, err = f.cut(ctx, h)
	return kept, err
}

// credentialHistory reads the transactions of a did_resolveCredential
// result, verified already, newest first, as history entries.
func credentialHistory(raw []byte) ([]resolve.Entry, error) {
	var r struct {
		Transaction []struct {
			Txid      string          `json:"txid"`
			Timestamp time.Time       `json:"timestamp"`
			Operation json.RawMessage `json:"operation"`
		} `json:"transaction"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("a credential's transactions: %w", err)
	}
	h := make([]resolve.Entry, 0, len(r.Transaction))
	for _, t := range r.Transaction {
		req, err := idop.ParseRequest(t.Operation)
		if err != nil {
			return nil, fmt.Errorf("transaction %s: %w", t.Txid, err)
		}
		h = append(h, resolve.Entry{Txid: t.Txid, Time: t.Timestamp.Unix(), Request: req})
	}
	return h, nil
}

// cut returns the operations of a history, newest first, that a fork at
// its height keeps, oldest first: the block of each, newest first, is
// asked (eth_getTransactionByHash) until one is at or below the height
// (fork.Cut).
func (f *Fork) cut(ctx context.Context, history []resolve.Entry) ([]fork.Op, error) {
	var blocks []uint64
	drop := len(history)
	for _, e := range history {
		tx, err := f.client.Transaction(ctx, e.Txid)
		if err != nil {
			return nil, fmt.Errorf("the block of transaction %s: %w", e.Txid, err)
		}
		if tx.Pending {
			return nil, fmt.Errorf("transaction %s is in no block", e.Txid)
		}
		blocks = append(blocks, tx.BlockNumber)
		n, known, err := fork.Cut(blocks, f.height)
		if err != nil {
			return nil, err
		}
		if known {
			drop = n
			break
		}
	}
	var ops []fork.Op
	for i := len(history) - 1; i >= drop; i-- {
		e := history[i]
		block := blocks[min(i, len(blocks)-1)] // only the newest kept one's block is asked; the older are at or below it
		ops = append(ops, fork.Op{Txid: e.Txid, Block: block, Time: e.Time, Request: e.Request})
	}
	return ops, nil
}

// Graft keeps each of kept in c's store and, unless it is absent or
// the DID index holds its DID already, applies its operations to the DID
// index at height 0, below every block of the chain's own, in their order,
// each at its block's time. One that does not apply (an operation that does
// not decode, an update of a DID without a create) fails Graft, and
// nothing is written.
func Graft(ctx context.Context, c Chain, kept ...*fork.Kept) error {
	return c.Graft(ctx, func(tx store.Tx, ix *didindex.Index) error {
		for _, k := range kept {
			if err := graft(tx, ix, k); err != nil {
				return fmt.Errorf("%s: %w", k.DID, err)
			}
		}
		return nil
	})
}

func graft(tx store.Tx, ix *didindex.Index, k *fork.Kept) error {
	key, credential, err := fork.ParseSubject(k.DID)
	if err != nil {
		return err
	}
	if err := record.Bucket(tx, bucketKept).Put([]byte(key), k.Encode()); err != nil {
		return err
	}
	if err := putTxids(tx, k); err != nil {
		return err
	}
	if local, err := held(ix.Read(tx), key, credential); err != nil || local {
		return err // taken, or made here, before
	}
	for i, o := range k.Ops {
		op, err := idop.Decode(o.Request)
		if err != nil {
			return fmt.Errorf("operation %s: %w", o.Txid, err)
		}
		id := didindex.NewOperation(op)
		if id.Key != key {
			return fmt.Errorf("operation %s is about %s", o.Txid, id.Key)
		}
		if err := id.Derive(); err != nil {
			return fmt.Errorf("operation %s: %w", o.Txid, err)
		}
		txid, err := parseTxid(o.Txid)
		if err != nil {
			return err
		}
		w := ix.Write(tx, uint32(o.Time))
		if err := w.Apply(id, txid, 0, uint32(i)); err != nil {
			return err
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
	return nil
}

// parseTxid reads a txid as EID's answers write it (64 hex digits, the
// hash's own order) into the hash the DID index stores, which
// ela.Hash.String writes reversed: so that it is answered as EID wrote it.
func parseTxid(s string) (ela.Hash, error) {
	var h ela.Hash
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != len(h) {
		return h, fmt.Errorf("txid %q: want 64 hex digits", s)
	}
	copy(h[:], b)
	slices.Reverse(h[:])
	return h, nil
}
