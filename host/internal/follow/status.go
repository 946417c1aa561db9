package follow

import (
	"errors"
	"fmt"
)

// The kinds of outcome of a round; Run logs when the kind changes.
const (
	kindStarting = "starting"                         // before the first round
	kindSynced   = ""                                 // no error
	kindUpstream = "upstream unreachable or refusing" // no answer, or an error answer
	kindInvalid  = "upstream sent an invalid block"   // bad JSON, a hash that is not the block's, a rule broken
	kindDiverged = "upstream diverged from our chain" // a block that does not follow our tip
	kindLocal    = "local failure"                    // our own store failed
)

// syncError is an error of a round, with its kind.
type syncError struct {
	kind string
	err  error
}

func (e *syncError) Error() string { return e.err.Error() }
func (e *syncError) Unwrap() error { return e.err }

// kindOf returns the kind of a round's outcome.
func kindOf(err error) string {
	if err == nil {
		return kindSynced
	}
	if se, ok := errors.AsType[*syncError](err); ok {
		return se.kind
	}
	return kindLocal
}

// report logs the outcome of a round when its kind differs from the last
// one's: once when trouble starts or changes, once when it ends.
func (f *Follower) report(err error) {
	kind := kindOf(err)
	f.mu.Lock()
	changed := kind != f.state
	f.state, f.failing = kind, err != nil
	height := f.height
	if err != nil {
		f.connected = false // read the upstream's state again: it may have restarted
	}
	f.mu.Unlock()
	if !changed {
		return
	}
	local, _, _ := f.chain.Tip()
	if err != nil {
		f.log.Warn("following: "+kind+"; retrying with backoff", "upstream", f.base, "height", local, "err", err)
		return
	}
	f.log.Info("following", "upstream", f.base, "height", local, "upstream_height", height)
}

// Neighbor returns the upstream as the node state lists it: established
// while the last round succeeded, inactive after a failure.
func (f *Follower) Neighbor() Neighbor {
	f.mu.Lock()
	defer f.mu.Unlock()
	state := StateEstablished
	if f.failing || !f.connected {
		state = StateInactive
	}
	return Neighbor{
		ID:         f.id,
		HexID:      fmt.Sprintf("%#x", f.id),
		Height:     f.height,
		Relay:      true,
		External:   true,
		State:      state,
		NetAddress: hostPort(f.base),
	}
}
