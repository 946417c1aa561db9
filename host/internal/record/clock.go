package record

import "github.com/didlight/didlight/core/ledger"

// Clock encodes a devnet's chain clock: its skew (two's complement) and
// its pinned next block time.
func Clock(c ledger.Clock) []byte {
	w := make(writer, 0, 12)
	w.u64(uint64(c.Skew))
	w.u32(c.Next)
	return w
}

// ParseClock decodes a Clock.
func ParseClock(b []byte) (ledger.Clock, error) {
	r := newReader("clock", b)
	c := ledger.Clock{Skew: int64(r.u64("skew")), Next: r.u32("next")}
	return c, r.end()
}
