package abi

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/didlight/didlight/core/jsontext"
)

// input is an input type that reads itself from a decoder: member reads
// the value of the member the decoder is at into the field d.field names,
// and reports whether there is such a field.
type input interface {
	typeName() string // as reflect names it: "abi.ParseDIDInput"
	member(d *decoder) bool
}

// decodeInput reads one JSON object into v, refusing unknown members and
// anything after the object, as encoding/json's Decoder with
// DisallowUnknownFields does.
func decodeInput(in []byte, v input) error {
	end, err := jsontext.Scan(in)
	if err != nil {
		return inputError("%v", err)
	}
	d := decoder{s: in[:end]}
	d.object(v)
	if err := d.result(); err != nil {
		return inputError("%v", err)
	}
	if jsontext.SkipSpace(in, end) < len(in) {
		return inputError("data after the input object")
	}
	return nil
}

// decoder fills input types from JSON text that jsontext.Scan has checked. Like
// encoding/json, it goes on after a value of the wrong type or an unknown
// member, and reports the first; an error from time.Time.UnmarshalJSON ends
// decoding at once and takes precedence.
type decoder struct {
	s      []byte
	i      int
	fatal  error
	saved  error
	strct  string   // the struct being filled,
	fields []string // and the fields leading to the value being read
	key    string   // the key of the member being read
}

func (d *decoder) result() error {
	if d.fatal != nil {
		return d.fatal
	}
	return d.saved
}

func (d *decoder) space() { d.i = jsontext.SkipSpace(d.s, d.i) }

// next returns the first byte of the next value.
func (d *decoder) next() byte {
	d.space()
	return d.s[d.i]
}

// null reads a null if one comes next.
func (d *decoder) null() bool {
	if d.next() != 'n' {
		return false
	}
	d.i += len("null")
	return true
}

// skip reads the next value and returns its text.
func (d *decoder) skip() []byte {
	d.space()
	start := d.i
	d.i, _ = jsontext.ValidValue(d.s, d.i) // checked: cannot fail
	return d.s[start:d.i]
}

// mismatch skips a value that typ (as reflect names the Go type) cannot
// hold, recording encoding/json's error.
func (d *decoder) mismatch(typ string) {
	value := map[byte]string{'{': "object", '[': "array", '"': "string", 't': "bool", 'f': "bool"}[d.next()]
	if value == "" {
		value = "number"
	}
	d.skip()
	d.typeError(value, typ)
}

// typeError records a json.UnmarshalTypeError, with the struct and field
// path encoding/json adds.
func (d *decoder) typeError(value, typ string) {
	if d.saved != nil {
		return
	}
	if d.strct == "" && len(d.fields) == 0 {
		d.saved = inputTypeError("json: cannot unmarshal " + value + " into Go value of type " + typ)
		return
	}
	d.saved = inputTypeError("json: cannot unmarshal " + value + " into Go struct field " + d.strct + "." + strings.Join(d.fields, ".") + " of type " + typ)
}

type inputTypeError string

func (e inputTypeError) Error() string { return string(e) }

// object reads an object into v; null leaves v as it is.
func (d *decoder) object(v input) {
	if d.null() {
		return
	}
	if d.next() != '{' {
		d.mismatch(v.typeName())
		return
	}
	outer := d.strct
	d.strct = strings.TrimPrefix(v.typeName(), "abi.")
	d.i++ // {
	for d.fatal == nil {
		if d.space(); d.s[d.i] == '}' {
			d.i++
			break
		}
		if d.s[d.i] == ',' {
			d.i++
			d.space()
		}
		d.key = d.unquote()
		d.space()
		d.i++ // :
		d.fields = append(d.fields, d.key)
		if !v.member(d) {
			d.skip()
			if d.saved == nil {
				d.saved = inputTypeError("json: unknown field " + strconv.Quote(d.key))
			}
		}
		d.fields = d.fields[:len(d.fields)-1]
	}
	d.strct = outer
}

// field reports whether the member being read is the field of that json
// name. Like encoding/json, it ignores case when no field has the exact
// name; no input type has two fields whose names differ only in case.
func (d *decoder) field(name string) bool {
	if !strings.EqualFold(d.key, name) {
		return false
	}
	d.fields[len(d.fields)-1] = name
	return true
}

// array reads an array of the Go type typ, calling elem for each element,
// and reports whether the value was an array. Callers read null first.
func (d *decoder) array(typ string, elem func()) bool {
	if d.next() != '[' {
		d.mismatch(typ)
		return false
	}
	d.i++ // [
	for d.fatal == nil {
		if d.space(); d.s[d.i] == ']' {
			d.i++
			break
		}
		if d.s[d.i] == ',' {
			d.i++
		}
		elem()
	}
	return true
}

// str reads a string into *dst; null leaves it.
func (d *decoder) str(dst *string) {
	if d.null() {
		return
	}
	if d.next() != '"' {
		d.mismatch("string")
		return
	}
	*dst = d.unquote()
}

