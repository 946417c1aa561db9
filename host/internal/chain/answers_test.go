package chain

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/resolve"
)

// Answers are kept for one tip: asked at another, they are not there, and
// keeping one at a new tip drops the old tip's. Answers over maxAnswerSize
// are not kept, and the map is emptied when it would hold answersBytes.
func TestAnswers(t *testing.T) {
	t1, t2 := ela.Hash{1}, ela.Hash{2}
	k := answerKey{did: "did:elastos:iA"}
	kAll := answerKey{did: "did:elastos:iA", all: true}
	kSDK := answerKey{did: "did:elastos:iA", dialect: resolve.DialectEID}
	var a answers[answerKey]
	if _, ok := a.get(t1, k); ok {
		t.Fatal("an empty cache answered")
	}
	a.put(t1, k, []byte("one"))
	a.put(t1, kAll, []byte("all"))
	for _, c := range []struct {
		tip  ela.Hash
		key  answerKey
		want string // "" for none
	}{
		{t1, k, "one"},
		{t1, kAll, "all"},
		{t1, kSDK, ""},
		{t2, k, ""},
	} {
		got, ok := a.get(c.tip, c.key)
		if ok != (c.want != "") || string(got) != c.want {
			t.Errorf("get(%x, %+v) = %q, %v; want %q", c.tip[:1], c.key, got, ok, c.want)
		}
	}
	a.put(t2, k, []byte("two"))
	if _, ok := a.get(t1, kAll); ok {
		t.Error("an answer of the old tip survived a put at the new one")
	}
	if got, _ := a.get(t2, k); string(got) != "two" {
		t.Errorf("at the new tip: %q", got)
	}
	if got, _ := a.get(t2, k); cap(got) != len(got) {
		t.Errorf("a kept answer has room to append in place: len %d cap %d", len(got), cap(got))
	}

	big := bytes.Repeat([]byte("x"), maxAnswerSize+1)
	a.put(t2, kAll, big)
	if _, ok := a.get(t2, kAll); ok {
		t.Error("an answer over maxAnswerSize was kept")
	}
	a = answers[answerKey]{}
	fill := bytes.Repeat([]byte("x"), maxAnswerSize)
	n := 0
	for ; a.bytes+len(k.did)+len(fill) <= answersBytes; n++ {
		a.put(t1, answerKey{did: fmt.Sprint(n)}, fill)
	}
	a.put(t1, k, fill)
	if len(a.m) != 1 || a.bytes != len(k.did)+len(fill) {
		t.Errorf("after %d answers filled it, the cache holds %d answers, %d bytes; want 1", n, len(a.m), a.bytes)
	}
}

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
		f.c.cache.mu.Lock()
		f.c.cache.pages = answers[queryKey]{}
		f.c.cache.mu.Unlock()
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
	if again := ask(sameAsked); &again[0] != &first[0] {
		t.Error("the same query written another way was built again, not answered from the kept page")
	}
	id, err := f.c.Snapshot()
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
			if err := f.c.Revert(context.Background(), id); err != nil {
				t.Fatal(err)
			}
		}, 2},
		{"a reset", func() {
			if err := f.c.Reset(context.Background()); err != nil {
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
