package chain

import (
	"slices"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/resolve"
)

// Bounds of the resolve answers the chain keeps: the bytes of all of them,
// and of one (a long history's answer is built each time).
const (
	answersBytes  = 32 << 20
	maxAnswerSize = 64 << 10
)

// answerKey names a resolve answer: the DID as asked (the answer echoes
// it), the dialect and whether the whole history was asked for.
type answerKey struct {
	did     string
	dialect resolve.Dialect
	all     bool
}

// answers keeps resolve answers built at one tip, so that resolving a DID
// again costs a map lookup instead of a store read and a result built
// anew. An answer depends on nothing but its key and the chain's state,
// which a tip's hash names (the status of an expired DID is judged at the
// tip's block time), so an answer kept for the tip the chain is at is the
// answer a read would build. When the tip moves, the first answer built
// at the new one empties the map; when the map holds answersBytes, it is
// emptied too. Its owner, readCache, locks around it.
type answers struct {
	tip   ela.Hash
	m     map[answerKey][]byte
	bytes int
}

// get returns the answer to k kept for tip.
func (a *answers) get(tip ela.Hash, k answerKey) ([]byte, bool) {
	if a.tip != tip {
		return nil, false
	}
	b, ok := a.m[k]
	return b, ok
}

// put keeps b, the answer to k built at tip. The caller must not change b
// afterwards: it is handed to every reader of k.
func (a *answers) put(tip ela.Hash, k answerKey, b []byte) {
	if len(b) > maxAnswerSize {
		return
	}
	n := len(k.did) + len(b)
	if a.tip != tip || a.bytes+n > answersBytes {
		a.tip, a.m, a.bytes = tip, make(map[answerKey][]byte), 0
	}
	a.m[k] = slices.Clip(b) // an append by a reader copies
	a.bytes += n
}
