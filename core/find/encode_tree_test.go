package find

import (
	"bytes"
	"encoding/binary"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Encode returns the encoded form of the JSON document doc for a store to
// keep and scan with MatchEncoded, or the *SyntaxError of text that is not
// strict JSON.
func encodeTree(doc []byte) ([]byte, error) {
	v, err := ParseJSON(doc)
	if err != nil {
		return nil, err
	}
	var e treeEncoder
	if v.kind == kindObject {
		if f := v.field("id"); f != nil && f.kind == kindString {
			e.id = f.str
		}
	}
	out := appendChunk(make([]byte, 0, len(doc)/2), e.id)
	if v.kind != kindObject || treeRepeatsName(v.keys) {
		return e.value(out, &v), nil
	}
	return e.object(out, &v, treeScalarsFirst(&v)), nil
}

// treeScalarsFirst returns the positions of the members of the object v whose
// values are not objects or arrays, then those of the others, each in
// order.
func treeScalarsFirst(v *Value) []int {
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

func treeRepeatsName(names []string) bool {
	for i, n := range names {
		if slices.Contains(names[:i], n) {
			return true
		}
	}
	return false
}

// treeEncoder writes the encoded form of the values of a document.
type treeEncoder struct {
	id     string
	depth  int          // of the container being written
	frames []*treeFrame // the scratch space of each depth, reused
}

// treeFrame is the scratch space of a container being written: its parts are
// built apart, then appended behind its length.
type treeFrame struct {
	codes, slots []byte
	ends         []int
}

// enter returns the treeFrame of a container one deeper than the current one,
// emptied; leave returns to the current one.
func (e *treeEncoder) enter() *treeFrame {
	if e.depth == len(e.frames) {
		e.frames = append(e.frames, &treeFrame{})
	}
	f := e.frames[e.depth]
	e.depth++
	f.codes, f.slots, f.ends = f.codes[:0], f.slots[:0], f.ends[:0]
	return f
}

func (e *treeEncoder) leave() { e.depth-- }

func (e *treeEncoder) value(b []byte, v *Value) []byte {
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
func (e *treeEncoder) object(b []byte, v *Value, order []int) []byte {
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

// FuzzEncodeTree checks that Encode writes what the tree-based encoder it
// replaces wrote, and fails where ParseJSON does, with the same error.
func FuzzEncodeTree(f *testing.F) {
	raw, _ := corpus(f, 64)
	for _, doc := range raw {
		f.Add(string(doc))
	}
	for _, doc := range []string{`{"a":}`, `{"id":"x\"y","b":["x\"y\\\\", {"id":"x"}]}`, `{"b":[1,{"c":"\\"}],"id":"d:a","k":"d:a#"}`, `[1,2`, `{"id":1,"id":"x"}`, ` {"a" : [ ] , "id" : "q" } `} {
		f.Add(doc)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		want, werr := encodeTree([]byte(doc))
		got, err := Encode([]byte(doc))
		if !bytes.Equal(got, want) || !reflect.DeepEqual(err, werr) {
			t.Fatalf("Encode(%q) = %x, %v; tree encoder %x, %v", doc, got, err, want, werr)
		}
	})
}
