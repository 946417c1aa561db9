package didreads

import (
	"context"
	"slices"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/w3c"
	"github.com/didlight/didlight/host/internal/answers"
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/record"
)

// ResolveW3C answers a W3C DID resolution or DID URL dereferencing request
// (core/w3c: the DID or DID URL id, the resolution options and the Accept
// header, as w3c.ParseRequest reads them) from the whole history of the DID
// it names, at the tip's height and block time, in one read of the store,
// and keeps the answer for the tip it was built at (see answers), which
// answers the same request again while the source is at that tip. A request
// w3c could not parse is answered with its error, the store unread. The
// error is a failure of the store; the Response is then the INTERNAL_ERROR
// answer. ctx is not consulted, as for ResolveDID.
func (r *Reads) ResolveW3C(_ context.Context, id, options, accept string) (w3c.Response, error) {
	k := answers.W3CKey{ID: id, Options: options, Accept: accept}
	_, at, _ := r.src.Tip()
	if resp, ok := r.cache.W3C(at, k); ok {
		return resp, nil
	}
	req := w3c.ParseRequest(id, options, accept)
	d, ok := req.DID()
	if !ok {
		return w3c.Resolve(req, w3c.History{}, w3c.Tip{})
	}
	var resp w3c.Response
	tip, err := r.viewAtTip(func(dids didindex.Reader, built record.Tip) error {
		h, err := dids.History(d.Key())
		if err != nil {
			return err
		}
		docs := func(i int) (*did.Document, error) { return dids.EntryDocument(&h[i]) }
		resp, err = w3c.Resolve(req, w3c.History{Entries: h, Document: docs}, w3c.Tip{Height: built.Height, Time: int64(built.Time)})
		return err
	})
	if err != nil {
		if resp.Status == 0 {
			resp = req.InternalError()
		}
		return resp, err
	}
	resp.Body = slices.Clip(resp.Body)
	r.cache.KeepW3C(tip.Hash, k, resp)
	return resp, nil
}
