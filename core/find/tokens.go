package find

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// string reads a string in the quotes found at the current position.
func (p *parser) string() (string, error) {
	quote := p.src[p.pos]
	p.pos++
	start := p.pos
	var b []byte // the unescaped text, once an escape shows up
	for {
		if p.pos >= len(p.src) {
			return "", p.fail("closing " + string(quote))
		}
		switch c := p.src[p.pos]; {
		case c == quote:
			s := p.src[start:p.pos]
			if b != nil {
				s = string(append(b, s...))
			}
			p.pos++
			return s, nil
		case c == '\\':
			b = append(b, p.src[start:p.pos]...)
			var err error
			if b, err = p.escape(b); err != nil {
				return "", err
			}
			start = p.pos
		case c < 0x20:
			return "", p.fail("a string character (control characters must be escaped)")
		case c < utf8.RuneSelf:
			p.pos++
		default:
			r, n := utf8.DecodeRuneInString(p.src[p.pos:])
			if r == utf8.RuneError && n == 1 {
				return "", p.fail("UTF-8 text")
			}
			p.pos += n
		}
	}
}

// escape reads the escape sequence at the current position onto b.
func (p *parser) escape(b []byte) ([]byte, error) {
	p.pos++ // the backslash
	c := p.peek()
	if r, ok := simpleEscapes[c]; ok && (c != '\'' || p.relaxed) {
		p.pos++
		return append(b, r), nil
	}
	if c != 'u' {
		return b, p.fail("an escape character (one of \"\\/bfnrtu)")
	}
	r, err := p.hex4()
	if err != nil {
		return b, err
	}
	if utf16.IsSurrogate(r) {
		// A high surrogate pairs with a following \u low surrogate; a lone
		// one becomes U+FFFD, as encoding/json decodes it.
		r2 := utf8.RuneError
		if strings.HasPrefix(p.src[p.pos:], `\u`) {
			save := p.pos
			p.pos++
			if r2, err = p.hex4(); err != nil {
				return b, err
			}
			if utf16.DecodeRune(r, r2) == utf8.RuneError {
				p.pos = save // not a pair: the second escape stands alone
			}
		}
		r = utf16.DecodeRune(r, r2)
	}
	return utf8.AppendRune(b, r), nil
}

var simpleEscapes = map[byte]byte{
	'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', '\'': '\'',
}

// hex4 reads the u and four hex digits of a \u escape.
func (p *parser) hex4() (rune, error) {
	p.pos++ // the u
	if p.pos+4 > len(p.src) {
		return 0, p.failAt(len(p.src), "four hex digits after \\u")
	}
	n, err := strconv.ParseUint(p.src[p.pos:p.pos+4], 16, 16)
	if err != nil {
		return 0, p.fail("four hex digits after \\u")
	}
	p.pos += 4
	return rune(n), nil
}

// number reads a JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (p *parser) number() (Value, error) {
	start := p.pos
	if p.peek() == '-' {
		p.pos++
	}
	switch c := p.peek(); {
	case c == '0':
		p.pos++
	case '1' <= c && c <= '9':
		p.digits()
	default:
		return Value{}, p.fail("a digit")
	}
	if p.peek() == '.' {
		p.pos++
		if !p.digits() {
			return Value{}, p.fail("a digit after the decimal point")
		}
	}
	if c := p.peek(); c == 'e' || c == 'E' {
		p.pos++
		if c := p.peek(); c == '+' || c == '-' {
			p.pos++
		}
		if !p.digits() {
			return Value{}, p.fail("a digit in the exponent")
		}
	}
	f, err := strconv.ParseFloat(p.src[start:p.pos], 64)
	if err != nil {
		return Value{}, p.failAt(start, "a number within the range of a float64")
	}
	return Value{kind: kindNumber, num: f}, nil
}

// digits consumes a run of decimal digits and reports whether there was one.
func (p *parser) digits() bool {
	start := p.pos
	for p.pos < len(p.src) && '0' <= p.src[p.pos] && p.src[p.pos] <= '9' {
		p.pos++
	}
	return p.pos > start
}

// regex reads a /pattern/flags literal. The pattern runs to the first
// unescaped slash outside a [character class]; the flags are the store's
// regular expression options. The pattern itself is checked where the
// condition uses it.
func (p *parser) regex() (Value, error) {
	start := p.pos
	p.pos++
	inClass := false
	for {
		if p.pos >= len(p.src) || p.src[p.pos] == '\n' || p.src[p.pos] == '\r' {
			return Value{}, p.fail("closing / of the regular expression")
		}
		c := p.src[p.pos]
		switch {
		case c == '\\':
			p.pos++
			if p.pos >= len(p.src) {
				return Value{}, p.fail("a character after \\")
			}
		case c == '[':
			inClass = true
		case c == ']':
			inClass = false
		case c == '/' && !inClass:
			if p.pos == start+1 {
				return Value{}, p.fail("a regular expression pattern")
			}
			p.pos++
			return p.regexFlags(start)
		}
		if c >= utf8.RuneSelf {
			if r, n := utf8.DecodeRuneInString(p.src[p.pos:]); r != utf8.RuneError || n > 1 {
				p.pos += n
				continue
			}
			return Value{}, p.fail("UTF-8 text")
		}
		p.pos++
	}
}

func (p *parser) regexFlags(start int) (Value, error) {
	flagsAt := p.pos
	for p.pos < len(p.src) && isLetter(p.src[p.pos]) {
		c := p.src[p.pos]
		if !strings.ContainsRune(regexOptions, rune(c)) || strings.IndexByte(p.src[flagsAt:p.pos], c) >= 0 {
			return Value{}, p.fail("a regular expression flag, each of " + regexOptions + " at most once")
		}
		p.pos++
	}
	return Value{kind: kindRegex, str: p.src[start:p.pos]}, nil
}
