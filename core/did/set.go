package did

// seen is a set for finding an id listed twice. It scans an array it holds
// in place while it has a few elements and moves to a map beyond, so that
// reading a document stays linear in its length without costing the usual
// small document an allocation. The zero value is empty.
type seen[K comparable] struct {
	few [seenScanMax]K
	n   int // elements of few in use, while set is nil
	set map[K]struct{}
}

// seenScanMax is how many elements a seen scans before it uses a map.
const seenScanMax = 8

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
	for _, x := range s.few[:s.n] {
		if x == k {
			return true
		}
	}
	if s.n < len(s.few) {
		s.few[s.n] = k
		s.n++
		return false
	}
	s.set = make(map[K]struct{}, 4*len(s.few))
	for _, x := range s.few {
		s.set[x] = struct{}{}
	}
	s.set[k] = struct{}{}
	return false
}
