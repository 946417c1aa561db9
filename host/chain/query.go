package chain

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/find"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/chain/internal/record"
	"github.com/didlight/didlight/host/store"
)

// Query limits: a Query with Limit 0 returns up to DefaultQueryLimit
// documents, and never more than MaxQueryLimit.
const (
	DefaultQueryLimit = 20
	MaxQueryLimit     = 256
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
	Limit      int // documents to return: 0 means DefaultQueryLimit; above MaxQueryLimit means MaxQueryLimit
}

// Query returns the query result object (see resolve.QueryResult): how many
// documents match, and those of the page, in the order their DIDs were
// created. A condition is matched against each document's query view (see
// resolve.View); when it requires a service type, a credential type or an
// id, only the documents that index yields are matched. A query stops,
// with ctx's error, once ctx is done: its scan may read every DID.
func (c *Chain) Query(ctx context.Context, q Query) ([]byte, error) {
	if err := q.normalize(); err != nil {
		return nil, err
	}
	var out []byte
	err := c.view(func(s snapshot) error {
		var p pager
		p.skip, p.limit = q.Skip, q.Limit
		var err error
		switch {
		case q.Condition != nil:
			err = s.match(ctx, q.Condition, p.add)
		case q.Service != "":
			err = s.postings(ctx, bucketServices, q.Service, p.add)
		default:
			err = s.postings(ctx, bucketCredTypes, q.Credential, p.add)
		}
		if err != nil {
			return err
		}
		docs := make([]*did.Document, len(p.page))
		for i, key := range p.page {
			rec, err := s.didRecord(key)
			if err == nil && rec == nil {
				err = fmt.Errorf("chain: an index names DID %s, which has no state: %w", key, record.ErrCorrupt)
			}
			if err != nil {
				return err
			}
			if docs[i], err = s.document(key, rec); err != nil {
				return err
			}
		}
		out = resolve.QueryResult(p.total, q.Skip, docs)
		return nil
	})
	return out, err
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
	case q.Skip < 0:
		return fmt.Errorf("%w: skip %d is negative", ErrQuery, q.Skip)
	case q.Limit < 0:
		return fmt.Errorf("%w: limit %d is negative", ErrQuery, q.Limit)
	case q.Limit == 0:
		q.Limit = DefaultQueryLimit
	}
	q.Limit = min(q.Limit, MaxQueryLimit)
	return nil
}

// pager counts matching DIDs and keeps the keys of the page.
type pager struct {
	skip, limit, total int
	page               []string
}

func (p *pager) add(key string) {
	if p.total >= p.skip && len(p.page) < p.limit {
		p.page = append(p.page, key)
	}
	p.total++
}

// postings calls visit with the DIDs posted under typ, in creation order,
// until ctx is done.
func (s snapshot) postings(ctx context.Context, name, typ string, visit func(key string)) error {
	prefix := record.PostingPrefix(typ)
	for k, v := range bucket(s.tx, name).Scan(store.Range{Prefix: prefix}) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if _, err := record.ParsePostingKey(prefix, k); err != nil {
			return err
		}
		visit(string(v))
	}
	return nil
}

// match calls visit with the DIDs whose view satisfies cond, in creation
// order, until ctx is done.
func (s snapshot) match(ctx context.Context, cond *find.Condition, visit func(key string)) error {
	views := bucket(s.tx, bucketViews)
	test := func(v []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		view, err := record.ParseView(v)
		if err != nil {
			return err
		}
		if cond.Match(view.JSON) {
			visit(view.DIDKey)
		}
		return nil
	}
	seqs, indexed, err := s.candidates(cond)
	if err != nil {
		return err
	}
	if !indexed {
		for _, v := range views.Scan(store.Range{}) {
			if err := test(v); err != nil {
				return err
			}
		}
		return nil
	}
	for _, seq := range seqs {
		v, ok := views.Get(record.SeqKey(seq))
		if !ok {
			return fmt.Errorf("chain: an index names DID number %d, which has no view: %w", seq, record.ErrCorrupt)
		}
		if err := test(v); err != nil {
			return err
		}
	}
	return nil
}

// candidates returns, sorted, the creation numbers of the DIDs an index
// finds for the most selective equality cond requires on a service type, a
// credential type or the id: every DID that can match is among them. It
// reports false when cond requires none of these.
func (s snapshot) candidates(cond *find.Condition) ([]uint64, bool, error) {
	var best []uint64
	indexed := false
	for _, eq := range cond.Equalities() {
		var seqs []uint64
		var err error
		switch eq.Path {
		case "service.type":
			seqs, err = s.postedSeqs(bucketServices, eq.Values)
		case "credential.type":
			seqs, err = s.postedSeqs(bucketCredTypes, eq.Values)
		case "id":
			seqs, err = s.idSeqs(eq.Values)
		default:
			continue
		}
		if err != nil {
			return nil, false, err
		}
		if !indexed || len(seqs) < len(best) {
			best, indexed = seqs, true
		}
	}
	slices.Sort(best)
	return slices.Compact(best), indexed, nil
}

// postedSeqs returns the creation numbers posted under any of the string
// values (the types are strings: other values match nothing).
func (s snapshot) postedSeqs(name string, values []any) ([]uint64, error) {
	var out []uint64
	for _, v := range values {
		typ, ok := v.(string)
		if !ok {
			continue
		}
		prefix := record.PostingPrefix(typ)
		for k := range bucket(s.tx, name).Scan(store.Range{Prefix: prefix}) {
			seq, err := record.ParsePostingKey(prefix, k)
			if err != nil {
				return nil, err
			}
			out = append(out, seq)
		}
	}
	return out, nil
}

// idSeqs returns the creation numbers of the DIDs, not deactivated, that
// the string values name.
func (s snapshot) idSeqs(values []any) ([]uint64, error) {
	var out []uint64
	for _, v := range values {
		text, ok := v.(string)
		if !ok {
			continue
		}
		d, err := did.Parse(text)
		if err != nil {
			continue
		}
		rec, err := s.didRecord(d.Key())
		if err != nil {
			return nil, err
		}
		if rec != nil && !rec.Deactivated {
			out = append(out, rec.Seq)
		}
	}
	return out, nil
}
