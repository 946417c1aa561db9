package find

import (
	"strconv"
	"strings"

	"github.com/didlight/didlight/core/jsontext"
)

// elem is one JSON value under test, in any form a condition matches: a
// node of a parsed Value, the raw JSON text of the value inside a
// document, read in place (raw.go), or the value in encoded form
// (encoded.go). The zero elem is a missing value. Every form answers the
// same few questions, so every operator is written once for all.
type elem struct {
	val *Value // parsed form; nil for raw text and the encoded form
	raw string // raw JSON text of the value, or its encoded form; "" when missing (or parsed)
	// enc is, in encoded form, the head of the document raw is part of
	// (encRoot: its id, what tagID stands for); "" for raw JSON text. One
	// field both marks the form and holds the id: an elem is copied at
	// every step of a walk.
	enc string
}

func (e *elem) kind() kind {
	switch {
	case e.raw == "" && e.val != nil:
		return e.val.kind
	case e.raw == "":
		return kindMissing
	case e.enc != "": // first, as a scan of stored views asks most
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
	case e.enc != "":
		return encNumber(e.raw)
	}
	f, _ := strconv.ParseFloat(e.raw, 64)
	return f
}

func (e elem) boolean() bool {
	switch {
	case e.val != nil:
		return e.val.num != 0
	case e.enc != "":
		return e.raw[0] == tagTrue
	}
	return e.raw[0] == 't'
}

func (e elem) string() string {
	switch {
	case e.val != nil:
		return e.val.str
	case e.enc == "":
		return rawUnquote(e.raw)
	case e.raw[0] == tagID:
		return encID(e.enc)
	case e.raw[0] == tagIDMore:
		return encID(e.enc) + encBody(e.raw)
	}
	return encBody(e.raw)
}

// equalString reports whether the string value e is s; in encoded form a
// string of other bytes than s's length differs without a comparison.
func (e elem) equalString(s string) bool {
	if e.enc != "" && e.raw[0] == tagString {
		return encBody(e.raw) == s
	}
	return e.compareString(s) == 0
}

// compareString compares the string value e with s, as
// strings.Compare(e.string(), s) does, without joining an id to the rest
// of the string in encoded form.
func (e elem) compareString(s string) int {
	if e.enc == "" || e.raw[0] != tagIDMore {
		return strings.Compare(e.string(), s)
	}
	id := encID(e.enc)
	n := min(len(id), len(s))
	if c := strings.Compare(id[:n], s[:n]); c != 0 {
		return c
	}
	if n < len(id) {
		return 1 // s is a proper prefix of the id
	}
	return strings.Compare(encBody(e.raw), s[n:])
}

// enter moves e to the object member named by s, or for an array (the
// root of an $elemMatch item) to the element at the position s names; to
// a missing value if there is none. It changes e in place: a walk enters
// a value at every step, and an elem is several words long.
func (e *elem) enter(s *step) {
	if e.val != nil {
		var f *Value
		if e.val.kind != kindArray {
			f = e.val.field(s.name)
		} else if s.index >= 0 && s.index < len(e.val.items) {
			f = &e.val.items[s.index]
		}
		if f == nil {
			*e = elem{}
		}
		e.val = f
		return
	}
	if e.enc != "" && e.raw[0] == tagObject { // most steps of a scan
		e.raw = encMember(e.raw, s)
		return
	}
	isArray := e.kind() == kindArray
	switch {
	case isArray && s.index < 0:
		e.raw = ""
	case e.enc == "" && isArray:
		e.raw = rawElement(e.raw, s.index)
	case e.enc == "":
		e.raw = rawMember(e.raw, s.name)
	case isArray:
		e.raw = encElement(e.raw, s.index)
	default:
		e.raw = "" // a scalar has no members
	}
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
	case e.enc != "" && e.raw[0] == tagArray: // the common case, without encItems
		for elems := encBody(e.raw); ; {
			var value string
			if value, elems = encNext(elems); value == "" {
				return false
			}
			if fn("", elem{raw: value, enc: e.enc}) {
				return true
			}
		}
	case e.enc != "":
		for it := newEncItems(e.raw); ; {
			key, value, ok := it.next()
			if !ok {
				return false
			}
			if fn(key, elem{raw: value, enc: e.enc}) {
				return true
			}
		}
	}
	for it := jsontext.NewItems(e.raw, 0); ; {
		key, value, ok := it.Next()
		if !ok {
			return false
		}
		if fn(rawName(&it, key), elem{raw: value}) {
			return true
		}
	}
}