// list reads an array into *dst as encoding/json reads one into a slice:
// null sets nil and [] a new empty slice; otherwise each element is read into
// the slice's own element at its index while within its capacity (so that a
// repeated member merges into what the first one read) and into a new zero
// element beyond it. A value that is no array leaves *dst as it is.
func list[T any](d *decoder, dst *[]T, typ string, elem func(*T)) {
	if d.null() {
		*dst = nil
		return
	}
	s := (*dst)[:0]
	if !d.array(typ, func() {
		if len(s) < cap(s) {
			s = s[:len(s)+1]
		} else {
			var zero T
			s = append(s, zero)
		}
		elem(&s[len(s)-1])
	}) {
		return
	}
	if len(s) == 0 {
		s = []T{}
	}
	*dst = s
}

// strings reads an array of strings into *dst.
func (d *decoder) strings(dst *[]string) { list(d, dst, "[]string", d.str) }

// boolean reads true or false into *dst; null leaves it.
func (d *decoder) boolean(dst *bool) {
	if d.null() {
		return
	}
	if c := d.next(); c != 't' && c != 'f' {
		d.mismatch("bool")
		return
	}
	*dst = d.s[d.i] == 't'
	d.skip()
}

// integer reads an integer of the given Go type and size in bits; null
// leaves *dst.
func (d *decoder) integer(dst *int64, typ string, bits int, unsigned bool) {
	if d.null() {
		return
	}
	if c := d.next(); c != '-' && !jsontext.IsDigit(c) {
		d.mismatch(typ)
		return
	}
	lit := string(d.skip())
	var err error
	if unsigned {
		var u uint64
		u, err = strconv.ParseUint(lit, 10, bits)
		*dst = int64(u)
	} else {
		*dst, err = strconv.ParseInt(lit, 10, bits)
	}
	if err != nil {
		*dst = 0
		d.typeError("number "+lit, typ)
	}
}

// raw reads any value as its text, null included, as json.RawMessage does.
// The text is not copied: an input lives as long as its call.
func (d *decoder) raw(dst *json.RawMessage) { *dst = d.skip() }

// raws reads an array of raw values.
func (d *decoder) raws(dst *[]json.RawMessage) { list(d, dst, "[]json.RawMessage", d.raw) }

// time reads a time with time.Time.UnmarshalJSON, as encoding/json does.
func (d *decoder) time(dst *time.Time) {
	if err := dst.UnmarshalJSON(d.skip()); err != nil && d.fatal == nil {
		d.fatal = err
	}
}

// unquote reads a string as encoding/json does: invalid UTF-8 and lone
// surrogates become U+FFFD.
func (d *decoder) unquote() string {
	d.i++ // "
	start := d.i
	for d.i < len(d.s) {
		d.i = jsontext.PlainRun(d.s, d.i, true)
		c := d.s[d.i]
		if c == '"' {
			d.i++
			return string(d.s[start : d.i-1])
		}
		if c == '\\' || c >= utf8.RuneSelf {
			break
		}
		d.i++
	}
	b := append([]byte(nil), d.s[start:d.i]...)
	for d.s[d.i] != '"' {
		switch c := d.s[d.i]; {
		case c == '\\':
			var r rune
			r, d.i = escape(d.s, d.i)
			b = utf8.AppendRune(b, r)
		case c < utf8.RuneSelf:
			b = append(b, c)
			d.i++
		default:
			r, n := utf8.DecodeRune(d.s[d.i:])
			b = utf8.AppendRune(b, r) // utf8.RuneError for an invalid byte
			d.i += n
		}
	}
	d.i++
	return string(b)
}

// escape decodes the escape at s[i] (a checked one) and returns the rune
// and the offset after it. A surrogate pair is one rune; a lone surrogate
// is U+FFFD.
func escape(s []byte, i int) (rune, int) {
	switch c := s[i+1]; c {
	case 'b':
		return '\b', i + 2
	case 'f':
		return '\f', i + 2
	case 'n':
		return '\n', i + 2
	case 'r':
		return '\r', i + 2
	case 't':
		return '\t', i + 2
	case 'u':
	default:
		return rune(c), i + 2
	}
	r := hex4(s[i+2:])
	if !utf16.IsSurrogate(r) {
		return r, i + 6
	}
	if len(s) >= i+12 && s[i+6] == '\\' && s[i+7] == 'u' {
		if pair := utf16.DecodeRune(r, hex4(s[i+8:])); pair != utf8.RuneError {
			return pair, i + 12
		}
	}
	return utf8.RuneError, i + 6
}

func hex4(s []byte) rune {
	var r rune
	for _, c := range s[:4] {
		switch {
		case c <= '9':
			c -= '0'
		case c <= 'F':
			c -= 'A' - 10
		default:
			c -= 'a' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}
