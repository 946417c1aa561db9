package find

import "strconv"

// elem is one JSON value under test, in either form a condition matches:
// a node of a parsed Value, or the raw JSON text of the value inside a
// document, read in place (raw.go). The zero elem is a missing value.
// Both forms answer the same few questions, so every operator is written
// once for both.
type elem struct {
	val *Value  // parsed form; nil for raw text
	raw string  // raw JSON text of the value; "" when missing (or parsed)
	doc *rawDoc // the document raw is part of, when it has a skip table
}

func (e elem) kind() kind {
	if e.val != nil {
		return e.val.kind
	}
	if e.raw == "" {
		return kindMissing
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

func (e elem) number() float64 {
	if e.val != nil {
		return e.val.num
	}
	f, _ := strconv.ParseFloat(e.raw, 64)
	return f
}

func (e elem) boolean() bool {
	if e.val != nil {
		return e.val.num != 0
	}
	return e.raw[0] == 't'
}

func (e elem) string() string {
	if e.val != nil {
		return e.val.str
	}
	return rawUnquote(e.raw)
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
	if e.raw[0] == '[' {
		if s.index < 0 {
			return elem{}
		}
		return elem{raw: rawElement(e.doc, e.raw, s.index), doc: e.doc}
	}
	return elem{raw: rawMember(e.doc, e.raw, s.name), doc: e.doc}
}

// each calls fn for the members of an object or the elements of an array,
// in order, until fn returns true; it reports whether fn did. For array
// elements the key is "".
func (e elem) each(fn func(key string, x elem) bool) bool {
	if e.val != nil {
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
	}
	for it := newRawItems(e.doc, e.raw); ; {
		key, value, ok := it.next()
		if !ok {
			return false
		}
		if fn(key, elem{raw: value, doc: e.doc}) {
			return true
		}
	}
}
