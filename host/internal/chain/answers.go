package chain

import (
	"slices"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/resolve"
)

// Bounds of the answers the chain keeps: the bytes of all the answers of
// one kind (resolve, query), and of one resolve answer (a long history's
// answer is built each time) and one query page.
const (
	answersBytes  = 32 << 20
	maxAnswerSize = 64 << 10
	maxPageSize   = 1 << 20
)

// answerKeyer is what keys kept answers: a comparable request, which says
// how many bytes it holds and how large an answer to it may be kept.
type answerKeyer interface {
	comparable
	size() int // the bytes the key holds, counted against answersBytes
	most() int // the largest answer to a key of its kind that is kept
}

// answerKey names a resolve answer: the DID as asked (the answer echoes
// it), the dialect and whether the whole history was asked for.
type answerKey struct {
	did     string
	dialect resolve.Dialect
	all     bool
}

func (k answerKey) size() int { return len(k.did) }
func (answerKey) most() int   { return maxAnswerSize }

// queryKey names a query page: the query once normalized (Query.normalize:
// the page's skip and limit as settled; a condition in its compact form,
// find.Condition.String, so that conditions written differently but read
// alike share an answer).
type queryKey struct {
	service, credential, condition string
	skip, limit                    int
}

func (k queryKey) size() int { return len(k.service) + len(k.credential) + len(k.condition) }
func (queryKey) most() int   { return maxPageSize }

// answers keeps answers built at one tip, so that asking again costs a map
// lookup instead of store reads and an answer built anew. An answer (a
// resolve's, a query page's) depends on nothing but its key and the
// chain's state, which a tip's hash names (the status of an expired DID is
// judged at the tip's block time; a query's scope does not depend on
// time), so an answer kept for the tip the chain is at is the answer a
// read would build. When the tip moves, the first answer built at the new
// one empties the map; when the map holds answersBytes, it is emptied
// too. Its owner, readCache, locks around it.
type answers[K answerKeyer] struct {
	tip   ela.Hash
	m     map[K][]byte
	bytes int
}

// get returns the answer to k kept for tip.
func (a *answers[K]) get(tip ela.Hash, k K) ([]byte, bool) {
	if a.tip != tip {
		return nil, false
	}
	b, ok := a.m[k]
	return b, ok
}

// put keeps b, the answer to k built at tip. The caller must not change b
// afterwards: it is handed to every reader of k.
func (a *answers[K]) put(tip ela.Hash, k K, b []byte) {
	if len(b) > k.most() {
		return
	}
	n := k.size() + len(b)
	if a.tip != tip || a.bytes+n > answersBytes {
		a.tip, a.m, a.bytes = tip, make(map[K][]byte), 0
	}
	a.m[k] = slices.Clip(b) // an append by a reader copies
	a.bytes += n
}
