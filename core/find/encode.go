package find

import (
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"unsafe"
)

// Encode returns the encoded form of the JSON document doc for a store to
// keep and scan with MatchEncoded, or the *SyntaxError of text that is not
// strict JSON. It writes the form as it reads the text, in one pass after
// a look for the document's id, building no Value tree.
func Encode(doc []byte) ([]byte, error) {
	src := unsafe.String(unsafe.SliceData(doc), len(doc)) // read only while Encode runs
	e := encoder{p: parser{src: src}, id: docID(src)}
	e.codes, e.ends, e.top = e.codesBuf[:0], e.endsBuf[:0], e.topBuf[:0]
	e.p.space()
	// The form is about 3/4 of the text for a view document.
	out, err := e.value(appendChunk(make([]byte, 0, len(doc)), e.id), true)
	if err != nil {
		return nil, err
	}
	if e.p.space(); e.p.pos < len(src) {
		return nil, e.p.fail("end of input")
	}
	return out, nil
}

// docID returns the string value of the first member named "id" of the
// object src holds, or "". On text that is not strict JSON it may return
// anything: the encoding that follows reports the error.
func docID(src string) string {
	p := parser{src: src}
	p.space()
	if p.peek() != '{' {
		return ""
	}
	if empty, err := p.open('}'); empty || err != nil {
		return ""
	}
	for {
		name, err := p.member()
		switch {
		case err != nil:
			return ""
		case name == "id":
			id, _ := p.quoted()
			return id
		case !p.skip():
			return ""
		}
		if next, _ := p.more('}'); !next {
			return ""
		}
	}
}

// quoted reads the string at the current position, or returns "" when
// there is none.
func (p *parser) quoted() (string, error) {
	if p.peek() != '"' {
		return "", nil
	}
	return p.string()
}

// skip steps over the value at the current position and reports whether
// it found its end. It matches the brackets and quotes of a container
// without reading what they hold, so it finds the end of a valid value
// only.
func (p *parser) skip() bool {
	if c := p.peek(); c != '{' && c != '[' {
		_, err := p.value()
		return err == nil
	}
	for depth := 0; p.pos < len(p.src); {
		c := p.src[p.pos]
		p.pos++
		switch c {
		case '"':
			if !p.skipString() {
				return false
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return true
			}
		}
	}
	return false
}

// skipString steps past the closing quote of the string whose opening
// quote was just read.
func (p *parser) skipString() bool {
	for {
		i := strings.IndexByte(p.src[p.pos:], '"')
		if i < 0 {
			return false
		}
		p.pos += i + 1
		escapes := 0 // the backslashes before the quote
		for p.src[p.pos-2-escapes] == '\\' {
			escapes++
		}
		if escapes%2 == 0 {
			return true
		}
	}
}

// encoder writes the encoded form of the JSON text its parser reads. A
// container's items are written where the container goes, and its head
// (tag, length and, for an object, the member count, codes and ends) is
// slid in before them once they are all written.
type encoder struct {
	p     parser
	id    string
	codes []byte   // the codes of the members of the objects being written, outermost first
	ends  []int    // where their slots end, counted from the start of their object's slots
	top   []member // the members of the outermost object
	spare []byte   // the outermost object's slots, while they are reordered

	// The first space of codes, ends and top, enough for most documents.
	codesBuf [64]byte
	endsBuf  [64]int
	topBuf   [16]member
}

// member is what the encoder notes of a member of the outermost object.
type member struct {
	code   byte
	nested bool // its value is an object or an array
	end    int  // where its slot ends
	name   string
}

// value appends the value at the parser's position; top tells whether it
// is the outermost one.
func (e *encoder) value(b []byte, top bool) ([]byte, error) {
	switch e.p.peek() {
	case '{':
		return e.object(b, top)
	case '[':
		return e.array(b)
	}
	v, err := e.p.value() // a scalar: no tree to build
	return e.scalar(b, &v), err
}

