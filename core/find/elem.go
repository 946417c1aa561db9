package find

import (
	"strconv"
	"strings"
)

// elem is one JSON value under test, in any form a condition matches: a
// node of a parsed Value, the raw JSON text of the value inside a
// document, read in place (raw.go), or the value in encoded form
// (encoded.go). The zero elem is a missing value. Every form answers the
// same few questions, so every operator is written once for all.
type elem struct {
	val *Value // parsed form; nil for raw text and the encoded form
	raw string // raw JSON text of the value, or its encoded form; "" when missing (or parsed)
	id  string // in encoded form, the id of the document (what tagID stands for)
	enc bool   // raw is in encoded form
}

func (e elem) kind() kind {
	switch {
	case e.val != nil:
		return e.val.kind
	case e.raw == "":
		return kindMissing
	case e.enc:
		return encKinds[e.raw[0]]
	}
	switch e.raw[0] {
	case '{':
		return kindObject
	case '[':
		return kindArray
	case '"':
		return kindString
	case 't', 'f':
		return kindBool
	case 'n':
		return kindNull
	}
	return kindNumber
}

// encKinds are the kinds of the encoded form's tags (any tag an item has:
// encLen yields no other).
var encKinds = [256]kind{
	tagNull: kindNull, tagFalse: kindBool, tagTrue: kindBool, tagNumber: kindNumber,
	tagString: kindString, tagID: kindString, tagIDMore: kindString, tagObject: kindObject, tagArray: kindArray,
}

func (e elem) number() float64 {
	switch {
	case e.val != nil:
		return e.val.num
	case e.enc:
		return encNumber(e.raw)
	}
	f, _ := strconv.ParseFloat(e.raw, 64)
	return f
}

func (e elem) boolean() bool {
	switch {
	case e.val != nil:
		return e.val.num != 0
	case e.enc:
		return e.raw[0] == tagTrue
	}
	return e.raw[0] == 't'
}

func (e elem) string() string {
	switch {
	case e.val != nil:
		return e.val.str
	case !e.enc:
		return rawUnquote(e.raw)
	case e.raw[0] == tagID:
		return e.id
	case e.raw[0] == tagIDMore:
		return e.id + encBody(e.raw)
	}
	return encBody(e.raw)
}

// compareString compares the string value e with s, as
// strings.Compare(e.string(), s) does, without joining an id to the rest
// of the string in encoded form.
func (e elem) compareString(s string) int {
	if !e.enc || e.raw[0] != tagIDMore {
		return strings.Compare(e.string(), s)
	}
	n := min(len(e.id), len(s))
	if c := strings.Compare(e.id[:n], s[:n]); c != 0 {
		return c
	}
	if n < len(e.id) {
		return 1 // s is a proper prefix of the id
	}
	return strings.Compare(encBody(e.raw), s[n:])
}

// field returns the object member named by s, or for an array (the root of
// an $elemMatch item) the element at the position s names.
func (e elem) field(s *step) elem {
	if e.val != nil {
		if e.val.kind == kindArray {
			if s.index >= 0 && s.index < len(e.val.items) {
				return elem{val: &e.val.items[s.index]}
			}
			return elem{}
		}
		if f := e.val.field(s.name); f != nil {
			return elem{val: f}
		}
		return elem{}
	}
	isArray := e.kind() == kindArray
	if isArray && s.index < 0 {
		return elem{}
	}
	switch {
	case !e.enc && isArray:
		return elem{raw: rawElement(e.raw, s.index)}
	case !e.enc:
		return elem{raw: rawMember(e.raw, s.name)}
	case isArray:
		return elem{raw: encElement(e.raw, s.index), id: e.id, enc: true}
	}
	return elem{raw: encMember(e.raw, s), id: e.id, enc: true}
}

// each calls fn for the members of an object or the elements of an array,
// in order, until fn returns true; it reports whether fn did. For array
// elements the key is "".
func (e elem) each(fn func(key string, x elem) bool) bool {
	switch {
	case e.val != nil:
		for i := range e.val.items {
			var key string
			if e.val.kind == kindObject {
				key = e.val.keys[i]
			}
			if fn(key, elem{val: &e.val.items[i]}) {
				return true
			}
		}
		return false
	case e.enc:
		for it := newEncItems(e.raw); ; {
			_, key, value, ok := it.next()
			if !ok {
				return false
			}
			if fn(key, elem{raw: value, id: e.id, enc: true}) {
				return true
			}
		}
	}
	for it := newRawItems(e.raw); ; {
		key, value, ok := it.next()
		if !ok {
			return false
		}
		if fn(key, elem{raw: value}) {
			return true
		}
	}
}
