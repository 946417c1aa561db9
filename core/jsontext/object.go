package jsontext

import "strconv"

// Object writes the members of one JSON object in the order written, its
// keys and strings escaped in one dialect, as encoding/json writes a
// struct's fields. The zero value is not usable; start with [NewObject].
type Object struct {
	b []byte
	n int // members written
	d Dialect
}

// NewObject starts an object at the end of dst, escaping in dialect d.
func NewObject(dst []byte, d Dialect) Object { return Object{b: append(dst, '{'), d: d} }

// Key writes the key of the next member; the caller then appends its value
// with [Object.Value] or one of the typed methods.
func (o *Object) Key(k string) {
	if o.n > 0 {
		o.b = append(o.b, ',')
	}
	o.n++
	o.b = append(o.d.AppendString(o.b, k), ':')
}

// String writes a string member.
func (o *Object) String(k, v string) {
	o.Key(k)
	o.b = o.d.AppendString(o.b, v)
}

// StringOmit writes a string member unless it is empty (omitempty).
func (o *Object) StringOmit(k, v string) {
	if v != "" {
		o.String(k, v)
	}
}

// Bool writes a boolean member.
func (o *Object) Bool(k string, v bool) {
	o.Key(k)
	o.b = strconv.AppendBool(o.b, v)
}

// Int writes an integer member.
func (o *Object) Int(k string, v int64) {
	o.Key(k)
	o.b = strconv.AppendInt(o.b, v, 10)
}

// Uint writes an unsigned integer member.
func (o *Object) Uint(k string, v uint64) {
	o.Key(k)
	o.b = strconv.AppendUint(o.b, v, 10)
}

// Raw writes a member whose value is already JSON; nil is null, as
// json.RawMessage writes it.
func (o *Object) Raw(k string, v []byte) {
	o.Key(k)
	if v == nil {
		o.b = append(o.b, "null"...)
		return
	}
	o.b = append(o.b, v...)
}

// RawOmit writes a raw member unless it is empty (omitempty).
func (o *Object) RawOmit(k string, v []byte) {
	if len(v) > 0 {
		o.Raw(k, v)
	}
}

// Value writes a member whose value appendValue appends to its argument.
func (o *Object) Value(k string, appendValue func(dst []byte) []byte) {
	o.Key(k)
	o.b = appendValue(o.b)
}

// Array writes an array member of n elements, elem appending element i; a
// nil slice (isNil) is null, as encoding/json writes it.
func (o *Object) Array(k string, n int, isNil bool, elem func(dst []byte, i int) []byte) {
	o.Key(k)
	if isNil {
		o.b = append(o.b, "null"...)
		return
	}
	o.b = append(o.b, '[')
	for i := range n {
		if i > 0 {
			o.b = append(o.b, ',')
		}
		o.b = elem(o.b, i)
	}
	o.b = append(o.b, ']')
}

// Strings writes an array of strings; nil is null.
func (o *Object) Strings(k string, v []string) {
	o.Array(k, len(v), v == nil, func(b []byte, i int) []byte { return o.d.AppendString(b, v[i]) })
}

// End closes the object and returns the text written, dst's included.
func (o *Object) End() []byte { return append(o.b, '}') }
