// Package excerpt quotes untrusted input in error messages at a bounded length.
//
// It quotes untrusted input in error messages at a bounded length, so that
// an error never costs more than its first bytes to build, log or send back,
// however long the input was. Every error of didlight that names a value it
// was given quotes it through this package.
package excerpt

import (
	"strconv"
	"unicode/utf8"
)

// Max is how long a quote may be, in bytes of the quoted text, quotes
// excluded: at most Max bytes of the input, fewer when they need escapes.
const Max = 100

// Quote returns s as a double-quoted Go string literal (strconv.Quote). When
// that is longer than Max bytes between its quotes, it quotes only as much
// of the start of s as fits (cut at a character boundary), followed by the
// length of s, as in "abc…"… (70000 bytes).
func Quote(s string) string {
	if len(s) <= Max {
		if q := strconv.Quote(s); len(q) <= Max+2 {
			return q
		}
	}
	return quoteHead(s[:min(len(s), Max+utf8.UTFMax)], len(s))
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
		return Quote(string(b))
	}
	return quoteHead(string(b[:min(len(b), Max+utf8.UTFMax)]), len(b))
}

// quoteHead quotes as much of head, the start of an input of n bytes, as
// fits in Max bytes once quoted, cut at the start of a character, and
// notes n. It backs off one character at a time: at most Max steps.
func quoteHead(head string, n int) string {
	cut := min(len(head), Max)
	for {
		for cut > 0 && cut < len(head) && !utf8.RuneStart(head[cut]) {
			cut--
		}
		if q := strconv.Quote(head[:cut]); len(q) <= Max+2 {
			return q + "… (" + strconv.Itoa(n) + " bytes)"
		}
		cut--
	}
}
