package jsontext

import (
	"errors"
	"strconv"
)

// MaxDepth is how deeply arrays and objects may nest: encoding/json's
// scanner's limit (maxNestingDepth in encoding/json/scanner.go).
const MaxDepth = 10000

// errEOF and errUnexpectedEOF are the errors of an empty and of a truncated
// input, spelt as io.EOF and io.ErrUnexpectedEOF are.
var (
	errEOF           = errors.New("EOF")
	errUnexpectedEOF = errors.New("unexpected EOF")
)

// Scan checks the syntax of the JSON value in begins with and returns the
// offset just after it. Its errors are worded as encoding/json's Decoder
// words them ("invalid character 'x' looking for beginning of value",
// "unexpected EOF"), so that callers answer as encoding/json would.
func Scan(in []byte) (int, error) {
	s := scanner{s: in}
	s.space()
	if s.i == len(in) {
		return 0, errEOF
	}
	s.value()
	return s.i, s.err
}

// Valid reports whether b is one JSON value with nothing but white space
// around it, as json.Valid does.
func Valid(b []byte) bool {
	i, err := Scan(b)
	return err == nil && SkipSpace(b, i) == len(b)
}

// ValidValue returns the offset just after the JSON value that starts at
// b[i] (white space before it allowed) and whether it is one.
func ValidValue(b []byte, i int) (int, bool) {
	s := scanner{s: b, i: i}
	s.value()
	return s.i, s.err == nil
}

// scanner walks JSON text, stopping at the first syntax error.
type scanner struct {
	s     []byte
	i     int
	err   error
	depth int // of arrays and objects
}

// open enters an array or object at the current byte.
func (s *scanner) open() bool {
	if s.depth++; s.depth > MaxDepth {
		s.fail("exceeded max depth")
		return false
	}
	s.i++
	return true
}

func (s *scanner) space() { s.i = SkipSpace(s.s, s.i) }

// fail records a syntax error about the byte at the current offset, or the
// end of the input.
func (s *scanner) fail(context string) {
	if s.err != nil {
		return
	}
	if s.i >= len(s.s) {
		s.err = errUnexpectedEOF
		return
	}
	s.err = errors.New("invalid character " + quoteChar(s.s[s.i]) + " " + context)
}

// quoteChar formats c as encoding/json's syntax errors do.
func quoteChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	q := strconv.Quote(string(rune(c)))
	return "'" + q[1:len(q)-1] + "'"
}

// value walks one value and the white space before it.
func (s *scanner) value() {
	s.space()
	if s.i >= len(s.s) {
		s.fail("")
		return
	}
	switch c := s.s[s.i]; { // strings first: most values are
	case c == '"':
		s.str()
	case c == '{':
		s.container('}')
	case c == '[':
		s.container(']')
	case c == '-' || IsDigit(c):
		s.number()
	case c == 't':
		s.literal("true")
	case c == 'f':
		s.literal("false")
	case c == 'n':
		s.literal("null")
	default:
		s.fail("looking for beginning of value")
	}
}

// container walks an object (closer '}') or an array (closer ']'): its
// members or elements and its closer.
func (s *scanner) container(closer byte) {
	if !s.open() {
		return
	}
	for first := true; ; first = false {
		if _, more := s.next(closer, first); !more {
			break
		}
		s.value()
	}
	s.depth--
}

// next walks to the next member or element of the container that closer
// ends: past the comma before it (unless first) and white space, and for a
// member past its key and colon, returning the key's text. It reports
// false at the closer, which it walks past, and on a syntax error.
func (s *scanner) next(closer byte, first bool) (key []byte, more bool) {
	s.space()
	switch {
	case first:
		if s.i < len(s.s) && s.s[s.i] == closer {
			s.i++
			return nil, false
		}
	case s.err != nil || s.i >= len(s.s):
		s.fail("")
		return nil, false
	case s.s[s.i] == ',':
		s.i++
	case s.s[s.i] == closer:
		s.i++
		return nil, false
	default:
		after := "after array element"
		if closer == '}' {
			after = "after object key:value pair"
		}
		s.fail(after)
		return nil, false
	}
	if closer != '}' {
		return nil, true
	}
	if s.space(); s.i >= len(s.s) || s.s[s.i] != '"' {
		s.fail("looking for beginning of object key string")
		return nil, false
	}
	start := s.i
	if s.str(); s.err != nil {
		return nil, false
	}
	key = s.s[start:s.i]
	if s.space(); s.i >= len(s.s) || s.s[s.i] != ':' {
		s.fail("after object key")
		return nil, false
	}
	s.i++
	return key, true
}

// str walks a string: no control characters, valid escapes. It walks the
// first bytes one at a time, as most strings are short, and then skips
// plain runs 8 bytes at a time, walking the block each run stops at byte
// by byte.
func (s *scanner) str() {
	b, i := s.s, s.i+1 // past "; kept in registers, not in s, in the loop
	for end := min(i+shortString, len(b)); ; end = min(i+8, len(b)) {
		for i < end {
			switch c := b[i]; {
			case c == '"':
				s.i = i + 1
				return
			case c < 0x20:
				s.i = i
				s.fail("in string literal")
				return
			case c != '\\':
				i++
				continue
			}
			s.i = i
			if !s.escape() {
				return
			}
			i = s.i
		}
		if i >= len(b) {
			break
		}
		i = PlainRun(b, i, false)
	}
	s.i = i
	s.fail("")
}

// shortString is how many bytes of a string str walks one at a time before
// it tests 8 bytes at once.
const shortString = 16

// escape walks the escape whose backslash is at the current byte, and
// reports false when it is not one JSON defines.
func (s *scanner) escape() bool {
	s.i++ // \
	if s.i >= len(s.s) {
		return true // the caller reports the end of the input
	}
	switch s.s[s.i] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.i++
	case 'u':
		s.i++
		for range 4 {
			if s.i < len(s.s) && !isHex(s.s[s.i]) {
				s.fail(`in \u hexadecimal character escape`)
				return false
			}
			s.i++
		}
	default:
		s.fail("in string escape code")
		return false
	}
	return true
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// IsDigit reports whether c is a decimal digit.
func IsDigit(c byte) bool { return '0' <= c && c <= '9' }

// number walks -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) number() {
	if s.s[s.i] == '-' {
		s.i++
		if s.i >= len(s.s) || !IsDigit(s.s[s.i]) {
			s.fail("in numeric literal")
			return
		}
	}
	if s.s[s.i] == '0' {
		s.i++
	} else {
		s.digits()
	}
	if s.i < len(s.s) && s.s[s.i] == '.' {
		s.i++
		if s.i >= len(s.s) || !IsDigit(s.s[s.i]) {
			s.fail("after decimal point in numeric literal")
			return
		}
		s.digits()
	}
	if s.i < len(s.s) && (s.s[s.i] == 'e' || s.s[s.i] == 'E') {
		s.i++
		if s.i < len(s.s) && (s.s[s.i] == '+' || s.s[s.i] == '-') {
			s.i++
		}
		if s.i >= len(s.s) || !IsDigit(s.s[s.i]) {
			s.fail("in exponent of numeric literal")
			return
		}
		s.digits()
	}
}

func (s *scanner) digits() {
	for s.i < len(s.s) && IsDigit(s.s[s.i]) {
		s.i++
	}
}

func (s *scanner) literal(word string) {
	for k := range len(word) {
		if s.i >= len(s.s) || s.s[s.i] != word[k] {
			s.fail("in literal " + word + " (expecting " + quoteChar(word[k]) + ")")
			return
		}
		s.i++
	}
}
