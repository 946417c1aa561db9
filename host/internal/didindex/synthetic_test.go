package didindex

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/didlight/didlight/core/find"
	"github.com/didlight/didlight/host/internal/answers"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// syntheticChain writes into db the query views of n synthetic DIDs, the
// i-th numbered 1+i*spread, with their postings and counts, as blocks do
// (a batch per 1000 views, flushed once): a store holding what queries
// with a condition read, without the blocks, in the sizes docs/scale.md
// measured at 100k DIDs (see synthView). It returns a Chain enough for
// snapshot's queries.
func syntheticChain(tb testing.TB, db store.DB, n, spread int) *Index {
	tb.Helper()
	ix := New(nil, &answers.Cache{}, slog.New(slog.DiscardHandler))
	r := rand.New(rand.NewPCG(15, 16))
	const perBatch = 1000
	for first := 0; first < n; first += perBatch {
		err := db.Update(func(tx store.Tx) error {
			w := ix.Write(tx, 0)
			views, docs := bucket(tx, BucketViews), bucket(tx, BucketDocs)
			for i := first; i < min(first+perBatch, n); i++ {
				seq := uint64(1 + i*spread)
				json := synthView(r, seq)
				// A synthetic DID's document is its view: pages only copy it.
				v := mustStoredView(tb, json)
				if err := views.Put(record.SeqKey(seq), v.Bytes()); err != nil {
					return err
				}
				if err := docs.Put(record.SeqKey(seq), json); err != nil {
					return err
				}
				if err := w.postFields(viewIndex.Postings(json), seq, true); err != nil {
					return err
				}
				w.count(BucketViews, nil, true)
			}
			return w.Flush()
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
	return ix
}

// synthView returns a query view drawn from r with the shares of
// docs/scale.md's chain at 100k DIDs, so that posting lists scale with
// the DIDs: 70% have a service, 5% of type GitHub; 1.4% a credential from
// issuer0, KYCCredentials of which 13% are, against 4.5% of the others
// (the 184 of 1415 the planner found at 100k); 8.4% a subject in DE; 45%
// a subject with an age.
func synthView(r *rand.Rand, seq uint64) []byte {
	v := []byte(`{"id":"did:elastos:synth` + strconv.FormatUint(seq, 10) + `"`)
	if r.Float64() < 0.7 {
		typ := [...]string{"HiveVault", "Hub", "Storage", "Profile"}[r.IntN(4)]
		if r.Float64() < 0.05/0.7 {
			typ = "GitHub"
		}
		v = append(v, `,"service":[{"id":"#s","type":"`+typ+`"}]`...)
	}
	issuer0 := r.Float64() < 0.01415
	kyc := r.Float64() < 0.045 || issuer0 && r.Float64() < 0.13
	de, age := r.Float64() < 0.0844, r.Float64() < 0.455
	if !issuer0 && !kyc && !de && !age && r.Float64() > 0.5 {
		return append(v, '}')
	}
	typ := [...]string{"ProfileCredential", "EmailCredential", "SelfProclaimedCredential"}[r.IntN(3)]
	if kyc {
		typ = "KYCCredential"
	}
	issuer := "did:elastos:issuer" + strconv.Itoa(1+r.IntN(63))
	if issuer0 {
		issuer = "did:elastos:issuer0"
	}
	country := [...]string{"FR", "US", "CN", "SG"}[r.IntN(4)]
	if de {
		country = "DE"
	}
	v = append(v, `,"credential":[{"type":["`+typ+`"],"issuer":"`+issuer+`","subject":{"country":"`+country+`"`...)
	if age {
		v = append(v, `,"age":`+strconv.Itoa(18+r.IntN(70))...)
	}
	return append(v, `}}]}`...)
}

// syntheticQueries are find conditions on synthetic views, the indexed
// ones of docs/scale.md's table and two with a list of nearly half the
// DIDs.
var syntheticQueries = []struct{ name, cond string }{
	{"one lookup", `{"credential.subject.country":"DE"}`},
	{"and", `{"credential.issuer":"did:elastos:issuer0","credential.type":"KYCCredential"}`},
	{"or", `{"$or":[{"credential.type":"KYCCredential"},{"service.type":"GitHub"}]}`},
	{"and dense", `{"credential.subject.country":"DE","credential.subject.age":{"$exists":true}}`},
	{"or dense", `{"$or":[{"credential.subject.age":{"$exists":true}},{"service.type":"GitHub"}]}`},
}

// findPage answers cond as Query does, from a snapshot of c over db.
func findPage(tb testing.TB, c *Index, db store.DB, cond *find.Condition, skip, limit int) pager {
	p := pager{skip: skip, limit: limit}
	err := db.View(func(tx store.Tx) error { return c.Read(tx).find(context.Background(), cond, &p) })
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// mustStoredView returns the view record of a query view's JSON text.
func mustStoredView(t testing.TB, view []byte) *record.View {
	t.Helper()
	v, err := StoredView(view)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
