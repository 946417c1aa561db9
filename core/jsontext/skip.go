package jsontext

import (
	"bytes"
	"strings"
)

// The functions below walk text already known to be JSON (checked by
// [Scan], or stored only after such a check): they find where a value ends
// without decoding it. On other text they give some answer and never panic,
// and they never recurse, however deep the nesting.

// IsSpace reports whether c is JSON white space.
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// SkipSpace returns the offset of the first byte of s at or after i that is
// not white space.
func SkipSpace[T string | []byte](s T, i int) int {
	for i < len(s) && IsSpace(s[i]) {
		i++
	}
	return i
}

// End returns the offset just after the value that starts at s[i].
func End[T string | []byte](s T, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '"':
		return StringEnd(s, i)
	case '{', '[':
		depth := 0
		for i < len(s) {
			switch s[i] {
			case '"':
				i = StringEnd(s, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	for i < len(s) { // a number or a literal
		switch s[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// StringEnd returns the offset just after the string that starts at s[i].
func StringEnd[T string | []byte](s T, i int) int {
	for i++; i < len(s); {
		q := indexQuote(s[i:])
		if q < 0 {
			break
		}
		i += q
		backslashes := 0
		for j := i - 1; j >= 0 && s[j] == '\\'; j-- {
			backslashes++
		}
		i++
		if backslashes%2 == 0 {
			return i
		}
	}
	return len(s)
}

// indexQuote returns the offset of the first '"' in s, or -1, searching as
// fast as the platform can (strings.IndexByte has assembly on most).
func indexQuote[T string | []byte](s T) int {
	switch v := any(s).(type) {
	case string:
		return strings.IndexByte(v, '"')
	case []byte:
		return bytes.IndexByte(v, '"')
	}
	panic("unreachable")
}
