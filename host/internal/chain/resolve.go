package chain

import (
	"context"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/answers"
	"github.com/didlight/didlight/host/internal/record"
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
			h, err = s.dids().History(key)
		} else {
			h, err = s.dids().Latest(key)
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
