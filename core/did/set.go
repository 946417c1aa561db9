package did

import "slices"

// seen is a set for finding an id listed twice. It scans a slice while it
// holds a few elements and moves to a map beyond, so that reading a
// document stays linear in its length without costing the usual small
// document a map. The zero value is empty.
type seen[K comparable] struct {
	list []K
	set  map[K]struct{}
}

// seenScanMax is how many elements a seen scans before it uses a map.
const seenScanMax = 16

// seenFor returns an empty seen for about n elements: one that starts
// with a map of that size when n is over seenScanMax.
func seenFor[K comparable](n int) seen[K] {
	if n <= seenScanMax {
		return seen[K]{}
	}
	return seen[K]{set: make(map[K]struct{}, n)}
}

// add adds k and reports whether it was already there.
func (s *seen[K]) add(k K) (dup bool) {
	if s.set != nil {
		if _, dup = s.set[k]; !dup {
			s.set[k] = struct{}{}
		}
		return dup
	}
	if slices.Contains(s.list, k) {
		return true
	}
	s.list = append(s.list, k)
	if len(s.list) > seenScanMax {
		s.set = make(map[K]struct{}, 2*len(s.list))
		for _, x := range s.list {
			s.set[x] = struct{}{}
		}
		s.list = nil
	}
	return false
}
