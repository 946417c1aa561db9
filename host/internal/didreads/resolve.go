package didreads

import (
	"context"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/answers"
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/record"
)

// ResolveDID returns the resolvedid result object for d (see
// resolve.Result): its status at the tip's block time and its latest
// transaction, or with all its whole history, newest first. A DID that
// does not exist gives status 3, not an error. ctx is the caller's: the
// read never waits, so it is not consulted (the light resolver, which
// answers the same calls, asks an upstream with it).
func (r *Reads) ResolveDID(_ context.Context, d did.DID, all bool) ([]byte, error) {
	return r.resolveDID(resolve.DialectSpec, d, all)
}

// ResolveDIDSDK returns the result object the SDKs' did_resolveDID
// expects: as ResolveDID, in the identity chain's dialect
// (resolve.DialectEID), where an expired document is status 0 and the
// client judges expiry.
func (r *Reads) ResolveDIDSDK(_ context.Context, d did.DID, all bool) ([]byte, error) {
	return r.resolveDID(resolve.DialectEID, d, all)
}

// resolveDID answers from the answers kept for the tip, or builds
// the answer in a store read and keeps it for the tip it was built at.
func (r *Reads) resolveDID(dialect resolve.Dialect, d did.DID, all bool) ([]byte, error) {
	ak := answers.ResolveKey{DID: d.String(), Dialect: dialect, All: all}
	_, at, _ := r.src.Tip()
	if out, ok := r.cache.Resolved(at, ak); ok {
		return out, nil
	}
	key := d.Key() // before the store read: nothing but reading goes on in one
	var out []byte
	tip, err := r.viewAtTip(func(dids didindex.Reader, built record.Tip) error {
		var h []resolve.Entry
		var err error
		if all {
			h, err = dids.History(key)
		} else {
			h, err = dids.Latest(key)
		}
		if err != nil {
			return err
		}
		out, err = dialect.Result(d, h, all, int64(built.Time))
		return err
	})
	if err != nil {
		return nil, err
	}
	r.cache.KeepResolved(tip.Hash, ak, out)
	return out, nil
}
