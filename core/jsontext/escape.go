package jsontext

import "unicode/utf8"

// Dialect is a way of escaping strings: JSON.stringify's or encoding/json's.
type Dialect uint8

const (
	// JS escapes as JSON.stringify does: '"', '\\' and control characters
	// only; bytes that are not UTF-8 are written as U+FFFD itself.
	JS Dialect = iota
	// Std escapes as encoding/json's Encoder with SetEscapeHTML(false):
	// also U+2028 and U+2029, and bytes that are not UTF-8 as \ufffd.
	Std
	// StdHTML escapes as json.Marshal does: as Std, and '<', '>' and '&'
	// as \u003c, \u003e and \u0026.
	StdHTML
)

const hexDigits = "0123456789abcdef"

// AppendString appends s to dst as a JSON string escaped in dialect d.
func (d Dialect) AppendString(dst []byte, s string) []byte {
	if d == JS {
		return appendJS(dst, s)
	}
	return appendStd(dst, s, d == StdHTML)
}

// appendJS appends s as JSON.stringify writes a string.
func appendJS(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if i = PlainRun(s, i, true); i == len(s) {
			break
		}
		c := s[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				dst = append(dst, s[start:i]...)
				dst = utf8.AppendRune(dst, utf8.RuneError)
				i++
				start = i
				continue
			}
			i += n
			continue
		}
		if c >= 0x20 && c != '"' && c != '\\' {
			i++
			continue
		}
		dst = appendEscape(append(dst, s[start:i]...), c)
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendStd appends s as encoding/json writes a string.
func appendStd(b []byte, s string, escapeHTML bool) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (!escapeHTML || c != '<' && c != '>' && c != '&') {
				i++
				continue
			}
			b = appendEscape(append(b, s[start:i]...), c)
			i++
			start = i
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b = append(append(b, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += n
			continue
		}
		i += n
		start = i
	}
	return append(append(b, s[start:]...), '"')
}

// appendEscape appends the escape of the ASCII byte c, as both dialects
// write it: a short escape where JSON has one, else \u00xx.
func appendEscape(b []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(b, '\\', c)
	case '\b':
		return append(b, '\\', 'b')
	case '\f':
		return append(b, '\\', 'f')
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	}
	return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
}

// PlainRun returns the offset from i of the first block of 8 bytes of s
// that holds a quote, a backslash, a control character or, with ascii, a
// byte of a multi-byte character; or of the last few bytes. It tests 8 bytes
// at once: strings in documents and requests, base64 payloads above all,
// are long runs of bytes that need no attention.
func PlainRun[T string | []byte](s T, i int, ascii bool) int {
	const lsb, msb = 0x0101010101010101, 0x8080808080808080
	high := uint64(0)
	if ascii {
		high = msb
	}
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		// A byte below 0x20, and a quote or backslash (zero after the
		// XOR), borrows in its subtraction and so gets a high bit it did
		// not have; a byte of 0x80 or more has one already. Borrows
		// reaching further bytes only follow such a byte.
		q, bs := x^(lsb*'"'), x^(lsb*'\\')
		if ((q-lsb)&^q|(bs-lsb)&^bs|(x-lsb*0x20)&^x|x&high)&msb != 0 {
			break
		}
	}
	return i
}
