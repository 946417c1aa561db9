package chain

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/core/w3c"
	"github.com/didlight/didlight/host/internal/answers"
	"github.com/didlight/didlight/host/internal/devnet"
)

// A query page is kept for the tip it was built at and answered from
// there, under its normalized query (a condition written another way, a
// limit of 0 for the default); once the tip moves (a block, a revert, a
// reset), the page is built anew and equals the one a read builds.
func TestQueryPagesKept(t *testing.T) {
	f := newFixture(t, Config{})
	expires := GenesisTime.AddDate(2, 0, 0)
	publish := func(name string) {
		u := newUser(name)
		u.last = f.publish(u.create(t, u.document(t, expires, nil, "EmailCredential")))
	}
	publish("kept 1")
	publish("kept 2")
	asked := Query{Condition: compile(t, `{"credential.type":{"$exists":true}}`)}
	sameAsked := Query{Condition: compile(t, `{ 'credential.type' : { $exists : true } }`), Limit: resolve.DefaultQueryLimit}
	ask := func(q Query) []byte {
		t.Helper()
		b, err := f.c.Query(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	built := func(q Query) []byte { // built by a read, nothing kept
		t.Helper()
		f.c.cache.Forget()
		return ask(q)
	}
	total := func(b []byte) int {
		t.Helper()
		var r queried
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("%v: %s", err, b)
		}
		return r.Total
	}

	first := ask(asked)
	again := ask(sameAsked)
	if &again[0] != &first[0] {
		t.Error("the same query written another way was built again, not answered from the kept page")
	}
	if cap(again) != len(again) {
		t.Errorf("a kept page has room to append in place: len %d cap %d", len(again), cap(again))
	}
	id, err := devnet.Snapshot(f.c)
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		name  string
		do    func()
		total int
	}{
		{"a block with a new DID", func() { publish("kept 3") }, 3},
		{"an empty block", func() { f.mine() }, 3},
		{"a revert", func() {
			if err := devnet.Revert(context.Background(), f.c, id); err != nil {
				t.Fatal(err)
			}
		}, 2},
		{"a reset", func() {
			if err := devnet.Reset(context.Background(), f.c); err != nil {
				t.Fatal(err)
			}
		}, 0},
	} {
		before := ask(asked)
		step.do()
		got := ask(asked)
		if &got[0] == &before[0] {
			t.Errorf("after %s: the page kept for the old tip was answered", step.name)
		}
		if want := built(asked); string(got) != string(want) || total(got) != step.total {
			t.Errorf("after %s: total %d, want %d\n got %s\nwant %s", step.name, total(got), step.total, got, want)
		}
	}
}

// A W3C answer is kept for the tip it was built at, under the request as
// the binding gave it, and answered from there; another Accept header is
// another answer. Once the tip moves, the answer is built anew and equals
// the one a read builds with nothing kept. A request w3c cannot parse is
// answered without being kept.
func TestW3CAnswersKept(t *testing.T) {
	f := newFixture(t, Config{})
	u := newUser("w3c kept")
	expires := GenesisTime.AddDate(2, 0, 0)
	u.last = f.publish(u.create(t, u.document(t, expires, nil)))
	resolveW3C := func(accept string) w3c.Response {
		t.Helper()
		resp, err := f.c.ResolveW3C(context.Background(), u.did().String(), "", accept)
		if err != nil || resp.Status != 200 {
			t.Fatalf("ResolveW3C, Accept %q: status %d, %v", accept, resp.Status, err)
		}
		return resp
	}
	first := resolveW3C("")
	again := resolveW3C("")
	if &again.Body[0] != &first.Body[0] || again.ContentType != first.ContentType {
		t.Error("the same request was built again, not answered from the kept answer")
	}
	if cap(again.Body) != len(again.Body) {
		t.Errorf("a kept answer has room to append in place: len %d cap %d", len(again.Body), cap(again.Body))
	}
	if other := resolveW3C(w3c.MediaDIDJSON); other.ContentType == first.ContentType || &other.Body[0] == &first.Body[0] {
		t.Errorf("Accept %s was answered with the answer kept for no Accept (%s)", w3c.MediaDIDJSON, first.ContentType)
	}

	u.last = f.publish(u.update(t, u.document(t, expires.AddDate(0, 0, 1), nil)))
	after := resolveW3C("")
	if &after.Body[0] == &first.Body[0] || bytes.Equal(after.Body, first.Body) {
		t.Fatal("after a block, the answer kept for the tip before it was given")
	}
	f.c.cache.Forget()
	if built := resolveW3C(""); !bytes.Equal(after.Body, built.Body) || after.ContentType != built.ContentType {
		t.Errorf("the kept answer differs from the one a read builds:\n%s\n%s", after.Body, built.Body)
	}

	if resp, err := f.c.ResolveW3C(context.Background(), "did:elastos:", "", ""); err != nil || resp.Status != 400 {
		t.Errorf("a malformed DID: status %d, %v; want 400", resp.Status, err)
	}
	_, at, _ := f.c.Tip()
	if _, ok := f.c.cache.W3C(at, answers.W3CKey{ID: "did:elastos:"}); ok {
		t.Error("the answer to a request w3c cannot parse was kept")
	}
}

// A resolve answer is kept for the tip it was built at, clipped, and
// answered from there; after a block it is built anew.
func TestResolveAnswersKept(t *testing.T) {
	f := newFixture(t, Config{})
	u := newUser("resolve kept")
	expires := GenesisTime.AddDate(2, 0, 0)
	u.last = f.publish(u.create(t, u.document(t, expires, nil)))
	resolveDID := func() []byte {
		t.Helper()
		b, err := f.c.ResolveDID(context.Background(), u.did(), false)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	first, again := resolveDID(), resolveDID()
	if &again[0] != &first[0] {
		t.Error("the same request was built again, not answered from the kept answer")
	}
	if cap(again) != len(again) {
		t.Errorf("a kept answer has room to append in place: len %d cap %d", len(again), cap(again))
	}
	u.last = f.publish(u.update(t, u.document(t, expires.AddDate(0, 0, 1), nil)))
	if after := resolveDID(); &after[0] == &first[0] || bytes.Equal(after, first) {
		t.Error("after a block, the answer kept for the tip before it was given")
	}
}
