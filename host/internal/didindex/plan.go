package didindex

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/didlight/didlight/core/find"
	"github.com/didlight/didlight/host/internal/bitmap"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// scanShare is the share of the DIDs above which an inexact plan's
// estimate sends a query to the scan: reading a candidate's view by its
// key and matching it costs about 2.5 times what matching it in a scan of
// every view in order does (make scalebench, docs/scale.md).
const scanShare = 0.3

// LogPlan is the debug message each Query with a condition logs, with the
// attributes plan, estimate, dids and how (index, scan).
const LogPlan = "query plan"

// Explain says how Page answers a condition: the plan over the indexes
// (find.Plan), the estimate of the DIDs it finds, and whether the indexes
// or a scan of every DID answer it.
func (s Reader) Explain(cond *find.Condition) (string, error) {
	d, err := s.decide(cond)
	return d.String(), err
}

// decision is how a query with a condition is answered.
type decision struct {
	plan     *find.Plan
	estimate int  // DIDs the plan finds at most
	dids     int  // DIDs not deactivated
	scan     bool // read every view rather than look up
}

func (d decision) String() string {
	how := "index"
	if d.scan {
		how = "scan"
	}
	return fmt.Sprintf("%s: %s, estimate %d of %d DIDs", how, d.plan, d.estimate, d.dids)
}

// decide plans cond and chooses between its lookups and a scan.
func (s Reader) decide(cond *find.Condition) (decision, error) {
	d := decision{plan: cond.Plan(viewIndex)}
	var err error
	if d.dids, err = s.postingCount(BucketViews, nil); err != nil {
		return d, err
	}
	if d.plan.Op == find.PlanScan {
		d.estimate, d.scan = d.dids, true
		return d, nil
	}
	if d.estimate, err = s.estimate(d.plan); err != nil {
		return d, err
	}
	d.estimate = min(d.estimate, d.dids)
	d.scan = !d.plan.Exact && float64(d.estimate) > scanShare*float64(d.dids)
	return d, nil
}

// estimate returns at most how many DIDs plan p finds, from the counts.
func (s Reader) estimate(p *find.Plan) (int, error) {
	switch p.Op {
	case find.PlanLookup:
		n := 0
		for _, prefix := range lookupPrefixes(p) {
			m, err := s.postingCount(BucketFields, prefix)
			if err != nil {
				return 0, err
			}
			n += m
		}
		return n, nil
	case find.PlanAnd, find.PlanOr:
		n := -1
		for _, k := range p.Kids {
			m, err := s.estimate(k)
			switch {
			case err != nil:
				return 0, err
			case p.Op == find.PlanOr:
				n = max(n, 0) + m
			case n < 0 || m < n:
				n = m
			}
		}
		return n, nil
	}
	return 0, fmt.Errorf("chain: no estimate for plan %s", p)
}

// lookupPrefixes returns the prefixes of the postings a lookup reads.
func lookupPrefixes(p *find.Plan) [][]byte {
	values := p.Values
	if values == nil {
		values = []any{nil}
	}
	var out [][]byte
	for _, v := range values {
		if prefix, ok := record.FieldPrefix(p.Path, v); ok {
			out = append(out, prefix)
		}
	}
	return out
}

// find pages the DIDs whose view satisfies cond, in creation order: an
// exact plan is counted and paged from the postings alone, an inexact one
// has its candidates' views matched, and a scan matches every view. It
// stops once ctx is done.
func (s Reader) find(ctx context.Context, cond *find.Condition, p *pager) error {
	start := time.Now()
	d, err := s.decide(cond)
	if err != nil {
		return err
	}
	defer func() {
		s.ix.log.Debug(LogPlan, "plan", d.plan.String(), "estimate", d.estimate, "dids", d.dids, "scan", d.scan,
			"total", p.total, "took", time.Since(start))
	}()
	if d.scan {
		return s.scan(ctx, cond, p)
	}
	if d.plan.Exact && d.plan.Op == find.PlanLookup && len(d.plan.Values) <= 1 {
		return s.pageLookup(ctx, lookupPrefixes(d.plan)[0], p)
	}
	seqs, err := s.lookup(ctx, d.plan, nil)
	if err != nil {
		return err
	}
	if d.plan.Exact {
		s.page(seqs, p)
		return nil
	}
	views := bucket(s.tx, BucketViews)
	for seq := range seqs.All() {
		if err := ctx.Err(); err != nil {
			return err
		}
		view, err := viewAt(views, seq)
		if err != nil {
			return err
		}
		if cond.MatchEncoded(view.Encoded) {
			p.add(seq)
		}
	}
	return nil
}

