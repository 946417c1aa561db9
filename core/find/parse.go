package find

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/didlight/didlight/core/jsontext"
)

// maxDepth bounds the nesting of arrays and objects, so that hostile input
// cannot exhaust the stack of the parser or the matcher.
const maxDepth = 100

// parser reads one JSON value. In relaxed mode it also reads what people
// paste from the shell: unquoted keys, single-quoted strings and
// /pattern/flags regular expression literals. Strict JSON reads the same
// in both modes.
type parser struct {
	src     string
	pos     int
	relaxed bool
	depth   int
}

func parse(src string, relaxed bool) (Value, error) {
	p := &parser{src: src, relaxed: relaxed}
	p.space()
	v, err := p.value()
	if err != nil {
		return Value{}, err
	}
	p.space()
	if p.pos < len(p.src) {
		return Value{}, p.fail("end of input")
	}
	return v, nil
}

// fail reports that what was expected is not at the current position.
func (p *parser) fail(expected string) error {
	return p.failAt(p.pos, expected)
}

func (p *parser) failAt(offset int, expected string) error {
	found := "end of input"
	if offset < len(p.src) {
		r, n := utf8.DecodeRuneInString(p.src[offset:])
		if r == utf8.RuneError && n == 1 {
			found = "invalid UTF-8 byte 0x" + strconv.FormatUint(uint64(p.src[offset]), 16)
		} else {
			found = strconv.QuoteRune(r)
		}
	}
	return &SyntaxError{Offset: offset, Expected: expected, Found: found}
}

func (p *parser) space() { p.pos = jsontext.SkipSpace(p.src, p.pos) }

func (p *parser) peek() byte {
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

func (p *parser) value() (Value, error) {
	switch c := p.peek(); {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"' || c == '\'' && p.relaxed:
		s, err := p.string()
		return Value{kind: kindString, str: s}, err
	case c == '/' && p.relaxed:
		return p.regex()
	case c == '-' || '0' <= c && c <= '9':
		return p.number()
	case c == 't':
		return p.word("true", Value{kind: kindBool, num: 1})
	case c == 'f':
		return p.word("false", Value{kind: kindBool})
	case c == 'n':
		return p.word("null", Value{kind: kindNull})
	}
	return Value{}, p.fail("a value")
}

func (p *parser) word(w string, v Value) (Value, error) {
	if !strings.HasPrefix(p.src[p.pos:], w) {
		return Value{}, p.fail("a value")
	}
	p.pos += len(w)
	return v, nil
}

// open enters an array or object at its opening bracket; it reports
// whether the container is empty, having read its closing bracket then.
func (p *parser) open(closing byte) (empty bool, err error) {
	if p.depth++; p.depth > maxDepth {
		return false, p.fail("at most " + strconv.Itoa(maxDepth) + " levels of nesting")
	}
	p.pos++
	p.space()
	if p.peek() == closing {
		p.pos++
		p.depth--
		return true, nil
	}
	return false, nil
}

// more reads the separator after a member or element: it reports whether
// another one follows, or consumes the closing bracket.
func (p *parser) more(closing byte) (bool, error) {
	p.space()
	switch p.peek() {
	case ',':
		p.pos++
		p.space()
		return true, nil
	case closing:
		p.pos++
		p.depth--
		return false, nil
	}
	return false, p.fail("',' or '" + string(closing) + "'")
}

func (p *parser) object() (Value, error) {
	v := Value{kind: kindObject}
	if empty, err := p.open('}'); empty || err != nil {
		return v, err
	}
	for {
		key, err := p.member()
		if err != nil {
			return v, err
		}
		item, err := p.value()
		if err != nil {
			return v, err
		}
		v.keys = append(v.keys, key)
		v.items = append(v.items, item)
		if next, err := p.more('}'); !next {
			return v, err
		}
	}
}

func (p *parser) array() (Value, error) {
	v := Value{kind: kindArray}
	if empty, err := p.open(']'); empty || err != nil {
		return v, err
	}
	for {
		item, err := p.value()
		if err != nil {
			return v, err
		}
		v.items = append(v.items, item)
		if next, err := p.more(']'); !next {
			return v, err
		}
	}
}

// member reads an object member's key and the colon after it, up to its
// value.
func (p *parser) member() (string, error) {
	key, err := p.key()
	if err != nil {
		return "", err
	}
	p.space()
	if p.peek() != ':' {
		return "", p.fail("':' after an object key")
	}
	p.pos++
	p.space()
	return key, nil
}

// key reads an object key: a string, or in relaxed mode also an unquoted
// name such as $exists or credential.subject.email.
func (p *parser) key() (string, error) {
	c := p.peek()
	if c == '"' || c == '\'' && p.relaxed {
		return p.string()
	}
	if !p.relaxed {
		return "", p.fail("a quoted object key")
	}
	if !isNameStart(c) {
		return "", p.fail("an object key")
	}
	start := p.pos
	for p.pos < len(p.src) && (isNameStart(p.src[p.pos]) || isNamePart(p.src[p.pos])) {
		p.pos++
	}
	return p.src[start:p.pos], nil
}

func isNameStart(c byte) bool { return isLetter(c) || c == '_' || c == '$' }

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isNamePart(c byte) bool { return '0' <= c && c <= '9' || c == '.' }
