package follow

import "errors"

// Sync returns the chain's height, the upstream's height as last read,
// and, while the follower is not keeping up with it, why: it has not
// reached the upstream yet, or its last round failed (the kind of
// failure, as the log says it). For a node's readiness (api.Server).
func (f *Follower) Sync() (height, upstream uint64, err error) {
	local, _, _ := f.chain.Tip()
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case f.failing:
		err = errors.New("following " + f.base + ": " + f.state)
	case !f.connected:
		err = errors.New("following " + f.base + ": the upstream has not answered yet")
	}
	return uint64(local), uint64(f.height), err
}
