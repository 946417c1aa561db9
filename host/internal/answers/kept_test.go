package answers

import (
	"bytes"
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
	k := ResolveKey{DID: "did:elastos:iA"}
	kAll := ResolveKey{DID: "did:elastos:iA", All: true}
	kSDK := ResolveKey{DID: "did:elastos:iA", Dialect: resolve.DialectEID}
	var a kept[ResolveKey, []byte]
	if _, ok := a.get(t1, k); ok {
		t.Fatal("an empty cache answered")
	}
	a.put(t1, k, []byte("one"), 3)
	a.put(t1, kAll, []byte("all"), 3)
	for _, c := range []struct {
		tip  ela.Hash
		key  ResolveKey
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
	a.put(t2, k, []byte("two"), 3)
	if _, ok := a.get(t1, kAll); ok {
		t.Error("an answer of the old tip survived a put at the new one")
	}
	if got, _ := a.get(t2, k); string(got) != "two" {
		t.Errorf("at the new tip: %q", got)
	}

	big := bytes.Repeat([]byte("x"), maxAnswerSize+1)
	a.put(t2, kAll, big, len(big))
	if _, ok := a.get(t2, kAll); ok {
		t.Error("an answer over maxAnswerSize was kept")
	}
	a = kept[ResolveKey, []byte]{}
	fill := bytes.Repeat([]byte("x"), maxAnswerSize)
	n := 0
	for ; a.bytes+len(k.DID)+len(fill) <= answersBytes; n++ {
		a.put(t1, ResolveKey{DID: fmt.Sprint(n)}, fill, len(fill))
	}
	a.put(t1, k, fill, len(fill))
	if len(a.m) != 1 || a.bytes != len(k.DID)+len(fill) {
		t.Errorf("after %d answers filled it, the cache holds %d answers, %d bytes; want 1", n, len(a.m), a.bytes)
	}
}
