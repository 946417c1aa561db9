package light

import (
	"errors"
	"fmt"
	"time"
)

// Sync returns the head the Resolver answers at, which is the upstream's
// as last learned (a light resolver keeps no chain to fall behind), and
// why it cannot answer now: no head learned yet, or none the upstream has
// confirmed within three polls (its last failure says why). For a node's
// readiness (api.Light).
func (r *Resolver) Sync() (height, upstream uint64, err error) {
	h := r.heads.cur.Load()
	if h == nil {
		return 0, 0, errors.New("the upstream has not told its head yet" + r.lastFailure())
	}
	if age := time.Since(h.Confirmed); age > maxHeadAge*r.poll {
		return h.Number, h.Number, fmt.Errorf("the upstream has not confirmed its head for %s%s", age.Round(time.Millisecond), r.lastFailure())
	}
	return h.Number, h.Number, nil
}

// lastFailure says what the upstream last failed, for an error message:
// "" when it has not.
func (r *Resolver) lastFailure() string {
	c := &r.counts
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.failures.last == nil {
		return ""
	}
	return ": " + c.failures.last.What
}
