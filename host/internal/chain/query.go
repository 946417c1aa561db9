package chain

import (
	"context"

	"github.com/didlight/didlight/core/find"
	"github.com/didlight/didlight/host/internal/answers"
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/record"
)

// ErrQuery is wrapped by the error of a Query whose parameters are not
// valid.
var ErrQuery = didindex.ErrQuery

// Query asks for the latest documents of DIDs (see didindex.Query).
type Query = didindex.Query

// Query returns the query result object (see resolve.QueryResult): how many
// documents match, and those of the page, in the order their DIDs were
// created. A condition is matched against each document's query view (see
// resolve.View), through the plan find.Condition.Plan makes over the
// chain's indexes (see Explain): only the documents the indexes find are
// read, and none when the plan is exact. A query stops, with ctx's error,
// once ctx is done: a scan may read every DID. A page is kept for the tip
// it was built at (see answers) and answered from there while the chain
// is at that tip.
func (c *Chain) Query(ctx context.Context, q Query) ([]byte, error) {
	if err := q.Normalize(); err != nil {
		return nil, err
	}
	qk := pageKey(&q)
	_, at, _ := c.Tip()
	if out, ok := c.cache.Page(at, qk); ok {
		return out, nil
	}
	var out []byte
	var tip record.Tip
	err := c.view(func(s snapshot) error {
		var err error
		if tip, err = readTip(s.tx); err != nil {
			return err
		}
		out, err = s.dids().Page(ctx, q)
		return err
	})
	if err != nil {
		return nil, err
	}
	c.cache.KeepPage(tip.Hash, qk, out)
	return out, nil
}

// pageKey names the normalized query q among the kept pages.
func pageKey(q *Query) answers.PageKey {
	k := answers.PageKey{Service: q.Service, Credential: q.Credential, Skip: q.Skip, Limit: q.Limit}
	if q.Condition != nil {
		k.Condition = q.Condition.String()
	}
	return k
}

// Explain says how Query answers a condition (see didindex.Reader.Explain).
func (c *Chain) Explain(cond *find.Condition) (string, error) {
	var out string
	err := c.view(func(s snapshot) error {
		var err error
		out, err = s.dids().Explain(cond)
		return err
	})
	return out, err
}
