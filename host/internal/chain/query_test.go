package chain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/find"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/devnet"
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/store"
)

// population publishes DIDs with services and credentials of several
// types, updates some, deactivates some, lets some expire, and returns the
// latest document of each DID not deactivated, in creation order.
func population(t *testing.T, f *fixture, n int) []*did.Document {
	t.Helper()
	services := []string{"Hub", "Wallet", "Profile"}
	creds := []string{"EmailCredential", "ProfileCredential", "KYC"}
	f.split(f.dev(), 4)
	users := make([]*user, n)
	pending := 0
	flush := func() {
		if pending > 0 {
			f.mine()
			pending = 0
		}
	}
	for i := range users {
		u := newUser(fmt.Sprintf("pop %d", i))
		users[i] = u
		var svcs []did.Service
		for j, typ := range services {
			if i%(j+2) == 0 {
				svcs = append(svcs, service(fmt.Sprintf("s%d", j), typ))
			}
		}
		var cts []string
		for j, typ := range creds {
			if (i+j)%3 == 0 || i%5 == j {
				cts = append(cts, typ)
			}
		}
		expires := f.clock.Now().AddDate(1, 0, 0)
		if i%7 == 3 {
			expires = f.clock.Now().Add(time.Hour) // expired by the end: still in scope
		}
		u.last = f.submit(f.opTx(f.dev(), u.create(t, u.document(t, expires, svcs, cts...))))
		if pending++; i%4 == 3 {
			flush() // several creations share a block: creation order is block order
		}
	}
	flush()
	for i, u := range users {
		switch i % 6 {
		case 1: // an update that changes the types
			u.last = f.publish(u.update(t, u.document(t, f.clock.Now().AddDate(1, 0, 0), []did.Service{service("x", "Wallet")}, "KYC")))
		case 4:
			f.publish(u.deactivate(t))
			u.doc = nil
		}
	}
	if _, err := devnet.IncreaseTime(f.c, 2*time.Hour); err != nil {
		t.Fatal(err)
	}
	var live []*did.Document
	for _, u := range users {
		if u.doc != nil {
			live = append(live, u.doc)
		}
	}
	return live
}

// queried is a query result read back.
type queried struct {
	Total, Start, Count int
	Document            []json.RawMessage
}

func (f *fixture) query(q Query) queried {
	f.t.Helper()
	b, err := f.c.Query(context.Background(), q)
	if err != nil {
		f.t.Fatal(err)
	}
	var r queried
	if err := json.Unmarshal(b, &r); err != nil {
		f.t.Fatalf("%v: %s", err, b)
	}
	if r.Count != len(r.Document) || r.Start != q.Skip {
		f.t.Fatalf("count %d start %d for %d documents, skip %d", r.Count, r.Start, len(r.Document), q.Skip)
	}
	return r
}

// ids returns the DIDs of a page, checking each document is the latest.
func (r queried) ids(t *testing.T, latest map[string]*did.Document) []string {
	t.Helper()
	var out []string
	for _, raw := range r.Document {
		doc, err := did.ParseDocument(raw)
		if err != nil {
			t.Fatal(err)
		}
		if want := latest[doc.Subject().String()]; want == nil || string(want.Normalized()) != string(raw) {
			t.Errorf("%s: the result is not its latest document", doc.Subject())
		}
		out = append(out, doc.Subject().String())
	}
	return out
}

func subjects(docs []*did.Document, keep func(*did.Document) bool) []string {
	var out []string
	for _, d := range docs {
		if keep(d) {
			out = append(out, d.Subject().String())
		}
	}
	return out
}

