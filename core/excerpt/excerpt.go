// Package excerpt quotes untrusted input in error messages at a bounded
// length, so that an error never costs more than its first bytes to build,
// log or send back, however long the input was. Every error of didlight
// that names a value it was given quotes it through this package.
package excerpt

import (
	"strconv"
	"unicode/utf8"
)

// Max is how many bytes of an input a quote shows.
const Max = 100

// Quote returns s as a double-quoted Go string literal (strconv.Quote),
// cut after its first Max bytes (at a character boundary) and then followed
// by how long s is, as in "abc…"… (70000 bytes).
func Quote(s string) string {
	if len(s) <= Max {
		return strconv.Quote(s)
	}
	return quoteHead(s[:Max+1], len(s))
}

// Cut returns s as it is when it is at most Max bytes long, and quoted by
// Quote when it is longer: for text that is shown bare when short, such as
// an operator's name.
func Cut(s string) string {
	if len(s) <= Max {
		return s
	}
	return Quote(s)
}

// Bytes is Quote for a byte slice; it copies no more than Max bytes of b.
func Bytes(b []byte) string {
	if len(b) <= Max {
		return strconv.Quote(string(b))
	}
	return quoteHead(string(b[:Max+1]), len(b))
}

// quoteHead quotes the first Max bytes of head, backing off to the start of
// a character, and notes the whole input's length n.
func quoteHead(head string, n int) string {
	cut := Max
	for cut > Max-utf8.UTFMax && !utf8.RuneStart(head[cut]) {
		cut--
	}
	return strconv.Quote(head[:cut]) + "… (" + strconv.Itoa(n) + " bytes)"
}
