package chain

import (
	"context"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/answers"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// ResolveDID returns the resolvedid result object for d (see
// resolve.Result): its status at the tip's block time and its latest
// transaction, or with all its whole history, newest first. A DID that
// does not exist gives status 3, not an error. ctx is the caller's: the
// read never waits, so it is not consulted (the light resolver, which
// answers the same calls, asks an upstream with it).
func (c *Chain) ResolveDID(_ context.Context, d did.DID, all bool) ([]byte, error) {
	return c.resolveDID(resolve.DialectSpec, d, all)
}

// ResolveDIDSDK returns the result object the SDKs' did_resolveDID
// expects: as ResolveDID, in the identity chain's dialect
// (resolve.DialectEID), where an expired document is status 0 and the
// client judges expiry.
func (c *Chain) ResolveDIDSDK(_ context.Context, d did.DID, all bool) ([]byte, error) {
	return c.resolveDID(resolve.DialectEID, d, all)
}

// resolveDID answers from the answers kept for the chain's tip, or builds
// the answer in a store read and keeps it for the tip it was built at.
func (c *Chain) resolveDID(dialect resolve.Dialect, d did.DID, all bool) ([]byte, error) {
	ak := answers.ResolveKey{DID: d.String(), Dialect: dialect, All: all}
	_, at, _ := c.Tip()
	if out, ok := c.cache.Resolved(at, ak); ok {
		return out, nil
	}
	key := d.Key() // before the store read: nothing but reading goes on in one
	var out []byte
	var tip record.Tip
	err := c.view(func(s snapshot) error {
		var err error
		if tip, err = readTip(s.tx); err != nil {
			return err
		}
		var h []resolve.Entry
		if all {
			h, err = s.history(key)
		} else {
			h, err = s.latest(key)
		}
		if err != nil {
			return err
		}
		out, err = dialect.Result(d, h, all, int64(tip.Time))
		return err
	})
	if err != nil {
		return nil, err
	}
	c.cache.KeepResolved(tip.Hash, ak, out)
	return out, nil
}

// latest returns the part of a DID's history a result without all shows:
// its newest operation and, when that is a deactivate, the operation before
// it, which published the document it deactivated (nothing follows a
// deactivate, and it follows a document). Reading them costs the same
// whatever the length of the history.
func (s snapshot) latest(key string) ([]resolve.Entry, error) {
	return s.entries(bucketHistory, key, func(h []resolve.Entry) bool {
		return len(h) == 2 || h[0].Request.Header.Operation != idop.Deactivate
	})
}

// history returns the operations of the DID with key key, newest first.
func (s snapshot) history(key string) ([]resolve.Entry, error) {
	return s.entries(bucketHistory, key, nil)
}

// entries returns the history entries of key in a history bucket, newest
// first, until enough (nil for all) says that those read are enough. The
// entries are read in place: ParseEntry keeps nothing of the store's slice
// (its strings are one copy of it), so a history of several kilobytes an
// operation is copied once, not twice.
func (s snapshot) entries(name, key string, enough func([]resolve.Entry) bool) ([]resolve.Entry, error) {
	prefix := record.HistoryPrefix(key)
	h := make([]resolve.Entry, 0, 2)
	for k, v := range bucket(s.tx, name).ScanShared(store.Range{Prefix: prefix, Reverse: true}) {
		height, pos, err := record.ParseHistoryKey(prefix, k)
		if err != nil {
			return nil, err
		}
		e, err := record.ParseEntry(v)
		if err != nil {
			return nil, err
		}
		if h = append(h, resolveEntry(e, height, pos)); enough != nil && enough(h) {
			break
		}
	}
	return h, nil
}

func resolveEntry(e *record.Entry, height, pos uint32) resolve.Entry {
	return resolve.Entry{Txid: e.Txid.String(), Height: height, Position: int(pos), Time: int64(e.Time), Request: e.Request, Expires: e.Expires}
}
