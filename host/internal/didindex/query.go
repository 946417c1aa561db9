package didindex

import (
	"context"
	"errors"
	"fmt"

	"github.com/didlight/didlight/core/find"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// ErrQuery is wrapped by the error of a Query whose parameters are not
// valid.
var ErrQuery = errors.New("chain: invalid query")

// Query asks for the latest documents of the DIDs that are not
// deactivated (expired ones included) that have a service of a type, or a
// credential of a type, or that satisfy a find condition: exactly one of
// the three. Skip and Limit page the result.
type Query struct {
	Service    string
	Credential string
	Condition  *find.Condition
	Skip       int // documents to skip, 0 or more
	Limit      int // documents to return: 0 means resolve.DefaultQueryLimit; above resolve.MaxQueryLimit means that
}

// Normalize checks q and settles its page (resolve.QueryPage): an error
// wraps ErrQuery.
func (q *Query) Normalize() error {
	given := 0
	for _, set := range []bool{q.Service != "", q.Credential != "", q.Condition != nil} {
		if set {
			given++
		}
	}
	switch {
	case given != 1:
		return fmt.Errorf("%w: give exactly one of service, credential and condition, not %d", ErrQuery, given)
	}
	var err error
	if q.Skip, q.Limit, err = resolve.QueryPage(q.Skip, q.Limit); err != nil {
		return fmt.Errorf("%w: %v", ErrQuery, err)
	}
	return nil
}

// pager counts matching DIDs and keeps the creation numbers of those of
// the page.
type pager struct {
	skip, limit, total int
	page               []uint64
}

// add counts a DID that matches, with creation number seq.
func (p *pager) add(seq uint64) {
	if p.inPage() {
		p.page = append(p.page, seq)
	}
	p.total++
}

// documentAt returns the normalized document of the DID with creation
// number seq, which an index names, in place.
func (s Reader) documentAt(seq uint64) ([]byte, error) {
	doc, ok := bucket(s.tx, BucketDocs).Get(record.SeqKey(seq))
	if !ok {
		return nil, fmt.Errorf("chain: an index names DID number %d, which has no document: %w", seq, store.ErrCorrupt)
	}
	return doc, nil
}

// inPage reports whether the next DID counted is on the page.
func (p *pager) inPage() bool { return p.total >= p.skip && len(p.page) < p.limit }

// postings pages the DIDs posted under typ in bucket name, in creation
// order: the total from the count, and only the postings up to the page's
// end read, until ctx is done.
func (s Reader) postings(ctx context.Context, name, typ string, p *pager) error {
	prefix := record.PostingPrefix(typ)
	total, err := s.postingCount(name, prefix)
	if err != nil {
		return err
	}
	for k := range bucket(s.tx, name).ScanShared(store.Range{Prefix: prefix}) {
		if p.total >= p.skip+p.limit {
			break
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		seq, err := record.ParsePostingKey(prefix, k)
		if err != nil {
			return err
		}
		p.add(seq)
	}
	p.total = total
	return nil
}

// Page returns the query result object of q, normalized (see
// resolve.QueryResult): how many documents match, and those of the page,
// in the order their DIDs were created. A condition is matched against
// each document's query view (see resolve.View), through the plan
// find.Condition.Plan makes over the indexes (see Explain): only the
// documents the indexes find are read, and none when the plan is exact.
// It stops, with ctx's error, once ctx is done: a scan may read every DID.
func (s Reader) Page(ctx context.Context, q Query) ([]byte, error) {
	var p pager
	p.skip, p.limit = q.Skip, q.Limit
	var err error
	switch {
	case q.Condition != nil:
		err = s.find(ctx, q.Condition, &p)
	case q.Service != "":
		err = s.postings(ctx, BucketServices, q.Service, &p)
	default:
		err = s.postings(ctx, BucketCredTypes, q.Credential, &p)
	}
	if err != nil {
		return nil, err
	}
	docs := make([][]byte, len(p.page))
	for i, seq := range p.page {
		if docs[i], err = s.documentAt(seq); err != nil {
			return nil, err
		}
	}
	return resolve.QueryResult(p.total, q.Skip, docs), nil // copies the documents, read in place
}