// page pages the DIDs of seqs, all of which match: the total is their
// count, and no view is read.
func (s Reader) page(seqs *bitmap.Bitmap, p *pager) {
	p.page = append(p.page, seqs.Page(p.skip, p.limit)...)
	p.total = seqs.Len()
}

// pageLookup pages the DIDs posted under one prefix of the fields: the
// total from its count, and only the containers up to the page's end
// read, until ctx is done.
func (s Reader) pageLookup(ctx context.Context, prefix []byte, p *pager) error {
	total, err := s.postingCount(BucketFields, prefix)
	if err != nil {
		return err
	}
	seqs := &bitmap.Bitmap{}
	for k, v := range bucket(s.tx, BucketFields).ScanShared(store.Range{Prefix: prefix}) {
		if seqs.Len() >= p.skip+p.limit {
			break
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		chunk, err := record.ParsePostingKey(prefix, k)
		if err != nil {
			return err
		}
		c, err := decodeContainer(k, v)
		if err != nil {
			return err
		}
		seqs.Append(chunk, c)
	}
	s.page(seqs, p)
	p.total = total
	return nil
}

// scan matches every view with cond, in place in the store.
func (s Reader) scan(ctx context.Context, cond *find.Condition, p *pager) error {
	for k, v := range bucket(s.tx, BucketViews).ScanShared(store.Range{}) {
		if err := ctx.Err(); err != nil {
			return err
		}
		view, err := record.ParseView(v)
		if err != nil {
			return err
		}
		if cond.MatchEncoded(view.Encoded) {
			seq, err := record.ParseSeqKey(k)
			if err != nil {
				return err
			}
			p.add(seq)
		}
	}
	return nil
}

// lookup returns the creation numbers of the DIDs plan p finds, as a
// bitmap of the postings' containers; within, if not nil, limits it to
// the chunks within holds numbers in (the others are not read), for an
// intersection with within.
func (s Reader) lookup(ctx context.Context, p *find.Plan, within *bitmap.Bitmap) (*bitmap.Bitmap, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	switch p.Op {
	case find.PlanLookup:
		out := &bitmap.Bitmap{}
		for _, prefix := range lookupPrefixes(p) {
			b, err := s.postedUnder(prefix, within)
			if err != nil {
				return nil, err
			}
			out = out.Or(b)
		}
		return out, nil
	case find.PlanAnd:
		return s.lookupAnd(ctx, p.Kids, within)
	case find.PlanOr:
		out := &bitmap.Bitmap{}
		for _, k := range p.Kids {
			b, err := s.lookup(ctx, k, within)
			if err != nil {
				return nil, err
			}
			out = out.Or(b)
		}
		return out, nil
	}
	return nil, fmt.Errorf("chain: no lookup for plan %s", p)
}

// lookupAnd returns the creation numbers of the DIDs every plan of kids
// finds: it looks up the one with the least estimate first, and each
// other only in the chunks the intersection so far holds numbers in.
func (s Reader) lookupAnd(ctx context.Context, kids []*find.Plan, within *bitmap.Bitmap) (*bitmap.Bitmap, error) {
	estimates := make([]int, len(kids))
	for i, k := range kids {
		var err error
		if estimates[i], err = s.estimate(k); err != nil {
			return nil, err
		}
	}
	order := make([]int, len(kids))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return estimates[a] - estimates[b] })
	out := within
	for n, i := range order {
		b, err := s.lookup(ctx, kids[i], out)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			out = b
		} else {
			out = out.And(b)
		}
	}
	return out, nil
}

// postedUnder reads the containers of the postings under prefix of the
// fields: every one, or only those of within's chunks.
func (s Reader) postedUnder(prefix []byte, within *bitmap.Bitmap) (*bitmap.Bitmap, error) {
	fields := bucket(s.tx, BucketFields)
	out := &bitmap.Bitmap{}
	if within != nil {
		for _, chunk := range within.Chunks() {
			c, err := readContainer(fields, record.FieldKey(prefix, chunk))
			if err != nil {
				return nil, err
			}
			out.Append(chunk, c)
		}
		return out, nil
	}
	for k, v := range fields.ScanShared(store.Range{Prefix: prefix}) {
		chunk, err := record.ParsePostingKey(prefix, k)
		if err != nil {
			return nil, err
		}
		c, err := decodeContainer(k, v)
		if err != nil {
			return nil, err
		}
		out.Append(chunk, c)
	}
	return out, nil
}

// viewAt reads the view of the DID with creation number seq, which an
// index names.
func viewAt(views store.Bucket, seq uint64) (record.View, error) {
	v, ok := views.Get(record.SeqKey(seq))
	if !ok {
		return record.View{}, fmt.Errorf("chain: an index names DID number %d, which has no view: %w", seq, store.ErrCorrupt)
	}
	return record.ParseView(v)
}
