package find

import (
	"encoding/binary"
	"math"
	"slices"
	"strings"
)

// Encode returns the encoded form of the JSON document doc for a store to
// keep and scan with MatchEncoded, or the *SyntaxError of text that is not
// strict JSON.
func Encode(doc []byte) ([]byte, error) {
	v, err := ParseJSON(doc)
	if err != nil {
		return nil, err
	}
	var e encoder
	if v.kind == kindObject {
		if f := v.field("id"); f != nil && f.kind == kindString {
			e.id = f.str
		}
	}
	out := appendChunk(make([]byte, 0, len(doc)/2), e.id)
	if v.kind != kindObject || repeatsName(v.keys) {
		return e.value(out, &v), nil
	}
	return e.object(out, &v, scalarsFirst(&v)), nil
}

// scalarsFirst returns the positions of the members of the object v whose
// values are not objects or arrays, then those of the others, each in
// order.
func scalarsFirst(v *Value) []int {
	order := make([]int, 0, len(v.items))
	for _, scalars := range []bool{true, false} {
		for i := range v.items {
			if k := v.items[i].kind; (k != kindObject && k != kindArray) == scalars {
				order = append(order, i)
			}
		}
	}
	return order
}

func repeatsName(names []string) bool {
	for i, n := range names {
		if slices.Contains(names[:i], n) {
			return true
		}
	}
	return false
}

// encoder writes the encoded form of the values of a document.
type encoder struct{ id string }

func (e *encoder) value(b []byte, v *Value) []byte {
	switch v.kind {
	case kindBool:
		if v.num != 0 {
			return append(b, tagTrue)
		}
		return append(b, tagFalse)
	case kindNumber:
		return binary.LittleEndian.AppendUint64(append(b, tagNumber), math.Float64bits(v.num))
	case kindString:
		rest, ok := strings.CutPrefix(v.str, e.id)
		switch {
		case e.id == "" || !ok:
			return appendChunk(append(b, tagString), v.str)
		case rest == "":
			return append(b, tagID)
		}
		return appendChunk(append(b, tagIDMore), rest)
	case kindArray:
		var elems []byte
		for i := range v.items {
			elems = e.value(elems, &v.items[i])
		}
		return appendChunk(append(b, tagArray), elems)
	case kindObject:
		order := make([]int, len(v.items))
		for i := range order {
			order[i] = i
		}
		return e.object(b, v, order)
	}
	return append(b, tagNull)
}

// object appends the object v with its members in the given order.
func (e *encoder) object(b []byte, v *Value, order []int) []byte {
	codes := make([]byte, len(order))
	ends := make([]int, len(order))
	var slots []byte
	for j, i := range order {
		if codes[j] = encCode(v.keys[i]); codes[j] == 0 {
			slots = appendChunk(slots, v.keys[i])
		}
		slots = e.value(slots, &v.items[i])
		ends[j] = len(slots)
	}
	width := 4
	switch {
	case len(slots) <= math.MaxUint8:
		width = 1
	case len(slots) <= math.MaxUint16:
		width = 2
	}
	body := append(binary.AppendUvarint(nil, uint64(len(order))), byte(width))
	body = append(body, codes...)
	for _, end := range ends {
		body = binary.LittleEndian.AppendUint32(body, uint32(end))[:len(body)+width]
	}
	return appendChunk(append(b, tagObject), append(body, slots...))
}

func appendChunk[S []byte | string](b []byte, s S) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}
