package api

import (
	"bytes"
	"fmt"
	"testing"

	"didlight/core/ela"
)

func TestResultCache(t *testing.T) {
	var c resultCache
	t1, t2 := ela.Hash{1}, ela.Hash{2}
	alice, bob := resultKey{did: "did:elastos:alice"}, resultKey{did: "did:elastos:bob", all: true}
	check := func(tip ela.Hash, k resultKey, want string) {
		t.Helper()
		got, ok := c.get(tip, k)
		if want == "" && ok || want != "" && !bytes.Equal(got, []byte(want)) {
			t.Errorf("get(%x, %+v) = %q, %v; want %q", tip[:1], k, got, ok, want)
		}
	}
	check(ela.Hash{}, alice, "") // nothing cached, the zero tip included
	c.put(t1, alice, []byte("a1"))
	c.put(t1, bob, []byte("b1"))
	check(t1, alice, "a1")
	check(t1, bob, "b1")
	check(t2, alice, "")                                          // another tip
	check(t1, resultKey{did: "did:elastos:alice", sdk: true}, "") // another dialect
	check(t1, resultKey{did: "did:elastos:alice", all: true}, "") // with all

	c.put(t2, alice, []byte("a2")) // a new tip drops the old one's results
	check(t2, alice, "a2")
	check(t1, alice, "")
	check(t2, bob, "")

	c.put(t2, bob, make([]byte, maxCachedResult+1)) // too large to keep
	check(t2, bob, "")

	for i := range maxCachedResults {
		c.put(t2, resultKey{did: fmt.Sprint(i)}, []byte("x"))
	}
	if len(c.results) > maxCachedResults {
		t.Errorf("%d results cached, at most %d", len(c.results), maxCachedResults)
	}
	c.clear()
	check(t2, resultKey{did: "1"}, "")
	check(ela.Hash{}, alice, "")
}