func compile(t *testing.T, text string) *find.Condition {
	t.Helper()
	c, err := find.Compile(text)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The service, credential and find paths agree with each other and with
// the documents published: DIDs not deactivated, expired ones included,
// in creation order, paged by skip and limit.
func TestQuery(t *testing.T) {
	f := newFixture(t, Config{})
	live := population(t, f, 36)
	latest := map[string]*did.Document{}
	for _, d := range live {
		latest[d.Subject().String()] = d
	}
	has := func(list func(*did.Document) []string, typ string) func(*did.Document) bool {
		return func(d *did.Document) bool { return slices.Contains(list(d), typ) }
	}
	services := func(d *did.Document) []string { return d.ServiceTypes() }
	creds := func(d *did.Document) []string { return d.CredentialTypes() }
	tests := []struct {
		name    string
		queries []Query
		want    []string
	}{
		{"service Hub", []Query{
			{Service: "Hub"},
			{Condition: compile(t, `{"service.type":"Hub"}`)},
			{Condition: compile(t, `{service:{$elemMatch:{type:'Hub'}}}`)},
			{Condition: compile(t, `{"service.type":{"$in":["Hub","Nothing"]}}`)},
			{Condition: compile(t, `{"$or":[{"service.type":"Hub"}]}`)}, // no equality: a scan
		}, subjects(live, has(services, "Hub"))},
		{"service Wallet", []Query{
			{Service: "Wallet"},
			{Condition: compile(t, `{"service.type":"Wallet"}`)},
			{Condition: compile(t, `{"$nor":[{"service.type":{"$ne":"Wallet"}}]}`)},
		}, subjects(live, has(services, "Wallet"))},
		{"credential KYC", []Query{
			{Credential: "KYC"},
			{Condition: compile(t, `{"credential.type":"KYC"}`)},
			{Condition: compile(t, `{"credential":{"type":["KYC"],"subject":{"email":{$exists:true}}}}`)},
			{Condition: compile(t, `{"$or":[{"credential.type":"KYC"}]}`)},
		}, subjects(live, has(creds, "KYC"))},
		{"credential EmailCredential", []Query{
			{Credential: "EmailCredential"},
			{Condition: compile(t, `{"credential.type":"EmailCredential","credential.subject.email":{"$regex":"^Email"}}`)},
		}, subjects(live, has(creds, "EmailCredential"))},
		{"service and credential", []Query{
			{Condition: compile(t, `{"service.type":"Hub","credential.type":"ProfileCredential"}`)},
			{Condition: compile(t, `{"$and":[{"service.type":"Hub"},{"credential.type":"ProfileCredential"}]}`)},
		}, subjects(live, func(d *did.Document) bool {
			return has(services, "Hub")(d) && has(creds, "ProfileCredential")(d)
		})},
		{"every document", []Query{{Condition: compile(t, `{}`)}, {Condition: compile(t, `{"id":{"$exists":true}}`)}},
			subjects(live, func(*did.Document) bool { return true })},
		{"an unknown type", []Query{{Service: "Nothing"}, {Credential: "Nothing"}, {Condition: compile(t, `{"service.type":7}`)}}, nil},
		{"by id", []Query{{Condition: compile(t, fmt.Sprintf(`{"id":%q}`, live[3].Subject()))}}, []string{live[3].Subject().String()}},
	}
	for _, tt := range tests {
		if len(tt.want) == 0 && tt.name != "an unknown type" {
			t.Fatalf("%s: the population has no such DID", tt.name)
		}
		for i, q := range tt.queries {
			q.Limit = resolve.MaxQueryLimit
			r := f.query(q)
			if got := r.ids(t, latest); r.Total != len(tt.want) || !slices.Equal(got, tt.want) {
				t.Errorf("%s, query %d: total %d\n got %v\nwant %v", tt.name, i, r.Total, got, tt.want)
			}
		}
	}

	// Paging: skip and limit cut the same ordered list.
	hub := tests[0].want
	for _, skip := range []int{0, 1, 5, len(hub) - 1, len(hub), len(hub) + 3} {
		for _, limit := range []int{1, 2, 7} {
			for _, q := range tests[0].queries {
				q.Skip, q.Limit = skip, limit
				r := f.query(q)
				want := hub[min(skip, len(hub)):min(skip+limit, len(hub))]
				if got := r.ids(t, latest); r.Total != len(hub) || !slices.Equal(got, want) {
					t.Errorf("skip %d limit %d: total %d, got %v, want %v", skip, limit, r.Total, got, want)
				}
			}
		}
	}
	all := tests[5].want
	if r := f.query(Query{Condition: compile(t, `{}`)}); len(all) <= resolve.DefaultQueryLimit || r.Count != resolve.DefaultQueryLimit || r.Total != len(all) {
		t.Errorf("the default limit gives %d of %d", r.Count, r.Total)
	}
	checkIndexes(t, f.c)
}

// A query whose context is done stops, with its error: one whose client
// left or whose node is stopping reads no further.
func TestQueryCancelled(t *testing.T) {
	f := newFixture(t, Config{})
	population(t, f, 4)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, q := range []Query{{Condition: compile(t, `{}`)}, {Service: "Hub"}, {Condition: compile(t, `{"service.type":"Hub"}`)}} {
		if _, err := f.c.Query(ctx, q); !errors.Is(err, context.Canceled) {
			t.Errorf("Query(%+v) with its context cancelled = %v, want context.Canceled", q, err)
		}
	}
}

func TestQueryParams(t *testing.T) {
	f := newFixture(t, Config{})
	cond := compile(t, `{}`)
	for _, q := range []Query{
		{},
		{Service: "a", Credential: "b"},
		{Service: "a", Condition: cond},
		{Service: "a", Skip: -1},
		{Service: "a", Limit: -1},
	} {
		if _, err := f.c.Query(context.Background(), q); !errors.Is(err, ErrQuery) {
			t.Errorf("Query(%+v) = %v, want ErrQuery", q, err)
		}
	}
	for limit, want := range map[int]int{0: resolve.DefaultQueryLimit, 1: 1, resolve.MaxQueryLimit: resolve.MaxQueryLimit, resolve.MaxQueryLimit + 1: resolve.MaxQueryLimit, 1 << 40: resolve.MaxQueryLimit} {
		q := Query{Service: "a", Limit: limit}
		if err := q.Normalize(); err != nil || q.Limit != want {
			t.Errorf("limit %d becomes %d (%v), want %d", limit, q.Limit, err, want)
		}
	}
	if r := f.query(Query{Service: "a"}); r.Total != 0 || r.Document == nil {
		t.Errorf("an empty result: %+v", r)
	}
}

// A result without all reads only the newest operations; it is the result
// core builds from the whole history, for every DID of the population
// (created, updated, expired and deactivated ones).
func TestResolveLatest(t *testing.T) {
	f := newFixture(t, Config{})
	population(t, f, 24)
	n := 0
	err := f.c.view(func(s snapshot) error {
		tip, err := readTip(s.tx)
		if err != nil {
			return err
		}
		for k := range bucket(s.tx, didindex.BucketDIDs).Scan(store.Range{}) {
			d, err := did.Parse(string(k))
			if err != nil {
				return err
			}
			h, err := s.dids().History(string(k))
			if err != nil {
				return err
			}
			want, err := resolve.Result(d, h, false, int64(tip.Time))
			if err != nil {
				return err
			}
			got, err := f.c.ResolveDID(context.Background(), d, false)
			if err != nil {
				return err
			}
			if string(got) != string(want) {
				t.Errorf("%s:\n got %s\nwant %s", d, got, want)
			}
			n++
		}
		return nil
	})
	if err != nil || n != 24 {
		t.Fatalf("%d DIDs compared: %v", n, err)
	}
}
