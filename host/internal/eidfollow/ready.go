package eidfollow

import "errors"

// Sync returns the last EID block indexed, the upstream's head as the scan
// last asked it, and, while the scan cannot keep up, why: the upstream's
// last failure, or that it has not told its head yet. For a node's
// readiness (api.Light).
func (f *Follower) Sync() (height, upstream uint64, err error) {
	p := f.scan.Progress()
	h, _ := f.index.HeadBlock()
	switch {
	case p.Err != nil:
		err = errors.New("the EID upstream failed: " + p.Err.Error())
	case p.Head == 0:
		err = errors.New("the EID upstream has not told its head yet")
	}
	return h.Number, p.Head, err
}
