package didindex

import (
	"context"
	"slices"
	"testing"

	"github.com/didlight/didlight/core/find"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// Exact plans, counted and paged from containers of postings over several
// chunks (arrays and bitsets), give the totals and pages, in creation
// order, that matching every view gives.
func TestFindPostingsMatchScan(t *testing.T) {
	db := mem.New()
	c := syntheticChain(t, db, 30_000, 5) // numbers up to 150,000: three chunks of ~10,000 DIDs
	conds := []string{
		`{"service.type":{"$in":["GitHub","Storage"]}}`,
		`{"$and":[{"$or":[{"credential.type":"KYCCredential"},{"service.type":"GitHub"}]},{"credential.subject.age":{"$exists":true}}]}`,
		`{"$or":[{"credential.issuer":"did:elastos:issuer0","service.type":"Hub"},{"credential.subject.country":"SG"}]}`,
		`{"credential.subject.country":"DE","credential.issuer":"did:elastos:nobody"}`,
	}
	for _, q := range syntheticQueries {
		conds = append(conds, q.cond)
	}
	for _, text := range conds {
		cond, err := find.Compile(text)
		if err != nil {
			t.Fatal(err)
		}
		var d decision
		all := pager{limit: 1 << 30}
		err = db.View(func(tx store.Tx) error {
			s := c.Read(tx)
			var err error
			if d, err = s.decide(cond); err != nil {
				return err
			}
			return s.scan(context.Background(), cond, &all)
		})
		if err != nil {
			t.Fatal(err)
		}
		if d.scan || !d.plan.Exact {
			t.Fatalf("%s: %s, want an exact index plan", text, d)
		}
		for _, skip := range []int{0, 1, all.total / 3, all.total - 5, all.total} {
			skip = max(skip, 0)
			p := findPage(t, c, db, cond, skip, 10)
			want := all.page[min(skip, all.total):min(skip+10, all.total)]
			if p.total != all.total || !slices.Equal(p.page, want) {
				t.Errorf("%s, skip %d: total %d, page %v; the scan: %d, %v", text, skip, p.total, p.page, all.total, want)
			}
		}
	}
}
