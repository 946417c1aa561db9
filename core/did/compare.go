package did

// compareURL orders DID URLs as the SDKs do, by their full string form,
// without building the strings.
func compareURL(a, b URL) int {
	pa, pb := a.pieces(), b.pieces()
	return comparePieces(pa[:], pb[:])
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
// (DID URLs are ASCII, so this is also JavaScript's order).
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
		if c, d := a[i][x], b[j][y]; c != d {
			return int(c) - int(d)
		}
		x, y = x+1, y+1
	}
}
