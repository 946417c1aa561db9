package sdkjson

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/didlight/didlight/core/excerpt"
	"github.com/didlight/didlight/core/jsontext"
)

// MaxDepth is how deeply arrays and objects may nest. Deeper input is
// rejected rather than recursed into.
const MaxDepth = 128

// Decoder reads one JSON text. Create it with NewDecoder.
type Decoder struct {
	s       string
	i       int
	path    []step
	err     error
	depth   int
	scratch []Member // a stack for values being read; what it keeps past its length goes with the decoder, which lives for one JSON text
	sorting bool     // objects are being read with their members sorted
}

// step is one level of the path to the value being read: a member key or
// an array index.
type step struct {
	key   string
	index int
}

// Error is a syntax or content error, with where it happened.
type Error struct {
	Path   string // JSON path of the value being read, "" for the top level
	Offset int    // byte offset in the input
	Err    error
}

func (e *Error) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("sdkjson: offset %d: %v", e.Offset, e.Err)
	}
	return fmt.Sprintf("sdkjson: %s (offset %d): %v", excerpt.Cut(e.Path), e.Offset, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// NewDecoder returns a decoder over a copy of b.
func NewDecoder(b []byte) *Decoder { return &Decoder{s: string(b), path: make([]step, 0, 8)} }

// Err returns the first error met, or nil.
func (d *Decoder) Err() error { return d.err }

// Fail records err, with the current path and offset, unless an error is
// already recorded. Callers use it for content errors found while decoding.
func (d *Decoder) Fail(err error) {
	if d.err == nil {
		d.err = &Error{Path: d.Path(), Offset: d.i, Err: err}
	}
}

func (d *Decoder) failf(format string, args ...any) { d.Fail(fmt.Errorf(format, args...)) }

// Path returns the path of the value being read, such as "proof[0].creator".
func (d *Decoder) Path() string {
	var b strings.Builder
	for _, s := range d.path {
		switch {
		case s.index >= 0:
			fmt.Fprintf(&b, "[%d]", s.index)
			continue
		case s.key == "":
			continue
		case b.Len() > 0:
			b.WriteByte('.')
		}
		b.WriteString(s.key)
	}
	return b.String()
}

// Finish reports the first error, or an error if anything but whitespace
// follows the value that was read.
func (d *Decoder) Finish() error {
	d.skipSpace()
	if d.err == nil && d.i < len(d.s) {
		d.failf("unexpected %s after the JSON value", d.describe())
	}
	return d.err
}

func (d *Decoder) skipSpace() { d.i = jsontext.SkipSpace(d.s, d.i) }

// Kind reports the kind of the next value without reading it; Invalid at
// the end of the input or after an error.
func (d *Decoder) Kind() Kind {
	if d.err != nil {
		return Invalid
	}
	d.skipSpace()
	if d.i >= len(d.s) {
		return Invalid
	}
	switch c := d.s[d.i]; {
	case c == '"':
		return String
	case c == '{':
		return Object
	case c == '[':
		return Array
	case c == 't' || c == 'f':
		return Bool
	case c == 'n':
		return Null
	case c == '-' || c >= '0' && c <= '9':
		return Number
	}
	return Invalid
}

// describe names the next token for error messages.
func (d *Decoder) describe() string {
	if d.i >= len(d.s) {
		return "end of input"
	}
	if k := d.Kind(); k != Invalid {
		return k.String()
	}
	return strconv.QuoteRune(rune(d.s[d.i]))
}

func (d *Decoder) expect(k Kind) bool {
	if got := d.Kind(); got != k {
		if d.err == nil {
			d.failf("want %s, found %s", k, d.describe())
		}
		return false
	}
	return true
}

// Null reads a null if one comes next and reports whether it did.
func (d *Decoder) Null() bool {
	if d.Kind() != Null {
		return false
	}
	return d.literal("null")
}

// Bool reads true or false.
func (d *Decoder) Bool() bool {
	if !d.expect(Bool) {
		return false
	}
	if d.s[d.i] == 't' {
		return d.literal("true")
	}
	d.literal("false")
	return false
}

func (d *Decoder) literal(word string) bool {
	if !strings.HasPrefix(d.s[d.i:], word) {
		d.failf("invalid literal, want %s", word)
		return false
	}
	d.i += len(word)
	return true
}

// Number reads a number as JSON.parse does: a double, ±Inf when out of range.
func (d *Decoder) Number() float64 {
	if !d.expect(Number) {
		return 0
	}
	start := d.i
	if d.s[d.i] == '-' {
		d.i++
	}
	switch {
	case d.i < len(d.s) && d.s[d.i] == '0':
		d.i++
	case d.digits() == 0:
		d.failf("invalid number")
		return 0
	}
	if d.i < len(d.s) && d.s[d.i] == '.' {
		d.i++
		if d.digits() == 0 {
			d.failf("invalid number: no digits after the decimal point")
			return 0
		}
	}
	if d.i < len(d.s) && (d.s[d.i] == 'e' || d.s[d.i] == 'E') {
		d.i++
		if d.i < len(d.s) && (d.s[d.i] == '+' || d.s[d.i] == '-') {
			d.i++
		}
		if d.digits() == 0 {
			d.failf("invalid number: no digits in the exponent")
			return 0
		}
	}
	f, err := strconv.ParseFloat(d.s[start:d.i], 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		d.failf("invalid number %s", excerpt.Quote(d.s[start:d.i]))
	}
	return f
}

func (d *Decoder) digits() int {
	n := 0
	for d.i < len(d.s) && d.s[d.i] >= '0' && d.s[d.i] <= '9' {
		d.i++
		n++
	}
	return n
}

// Int reads a number that must be an integer within ±2^53.
func (d *Decoder) Int() int64 {
	f := d.Number()
	if d.err == nil && (f != math.Trunc(f) || math.Abs(f) > 1<<53) {
		d.failf("want an integer, found %v", f)
		return 0
	}
	return int64(f)
}

// Str reads a string.
func (d *Decoder) Str() string {
	if !d.expect(String) {
		return ""
	}
	start := d.i + 1
	i := jsontext.PlainRun(d.s, start, true) // base64 payloads are long plain runs
	for i < len(d.s) && plain[d.s[i]] {
		i++
	}
	if i < len(d.s) && d.s[i] == '"' {
		d.i = i + 1
		return d.s[start:i]
	}
	return d.slowStr(start, i)
}

// plain marks the bytes a string may hold as they are: printable ASCII
// other than '"' and '\\'.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// slowStr reads the rest of a string whose bytes from i on are not all plain:
// UTF-8, escapes, control characters or the end of the input.
func (d *Decoder) slowStr(start, i int) string {
	for ; i < len(d.s); i++ {
		switch c := d.s[i]; {
		case c == '"':
			d.i = i + 1
			s := d.s[start:i]
			if !utf8.ValidString(s) {
				d.i = start
				d.failf("string is not valid UTF-8")
				return ""
			}
			return s
		case c == '\\':
			return d.unescape(start, i)
		case c < 0x20:
			d.i = i
			d.failf("control character %#02x in a string", c)
			return ""
		}
	}
	d.i = len(d.s)
	d.failf("unterminated string")
	return ""
}

// unescape reads the rest of a string that has an escape at i.
func (d *Decoder) unescape(start, i int) string {
	b := make([]byte, 0, i-start+16)
	b = append(b, d.s[start:i]...)
	for i < len(d.s) {
		c := d.s[i]
		switch {
		case c == '"':
			d.i = i + 1
			if !utf8.Valid(b) {
				d.failf("string is not valid UTF-8")
				return ""
			}
			return string(b)
		case c < 0x20:
			d.i = i
			d.failf("control character %#02x in a string", c)
			return ""
		case c != '\\':
			b = append(b, c)
			i++
			continue
		}
		if i+1 >= len(d.s) {
			break
		}
		i += 2
		switch e := d.s[i-1]; e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, n := d.escapedRune(i)
			if n == 0 {
				return ""
			}
			b = utf8.AppendRune(b, r)
			i += n
		default:
			d.i = i - 1
			d.failf("invalid escape \\%c", e)
			return ""
		}
	}
	d.i = len(d.s)
	d.failf("unterminated string")
	return ""
}

