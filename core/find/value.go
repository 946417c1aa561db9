package find

import (
	"math"
	"strconv"

	"github.com/didlight/didlight/core/excerpt"
)

// kind is the type of a JSON value, numbered in the store's comparison
// order so that values of different kinds compare by kind alone.
// (https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/:
// Null < Numbers < String < Object < Array < Boolean < Regular Expression.)
type kind uint8

const (
	kindNull kind = iota
	kindNumber
	kindString
	kindObject
	kindArray
	kindBool
	kindRegex   // only in conditions: a /pattern/flags literal
	kindMissing // no value: the field is absent; it never compares with a value
)

// Value is a parsed JSON document (or a value inside one) that a Condition
// can match many times without reading JSON text again. Object members
// keep their order, because the store compares embedded documents member
// by member. The zero Value is JSON null.
type Value struct {
	kind  kind
	num   float64  // a number; 1 or 0 for a boolean
	str   string   // a string; a regex literal as written, /pattern/flags
	keys  []string // object member names, in order
	items []Value  // array elements, or object member values (parallel to keys)
}

// ParseJSON parses one strict JSON value (RFC 8259) for MatchValue.
// Numbers become float64; text must be UTF-8.
func ParseJSON(data []byte) (Value, error) {
	return parse(string(data), false)
}

// field returns the first member named name, or nil.
func (v *Value) field(name string) *Value {
	for i, k := range v.keys {
		if k == name {
			return &v.items[i]
		}
	}
	return nil
}

// String renders v as compact JSON; regex literals keep their /pattern/flags
// form, so the text parses back to an equal value.
func (v Value) String() string {
	return string(v.appendJSON(nil))
}

// brief renders v for an error message: as String does, cut to its start
// when long (see package excerpt).
func (v Value) brief() string { return excerpt.Cut(v.String()) }

func (v *Value) appendJSON(b []byte) []byte {
	switch v.kind {
	case kindNumber:
		return appendNumber(b, v.num)
	case kindString:
		return appendString(b, v.str)
	case kindBool:
		return strconv.AppendBool(b, v.num != 0)
	case kindRegex:
		return append(b, v.str...)
	case kindArray:
		b = append(b, '[')
		for i := range v.items {
			if i > 0 {
				b = append(b, ',')
			}
			b = v.items[i].appendJSON(b)
		}
		return append(b, ']')
	case kindObject:
		b = append(b, '{')
		for i, k := range v.keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(appendString(b, k), ':')
			b = v.items[i].appendJSON(b)
		}
		return append(b, '}')
	}
	return append(b, "null"...)
}

// appendNumber formats f as encoding/json does: plain decimals for
// magnitudes in [1e-6, 1e21), exponent form outside, shortest round-trip digits.
func appendNumber(b []byte, f float64) []byte {
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// 1e-07 reads better as 1e-7.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// appendString quotes s as a JSON string, escaping only what JSON requires.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}
