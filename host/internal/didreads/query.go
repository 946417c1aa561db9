package didreads

import (
	"context"

	"github.com/didlight/didlight/core/find"
	"github.com/didlight/didlight/host/internal/answers"
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/record"
)

// Query returns the query result object (see resolve.QueryResult): how many
// documents match, and those of the page, in the order their DIDs were
// created. A condition is matched against each document's query view (see
// resolve.View), through the plan find.Condition.Plan makes over the
// index (see Explain): only the documents the indexes find are
// read, and none when the plan is exact. A query stops, with ctx's error,
// once ctx is done: a scan may read every DID. A page is kept for the tip
// it was built at (see answers) and answered from there while the source
// is at that tip.
func (r *Reads) Query(ctx context.Context, q didindex.Query) ([]byte, error) {
	if err := q.Normalize(); err != nil {
		return nil, err
	}
	qk := pageKey(&q)
	_, at, _ := r.src.Tip()
	if out, ok := r.cache.Page(at, qk); ok {
		return out, nil
	}
	var out []byte
	tip, err := r.viewAtTip(func(dids didindex.Reader, _ record.Tip) error {
		var err error
		out, err = dids.Page(ctx, q)
		return err
	})
	if err != nil {
		return nil, err
	}
	r.cache.KeepPage(tip.Hash, qk, out)
	return out, nil
}

// pageKey names the normalized query q among the kept pages.
func pageKey(q *didindex.Query) answers.PageKey {
	k := answers.PageKey{Service: q.Service, Credential: q.Credential, Skip: q.Skip, Limit: q.Limit}
	if q.Condition != nil {
		k.Condition = q.Condition.String()
	}
	return k
}

// Explain says how Query answers a condition (see didindex.Reader.Explain).
func (r *Reads) Explain(cond *find.Condition) (string, error) {
	var out string
	err := r.view(func(dids didindex.Reader) error {
		var err error
		out, err = dids.Explain(cond)
		return err
	})
	return out, err
}
