package eid

import (
	"cmp"
	"slices"
	"time"
)

// MaxLag is how many blocks an endpoint may be behind the best one probed
// and still be chosen for its speed, as the SDKs choose (CheckResult's
// MAX_DIFF in Elastos.DID.JS.SDK src/defaultdidadapter.ts and
// Elastos.DID.Java.SDK DefaultDIDAdapter.java).
const MaxLag = 10

// probe is what an endpoint answered eth_blockNumber with, and how fast.
type probe struct {
	answered bool
	block    uint64
	latency  time.Duration
}

// rank orders endpoints by their probes, best first, as the SDKs sort
// them: those that answered before those that did not; among them, those
// within [MaxLag] blocks of the highest block answered before those further
// behind; those within by latency (then the higher block), those behind by
// block (then latency); ties in the order given. The SDKs compare two
// endpoints at a time, within MaxLag of each other; measuring from the
// best makes the order total.
func rank(ps []probe) []int {
	var best uint64
	for _, p := range ps {
		if p.answered {
			best = max(best, p.block)
		}
	}
	near := func(p probe) bool { return p.answered && best-p.block <= MaxLag }
	order := make([]int, len(ps))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		a, b := ps[i], ps[j]
		switch {
		case a.answered != b.answered:
			return boolFirst(a.answered)
		case !a.answered:
			return 0
		case near(a) != near(b):
			return boolFirst(near(a))
		case near(a):
			return cmp.Or(cmp.Compare(a.latency, b.latency), cmp.Compare(b.block, a.block))
		}
		return cmp.Or(cmp.Compare(b.block, a.block), cmp.Compare(a.latency, b.latency))
	})
	return order
}

// boolFirst orders true before false, for a pair that differs.
func boolFirst(a bool) int {
	if a {
		return -1
	}
	return 1
}
