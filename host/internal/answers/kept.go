package answers

import (
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/resolve"
)

// Bounds of the answers a Cache keeps: the bytes of all the answers of
// one kind (resolve, query, W3C), and of one resolve or W3C answer (a long
// history's answer is built each time) and one query page.
const (
	answersBytes  = 32 << 20
	maxAnswerSize = 64 << 10
	maxPageSize   = 1 << 20
)

// keyer is what keys kept answers: a comparable request, which says how
// many bytes it holds and how large an answer to it may be kept.
type keyer interface {
	comparable
	size() int // the bytes the key holds, counted against answersBytes
	most() int // the largest answer to a key of its kind that is kept
}

// ResolveKey names a resolve answer: the DID as asked (the answer echoes
// it), the dialect and whether the whole history was asked for.
type ResolveKey struct {
	DID     string
	Dialect resolve.Dialect
	All     bool
}

func (k ResolveKey) size() int { return len(k.DID) }
func (ResolveKey) most() int   { return maxAnswerSize }

// PageKey names a query page: the query once normalized (the page's skip
// and limit as settled; a condition in its compact form,
// find.Condition.String, so that conditions written differently but read
// alike share an answer).
type PageKey struct {
	Service, Credential, Condition string
	Skip, Limit                    int
}

func (k PageKey) size() int { return len(k.Service) + len(k.Credential) + len(k.Condition) }
func (PageKey) most() int   { return maxPageSize }

// W3CKey names a W3C resolution or dereferencing answer: the request as
// the binding gives it (the DID or DID URL, the resolution options, the
// Accept header), which w3c.ParseRequest reads alike each time.
type W3CKey struct{ ID, Options, Accept string }

func (k W3CKey) size() int { return len(k.ID) + len(k.Options) + len(k.Accept) }
func (W3CKey) most() int   { return maxAnswerSize }

// kept keeps answers built at one tip, so that asking again costs a map
// lookup instead of store reads and an answer built anew. An answer (a
// resolve's, a query page's, a W3C resolution's) depends on nothing but
// its key and the chain's state, which a tip's hash names (the status of
// an expired DID is judged at the tip's block time; a query's scope does
// not depend on time), so an answer kept for the tip the chain is at is
// the answer a read would build. When the tip moves, the first answer
// built at the new one empties the map; when the map holds answersBytes,
// it is emptied too. Its owner, Cache, locks around it.
type kept[K keyer, V any] struct {
	tip   ela.Hash
	m     map[K]V
	bytes int
}

// get returns the answer to k kept for tip.
func (a *kept[K, V]) get(tip ela.Hash, k K) (V, bool) {
	if a.tip != tip {
		var none V
		return none, false
	}
	v, ok := a.m[k]
	return v, ok
}

// put keeps v, the answer to k built at tip, n bytes long. The caller must
// not change v afterwards: it is handed to every reader of k, and the
// caller clips its bytes (slices.Clip), so that a reader's append copies.
func (a *kept[K, V]) put(tip ela.Hash, k K, v V, n int) {
	if n > k.most() {
		return
	}
	n += k.size()
	if a.tip != tip || a.bytes+n > answersBytes {
		a.tip, a.m, a.bytes = tip, make(map[K]V), 0
	}
	a.m[k] = v
	a.bytes += n
}