func (e *encoder) scalar(b []byte, v *Value) []byte {
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
	}
	return append(b, tagNull)
}

func (e *encoder) array(b []byte) ([]byte, error) {
	start := len(b)
	empty, err := e.p.open(']')
	for next := !empty; next && err == nil; next, err = e.p.more(']') {
		if b, err = e.value(b, false); err != nil {
			break
		}
	}
	if err != nil {
		return b, err
	}
	var head [1 + binary.MaxVarintLen64]byte
	head[0] = tagArray
	n := 1 + binary.PutUvarint(head[1:], uint64(len(b)-start))
	return insert(b, start, head[:n]), nil
}

// object appends the object at the parser's position. The outermost one
// lists its members whose values are not objects or arrays first, unless
// it repeats a name.
func (e *encoder) object(b []byte, top bool) ([]byte, error) {
	start, firstCode, firstEnd := len(b), len(e.codes), len(e.ends)
	empty, err := e.p.open('}')
	for next := !empty; next && err == nil; next, err = e.p.more('}') {
		var name string
		if name, err = e.p.member(); err != nil {
			break
		}
		c, code := e.p.peek(), encCode(name)
		if e.codes = append(e.codes, code); code == 0 {
			b = appendChunk(b, name)
		}
		if b, err = e.value(b, false); err != nil {
			break
		}
		e.ends = append(e.ends, len(b)-start)
		if top {
			e.top = append(e.top, member{code, c == '{' || c == '[', len(b) - start, name})
		}
	}
	if err != nil {
		return b, err
	}
	codes, ends := e.codes[firstCode:], e.ends[firstEnd:]
	if top && !repeatsName(e.top) {
		e.scalarsFirst(b[start:], codes, ends)
	}
	b = e.head(b, start, codes, ends)
	e.codes, e.ends = e.codes[:firstCode], e.ends[:firstEnd]
	return b, nil
}

func repeatsName(members []member) bool {
	for i, m := range members {
		if slices.ContainsFunc(members[:i], func(o member) bool { return o.name == m.name }) {
			return true
		}
	}
	return false
}

// scalarsFirst reorders the slots, codes and ends of the outermost object
// to list the members whose values are not objects or arrays first, each
// group in order.
func (e *encoder) scalarsFirst(slots, codes []byte, ends []int) {
	e.spare = append(e.spare[:0], slots...)
	at, k := 0, 0
	for _, nested := range []bool{false, true} {
		start := 0
		for _, m := range e.top {
			if m.nested == nested {
				at += copy(slots[at:], e.spare[start:m.end])
				codes[k], ends[k] = m.code, at
				k++
			}
			start = m.end
		}
	}
}

// head slides the head of the object whose slots are b[start:] in before
// them: its tag and length, member count, the width of its ends, its
// codes and its ends.
func (e *encoder) head(b []byte, start int, codes []byte, ends []int) []byte {
	width := 4
	switch slots := len(b) - start; {
	case slots <= math.MaxUint8:
		width = 1
	case slots <= math.MaxUint16:
		width = 2
	}
	var count [binary.MaxVarintLen64 + 1]byte
	n := binary.PutUvarint(count[:], uint64(len(ends)))
	count[n] = byte(width)
	size := n + 1 + len(codes) + width*len(ends) + len(b) - start
	h := binary.AppendUvarint(append(e.spare[:0], tagObject), uint64(size))
	h = append(append(h, count[:n+1]...), codes...)
	for _, end := range ends {
		h = binary.LittleEndian.AppendUint32(h, uint32(end))[:len(h)+width]
	}
	e.spare = h
	return insert(b, start, h)
}

// insert inserts s into b at i.
func insert(b []byte, i int, s []byte) []byte {
	b = slices.Grow(b, len(s))[:len(b)+len(s)]
	copy(b[i+len(s):], b[i:])
	copy(b[i:], s)
	return b
}

func appendChunk[S []byte | string](b []byte, s S) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}