// escapedRune decodes the hex digits of a \u escape starting at i (and of
// a second escape when the first is a high surrogate). It returns the rune
// and the number of bytes used after the first "\u", or 0 on error.
func (d *Decoder) escapedRune(i int) (rune, int) {
	r1, ok := hex4(d.s, i)
	if !ok {
		d.i = i
		d.failf("invalid \\u escape")
		return 0, 0
	}
	if !utf16.IsSurrogate(r1) {
		return r1, 4
	}
	if r1 < 0xDC00 && strings.HasPrefix(d.s[i+4:], `\u`) {
		if r2, ok := hex4(d.s, i+6); ok {
			if r := utf16.DecodeRune(r1, r2); r != utf8.RuneError {
				return r, 10
			}
		}
	}
	d.i = i
	d.failf("\\u%04x is a lone surrogate", r1)
	return 0, 0
}

func hex4(s string, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[i : i+4]) {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// Members iterates over the members of an object:
//
//	for m := d.Object(); m.Next(); {
//		switch m.Key() { ... read the value ... }
//	}
//
// Every member's value must be read (or skipped) before Next is called again.
type Members struct {
	d   *Decoder
	n   int // members read, or -1 once the object is closed
	key string
}

// Object starts reading an object.
func (d *Decoder) Object() Members {
	if !d.open(Object) {
		return Members{d: d, n: -1}
	}
	d.path = append(d.path, step{index: -1})
	return Members{d: d}
}

func (d *Decoder) open(k Kind) bool {
	if !d.expect(k) {
		return false
	}
	if d.depth >= MaxDepth {
		d.failf("nested more than %d levels deep", MaxDepth)
		return false
	}
	d.depth++
	d.i++
	return true
}

// Next moves to the next member and reports whether there is one.
func (m *Members) Next() bool {
	d := m.d
	if !d.advance(&m.n, '}', "an object member") {
		return false
	}
	d.path[len(d.path)-1].key = "" // the key is not part of the path while it is read
	key := d.Str()
	d.skipSpace()
	if d.err == nil && (d.i >= len(d.s) || d.s[d.i] != ':') {
		d.failf("want ':' after member name %s, found %s", excerpt.Quote(key), d.describe())
	}
	if d.err != nil {
		return false
	}
	d.i++
	m.key = key
	d.path[len(d.path)-1].key = key
	return true
}

// advance moves past the separator before item *n of an array or object
// that ends with closer, and reports whether there is such an item. At the
// closer it leaves the array or object and sets *n to -1.
func (d *Decoder) advance(n *int, closer byte, item string) bool {
	if *n < 0 || d.err != nil {
		return false
	}
	d.skipSpace()
	if d.i < len(d.s) && d.s[d.i] == closer {
		d.i++
		*n = -1
		d.depth--
		d.path = d.path[:len(d.path)-1]
		return false
	}
	if *n > 0 {
		if d.i >= len(d.s) || d.s[d.i] != ',' {
			d.failf("want ',' or '%c' after %s, found %s", closer, item, d.describe())
			return false
		}
		d.i++
	}
	*n++
	return true
}

// Key returns the current member's name.
func (m *Members) Key() string { return m.key }

// Elements iterates over the elements of an array, like Members.
type Elements struct {
	d *Decoder
	n int // elements read, or -1 once the array is closed
}

// Array starts reading an array.
func (d *Decoder) Array() Elements {
	if !d.open(Array) {
		return Elements{d: d, n: -1}
	}
	d.path = append(d.path, step{index: 0})
	return Elements{d: d}
}

// Next moves to the next element and reports whether there is one.
func (e *Elements) Next() bool {
	if !e.d.advance(&e.n, ']', "an array element") {
		return false
	}
	e.d.path[len(e.d.path)-1].index = e.n - 1
	return true
}

// Index returns the current element's position.
func (e *Elements) Index() int { return e.n - 1 }

// Field names a string member of an object and where to store its value.
type Field struct {
	Key string
	Dst *string
}

// Fields reads an object of strings: each member a field names is stored in
// its destination, the others are skipped, and null counts as absent.
func (d *Decoder) Fields(fields ...Field) {
	for m := d.Object(); m.Next(); {
		if d.Null() {
			continue
		}
		i := slices.IndexFunc(fields, func(f Field) bool { return f.Key == m.Key() })
		if i < 0 {
			d.Skip()
			continue
		}
		*fields[i].Dst = d.Str()
	}
}

// Skip reads and discards the next value.
func (d *Decoder) Skip() {
	switch d.Kind() {
	case Object:
		for m := d.Object(); m.Next(); {
			d.Skip()
		}
	case Array:
		for e := d.Array(); e.Next(); {
			d.Skip()
		}
	case String:
		d.Str()
	case Number:
		d.Number()
	case Bool:
		d.Bool()
	case Null:
		d.Null()
	default:
		if d.err == nil {
			d.failf("want a value, found %s", d.describe())
		}
	}
}

// Raw reads the next value and returns its JSON text as it appears in the input.
func (d *Decoder) Raw() []byte {
	d.skipSpace()
	start := d.i
	d.Skip()
	if d.err != nil {
		return nil
	}
	return []byte(d.s[start:d.i])
}
