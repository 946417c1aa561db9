package chain

import (
	"context"
	"errors"
	"fmt"

	"github.com/didlight/didlight/core/find"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/chain/internal/record"
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
	if err := q.normalize(); err != nil {
		return nil, err
	}
	qk := q.key()
	_, at, _ := c.Tip()
	if out, ok := keptAnswer(&c.cache, &c.cache.pages, at, qk); ok {
		return out, nil
	}
	var out []byte
	var tip record.Tip
	err := c.view(func(s snapshot) error {
		var err error
		if tip, err = readTip(s.tx); err != nil {
			return err
		}
		var p pager
		p.skip, p.limit = q.Skip, q.Limit
		switch {
		case q.Condition != nil:
			err = s.find(ctx, q.Condition, &p)
		case q.Service != "":
			err = s.postings(ctx, bucketServices, q.Service, &p)
		default:
			err = s.postings(ctx, bucketCredTypes, q.Credential, &p)
		}
		if err != nil {
			return err
		}
		docs := make([][]byte, len(p.page))
		for i, d := range p.page {
			if docs[i] = d.doc; docs[i] == nil {
				if docs[i], err = s.pageDocument(d.key); err != nil {
					return err
				}
			}
		}
		out = resolve.QueryResult(p.total, q.Skip, docs) // copies the documents, read in place
		return nil
	})
	if err != nil {
		return nil, err
	}
	keepAnswer(&c.cache, &c.cache.pages, tip.Hash, qk, out)
	return out, nil
}

func (q *Query) normalize() error {
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

// key names the normalized query q among the kept pages.
func (q *Query) key() queryKey {
	k := queryKey{service: q.Service, credential: q.Credential, skip: q.Skip, limit: q.Limit}
	if q.Condition != nil {
		k.condition = q.Condition.String()
	}
	return k
}

// pager counts matching DIDs and keeps those of the page.
type pager struct {
	skip, limit, total int
	page               []paged
}

// paged is a DID on a query page: its key, and its document in normalized
// form if the view it is kept in has been read (record.View.Doc, shared
// with the store until the read ends).
type paged struct {
	key string
	doc []byte
}

// add counts a DID that matches, with its view's document if read (or nil).
func (p *pager) add(key string, doc []byte) {
	if p.inPage() {
		p.page = append(p.page, paged{key, doc})
	}
	p.total++
}

// pageDocument returns the normalized document of the DID with key key,
// kept in its view, in place.
func (s snapshot) pageDocument(key string) ([]byte, error) {
	rec, err := s.didRecord(key)
	if err == nil && rec == nil {
		err = fmt.Errorf("chain: an index names DID %s, which has no state: %w", key, store.ErrCorrupt)
	}
	if err != nil {
		return nil, err
	}
	view, err := viewAt(bucket(s.tx, bucketViews), rec.Seq)
	if err != nil {
		return nil, err
	}
	return view.Doc, nil
}

// inPage reports whether the next DID counted is on the page.
func (p *pager) inPage() bool { return p.total >= p.skip && len(p.page) < p.limit }

// postings pages the DIDs posted under typ in bucket name, in creation
// order: the total from the count, and only the postings up to the page's
// end read, until ctx is done.
func (s snapshot) postings(ctx context.Context, name, typ string, p *pager) error {
	prefix := record.PostingPrefix(typ)
	total, err := s.postingCount(name, prefix)
	if err != nil {
		return err
	}
	for k, v := range bucket(s.tx, name).Scan(store.Range{Prefix: prefix}) {
		if p.total >= p.skip+p.limit {
			break
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if _, err := record.ParsePostingKey(prefix, k); err != nil {
			return err
		}
		p.add(string(v), nil)
	}
	p.total = total
	return nil
}
