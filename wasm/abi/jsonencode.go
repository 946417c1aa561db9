package abi

import (
	"encoding/json"
	"strconv"

	"github.com/didlight/didlight/core/ela"
)

// Outputs are written without encoding/json too, byte for byte as its
// Encoder with SetEscapeHTML(false) writes them: members in field order,
// strings escaped as it escapes them, raw values (always compact here) as
// they are.

// output is an output type that writes itself as a JSON object.
type output interface {
	appendJSON(b []byte) []byte
}

// object writes the members of one JSON object.
type object struct {
	b []byte
	n int // members written
}

func newObject(b []byte) *object { return &object{b: append(b, '{')} }

func (o *object) key(k string) {
	if o.n > 0 {
		o.b = append(o.b, ',')
	}
	o.n++
	o.b = append(appendString(o.b, k), ':')
}

func (o *object) str(k, v string) {
	o.key(k)
	o.b = appendString(o.b, v)
}

// strOmit writes a string member unless it is empty (omitempty).
func (o *object) strOmit(k, v string) {
	if v != "" {
		o.str(k, v)
	}
}

func (o *object) boolean(k string, v bool) {
	o.key(k)
	o.b = strconv.AppendBool(o.b, v)
}

func (o *object) int(k string, v int64) {
	o.key(k)
	o.b = strconv.AppendInt(o.b, v, 10)
}

func (o *object) uint(k string, v uint64) {
	o.key(k)
	o.b = strconv.AppendUint(o.b, v, 10)
}

// intOmit writes a *int member unless it is nil (omitempty).
func (o *object) intOmit(k string, v *int) {
	if v != nil {
		o.int(k, int64(*v))
	}
}

// raw writes a raw JSON value; nil is null, as json.RawMessage writes it.
func (o *object) raw(k string, v json.RawMessage) {
	o.key(k)
	if v == nil {
		o.b = append(o.b, "null"...)
		return
	}
	o.b = append(o.b, v...)
}

// rawOmit writes a raw value unless it is empty (omitempty).
func (o *object) rawOmit(k string, v json.RawMessage) {
	if len(v) > 0 {
		o.raw(k, v)
	}
}

// array writes an array member of n elements, elem writing each; a nil
// slice (nil true) is null.
func (o *object) array(k string, n int, isNil bool, elem func(b []byte, i int) []byte) {
	o.key(k)
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

// strs writes an array of strings; nil is null.
func (o *object) strs(k string, v []string) {
	o.array(k, len(v), v == nil, func(b []byte, i int) []byte { return appendString(b, v[i]) })
}

// nested writes an object member.
func (o *object) nested(k string, v output) {
	o.key(k)
	o.b = v.appendJSON(o.b)
}

func (o *object) end() []byte { return append(o.b, '}') }

// appendString writes s as encoding/json does without HTML escaping.
func appendString(b []byte, s string) []byte { return ela.AppendJSONString(b, s, false) }
