package did

import (
	"slices"
	"strings"
)

// compareURL orders DID URLs as the SDKs do, by their full string form,
// without building the strings.
func compareURL(a, b URL) int {
	if a.DID == b.DID && a.Path == b.Path && a.Query == b.Query && a.Fragment != "" && b.Fragment != "" {
		return strings.Compare(a.Fragment, b.Fragment) // the usual case in a document: ids #name
	}
	pa, pb := a.pieces(), b.pieces()
	if a.DID == b.DID {
		return comparePieces(pa[2:], pb[2:])
	}
	return comparePieces(pa[:], pb[:])
}

// sortedByID returns list sorted by the DID URL id gives each element, as
// documents order their keys, services and credentials. It sorts the ids
// with their positions, side by side, and then moves each element once, so
// that large elements are not swapped over and over.
func sortedByID[T any](list []T, id func(*T) URL) []T {
	if len(list) < 2 {
		return list
	}
	type idAt struct {
		id URL
		at int
	}
	order := make([]idAt, len(list))
	for i := range list {
		order[i] = idAt{id(&list[i]), i}
	}
	slices.SortFunc(order, func(a, b idAt) int { return compareURL(a.id, b.id) })
	sorted := make([]T, len(list))
	for i, o := range order {
		sorted[i] = list[o.at]
	}
	return sorted
}

// pieces returns the parts whose concatenation is u.String().
func (u URL) pieces() [7]string {
	var p [7]string
	if !u.DID.IsZero() {
		p[0], p[1] = prefix, u.DID.id
	}
	p[2] = u.Path
	if u.Query != "" {
		p[3], p[4] = "?", u.Query
	}
	if u.Fragment != "" {
		p[5], p[6] = "#", u.Fragment
	}
	return p
}

// comparePieces compares the concatenation of a with that of b, byte by byte
// (DID URLs are ASCII, so this is also JavaScript's order), a run of bytes
// the two have in one piece each at a time.
func comparePieces(a, b []string) int {
	var i, j, x, y int // piece index and offset within it, in a and in b
	for {
		for i < len(a) && x == len(a[i]) {
			i, x = i+1, 0
		}
		for j < len(b) && y == len(b[j]) {
			j, y = j+1, 0
		}
		switch {
		case i == len(a) && j == len(b):
			return 0
		case i == len(a):
			return -1
		case j == len(b):
			return 1
		}
		n := min(len(a[i])-x, len(b[j])-y)
		if c := strings.Compare(a[i][x:x+n], b[j][y:y+n]); c != 0 {
			return c
		}
		x, y = x+n, y+n
	}
}
