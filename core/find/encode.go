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
type encoder struct {
	id     string
	depth  int      // of the container being written
	frames []*frame // the scratch space of each depth, reused
}

// frame is the scratch space of a container being written: its parts are
// built apart, then appended behind its length.
type frame struct {
	codes, slots []byte
	ends         []int
}

// enter returns the frame of a container one deeper than the current one,
// emptied; leave returns to the current one.
func (e *encoder) enter() *frame {
	if e.depth == len(e.frames) {
		e.frames = append(e.frames, &frame{})
	}
	f := e.frames[e.depth]
	e.depth++
	f.codes, f.slots, f.ends = f.codes[:0], f.slots[:0], f.ends[:0]
	return f
}

func (e *encoder) leave() { e.depth-- }

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
		f := e.enter()
		defer e.leave()
		for i := range v.items {
			f.slots = e.value(f.slots, &v.items[i])
		}
		return appendChunk(append(b, tagArray), f.slots)
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
	f := e.enter()
	defer e.leave()
	for _, i := range order {
		code := encCode(v.keys[i])
		if f.codes = append(f.codes, code); code == 0 {
			f.slots = appendChunk(f.slots, v.keys[i])
		}
		f.slots = e.value(f.slots, &v.items[i])
		f.ends = append(f.ends, len(f.slots))
	}
	width := 4
	switch {
	case len(f.slots) <= math.MaxUint8:
		width = 1
	case len(f.slots) <= math.MaxUint16:
		width = 2
	}
	var head [binary.MaxVarintLen64 + 1]byte
	n := binary.PutUvarint(head[:], uint64(len(order)))
	head[n] = byte(width)
	size := n + 1 + len(f.codes) + width*len(f.ends) + len(f.slots)
	b = append(binary.AppendUvarint(append(b, tagObject), uint64(size)), head[:n+1]...)
	b = append(b, f.codes...)
	for _, end := range f.ends {
		b = binary.LittleEndian.AppendUint32(b, uint32(end))[:len(b)+width]
	}
	return append(b, f.slots...)
}

func appendChunk[S []byte | string](b []byte, s S) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}
