package sdkjson

import "slices"

// Kind is the kind of a JSON value.
type Kind uint8

// The kinds of JSON values. Invalid marks the absence of a value.
const (
	Invalid Kind = iota
	Null
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"no value", "null", "boolean", "number", "string", "array", "object"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown kind"
}

// Value is a JSON value held in memory, for the parts of documents whose
// shape is free: service properties and credential subjects. The zero Value
// is Invalid.
type Value struct {
	kind    Kind
	b       bool
	num     float64
	str     string
	elems   []Value
	members []Member
}

// Member is one name/value pair of an object.
type Member struct {
	Key   string
	Value Value
}

// StringValue returns a JSON string.
func StringValue(s string) Value { return Value{kind: String, str: s} }

// ObjectValue returns a JSON object with the given members, in that order.
func ObjectValue(members []Member) Value { return Value{kind: Object, members: members} }

// Kind returns the kind of v.
func (v Value) Kind() Kind { return v.kind }

// Str returns a string value ("" for other kinds).
func (v Value) Str() string { return v.str }

// Num returns a number value (0 for other kinds).
func (v Value) Num() float64 { return v.num }

// Bool returns a boolean value (false for other kinds).
func (v Value) Bool() bool { return v.b }

// Elems returns the elements of an array (nil for other kinds).
func (v Value) Elems() []Value { return v.elems }

// Members returns the members of an object in their order (nil for other kinds).
func (v Value) Members() []Member { return v.members }

// Get returns the value of the member named key.
func (v Value) Get(key string) (Value, bool) {
	for _, m := range v.members {
		if m.Key == key {
			return m.Value, true
		}
	}
	return Value{}, false
}

// Value reads the next value whole.
func (d *Decoder) Value() Value {
	switch d.Kind() {
	case Null:
		d.Null()
		return Value{kind: Null}
	case Bool:
		return Value{kind: Bool, b: d.Bool()}
	case Number:
		return Value{kind: Number, num: d.Number()}
	case String:
		return Value{kind: String, str: d.Str()}
	case Array:
		var elems []Value
		for e := d.Array(); e.Next(); {
			elems = append(elems, d.Value())
		}
		return Value{kind: Array, elems: elems}
	case Object:
		return d.objectValue()
	}
	d.Skip() // reports the error
	return Value{}
}

// objectValue reads an object as JSON.parse builds it: a repeated key keeps
// its first position and takes its last value.
func (d *Decoder) objectValue() Value {
	var members []Member
	var index map[string]int // built once an object has many members
	for m := d.Object(); m.Next(); {
		key, val := m.Key(), d.Value()
		if i, ok := lookup(members, index, key); ok {
			members[i].Value = val
			continue
		}
		members = append(members, Member{Key: key, Value: val})
		if len(members) == 16 {
			index = make(map[string]int)
			for i, mem := range members {
				index[mem.Key] = i
			}
		} else if index != nil {
			index[key] = len(members) - 1
		}
	}
	return Value{kind: Object, members: members}
}

func lookup(members []Member, index map[string]int, key string) (int, bool) {
	if index != nil {
		i, ok := index[key]
		return i, ok
	}
	for i, m := range members {
		if m.Key == key {
			return i, true
		}
	}
	return 0, false
}

// Sorted returns v with the members of every object, at every depth, in
// ascending key order by UTF-16 code units, as the SDKs' sortJSONObject
// orders credential subjects and service properties. v is not changed.
func Sorted(v Value) Value {
	switch v.kind {
	case Array:
		elems := make([]Value, len(v.elems))
		for i, e := range v.elems {
			elems[i] = Sorted(e)
		}
		v.elems = elems
	case Object:
		members := make([]Member, len(v.members))
		for i, m := range v.members {
			members[i] = Member{Key: m.Key, Value: Sorted(m.Value)}
		}
		slices.SortFunc(members, func(a, b Member) int { return CompareUTF16(a.Key, b.Key) })
		v.members = members
	}
	return v
}

// CompareUTF16 compares two strings by their UTF-16 code units, the order of
// JavaScript's < on strings (and of Array.prototype.sort). It differs from
// Go's byte order only between characters above U+FFFF (surrogate pairs in
// UTF-16, so smaller) and U+E000–U+FFFF; in UTF-8 those are the sequences
// led by 0xF0–0xF4 and by 0xEE–0xEF.
func CompareUTF16(a, b string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		x, y := a[i], b[i]
		if x == y {
			continue
		}
		switch {
		case x >= 0xF0 && (y == 0xEE || y == 0xEF):
			return -1
		case y >= 0xF0 && (x == 0xEE || x == 0xEF):
			return 1
		}
		return int(x) - int(y)
	}
	return len(a) - len(b)
}
