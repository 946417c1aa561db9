package sdkjson

import (
	"slices"
	"strings"
)

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
// is Invalid. Values share their elements; treat them as immutable.
type Value struct {
	kind Kind
	num  float64 // a number, or 1 for true
	str  string
	list []Member // object members, or array elements with empty keys
}

// Member is one name/value pair of an object.
type Member struct {
	Key   string
	Value Value
}

// StringValue returns a JSON string.
func StringValue(s string) Value { return Value{kind: String, str: s} }

// Kind returns the kind of v.
func (v Value) Kind() Kind { return v.kind }

// Str returns a string value ("" for other kinds).
func (v Value) Str() string { return v.str }

// Num returns a number value (0 for other kinds).
func (v Value) Num() float64 {
	if v.kind != Number {
		return 0
	}
	return v.num
}

// Bool returns a boolean value (false for other kinds).
func (v Value) Bool() bool { return v.kind == Bool && v.num != 0 }

// Len returns the number of elements of an array or members of an object.
func (v Value) Len() int { return len(v.list) }

// Elem returns the i-th element of an array.
func (v Value) Elem(i int) Value { return v.list[i].Value }

// Members returns the members of an object in their order (nil for other kinds).
func (v Value) Members() []Member {
	if v.kind != Object {
		return nil
	}
	return v.list
}

// Get returns the value of the object member named key.
func (v Value) Get(key string) (Value, bool) {
	for _, m := range v.Members() {
		if m.Key == key {
			return m.Value, true
		}
	}
	return Value{}, false
}

// Value reads the next value whole.
func (d *Decoder) Value() Value {
	switch k := d.Kind(); k {
	case Null:
		d.Null()
		return Value{kind: Null}
	case Bool:
		v := Value{kind: Bool}
		if d.Bool() {
			v.num = 1
		}
		return v
	case Number:
		return Value{kind: Number, num: d.Number()}
	case String:
		return Value{kind: String, str: d.Str()}
	case Array, Object:
		return d.list(k)
	}
	d.Skip() // reports the error
	return Value{}
}

// SortedValue reads the next value with the members of every object, at
// every depth, in ascending key order by UTF-16 code units, as the SDKs'
// sortJSONObject orders credential subjects and service properties.
func (d *Decoder) SortedValue() Value {
	d.sorting = true
	v := d.Value()
	d.sorting = false
	return v
}

// list reads an array or object. Its elements gather on the decoder's
// scratch stack (nested values above them) and are copied out once, at their
// final size and, when the decoder is sorting, in key order. An object is
// built as JSON.parse builds it: a repeated key keeps its first position and
// takes its last value.
func (d *Decoder) list(k Kind) Value {
	if d.scratch == nil {
		d.scratch = make([]Member, 0, 8)
	}
	base := len(d.scratch)
	if k == Object && d.sorting {
		for m := d.Object(); m.Next(); {
			key, v := m.Key(), d.Value()
			d.scratch = append(d.scratch, Member{Key: key, Value: v})
		}
		return Value{kind: Object, list: d.popSorted(base)}
	}
	var index map[string]int // built once an object has many members
	if k == Array {
		for e := d.Array(); e.Next(); {
			v := d.Value()
			d.scratch = append(d.scratch, Member{Value: v})
		}
	} else {
		for m := d.Object(); m.Next(); {
			key, v := m.Key(), d.Value()
			members := d.scratch[base:]
			if i, ok := lookup(members, index, key); ok {
				members[i].Value = v
				continue
			}
			d.scratch = append(d.scratch, Member{Key: key, Value: v})
			if n := len(d.scratch) - base; n == 16 {
				index = make(map[string]int)
				for i, mem := range d.scratch[base:] {
					index[mem.Key] = i
				}
			} else if index != nil {
				index[key] = n - 1
			}
		}
	}
	items := d.scratch[base:]
	list := make([]Member, len(items))
	copy(list, items)
	d.scratch = d.scratch[:base]
	return Value{kind: k, list: list}
}

// popSorted takes the members of an object off the scratch stack from base
// on and returns them in key order, a repeated key once with its last
// value. It sorts the keys with their positions (by key, then position, so
// that the last of a repeated key ends its run) rather than the members, so
// that each member is written once, into its final place; no map is needed.
func (d *Decoder) popSorted(base int) []Member {
	items := d.scratch[base:]
	type keyAt struct {
		key string
		at  int
	}
	order := make([]keyAt, 0, len(items))
	for i := range items {
		order = append(order, keyAt{items[i].Key, i})
	}
	if slices.ContainsFunc(order, func(k keyAt) bool { return hasUTF16Divergence(k.key) }) {
		slices.SortFunc(order, func(a, b keyAt) int {
			if c := CompareUTF16(a.key, b.key); c != 0 {
				return c
			}
			return a.at - b.at
		})
	} else { // byte order is the same, and faster
		slices.SortFunc(order, func(a, b keyAt) int {
			if c := strings.Compare(a.key, b.key); c != 0 {
				return c
			}
			return a.at - b.at
		})
	}
	list := make([]Member, 0, len(items))
	for n, k := range order {
		if n+1 < len(order) && order[n+1].key == k.key {
			continue // a later member has the same key
		}
		list = append(list, items[k.at])
	}
	d.scratch = d.scratch[:base]
	return list
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

// hasUTF16Divergence reports whether s holds a byte that leads a sequence
// CompareUTF16 orders otherwise than bytes do (0xEE to 0xF4): without one,
// byte order is UTF-16 order.
func hasUTF16Divergence(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xEE {
			return true
		}
	}
	return false
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
