package ela

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The protocol's primitive encodings (from Elastos.ELA common/serialize.go):
// fixed-width integers are little-endian; counts and lengths are varints
// (one byte below 0xFD, else 0xFD/0xFE/0xFF followed by 2/4/8 bytes), and a
// varint must use its shortest form.

// reader decodes primitives from a byte slice. The first failure sticks:
// later reads return zero values, so a decoder reads straight through and
// looks at err once. The path of the field being read is kept as a stack of
// frames and only formatted when something fails.
type reader struct {
	object string
	b      []byte
	off    int
	err    *DecodeError
	path   []frame
}

type frame struct {
	name  string
	index int // -1 for a field without an index
}

func newReader(object string, b []byte) *reader {
	return &reader{object: object, b: b, path: make([]frame, 0, 8)}
}

func (r *reader) enter(name string)             { r.path = append(r.path, frame{name, -1}) }
func (r *reader) enterIndex(name string, i int) { r.path = append(r.path, frame{name, i}) }
func (r *reader) leave()                        { r.path = r.path[:len(r.path)-1] }
func (r *reader) left() int                     { return len(r.b) - r.off }
func (r *reader) failed() bool                  { return r.err != nil }

// failf records the first failure, at byte offset at.
func (r *reader) failf(field string, at int, kind error, format string, args ...any) {
	if r.err != nil {
		return
	}
	r.err = &DecodeError{
		Object: r.object,
		Offset: at,
		Field:  fieldPath(r.path, field),
		Err:    fmt.Errorf("%w: %s", kind, fmt.Sprintf(format, args...)),
	}
}

func fieldPath(path []frame, field string) string {
	var sb strings.Builder
	for _, f := range path {
		sb.WriteString(f.name)
		if f.index >= 0 {
			sb.WriteString("[" + strconv.Itoa(f.index) + "]")
		}
		sb.WriteByte('.')
	}
	sb.WriteString(field)
	return sb.String()
}

// take returns the next n bytes of the input (not a copy).
func (r *reader) take(n int, field string) []byte {
	if r.err != nil {
		return nil
	}
	if n > r.left() {
		r.failf(field, r.off, ErrTruncated, "needs %d bytes, %d left", n, r.left())
		return nil
	}
	s := r.b[r.off : r.off+n : r.off+n]
	r.off += n
	return s
}

func (r *reader) u8(field string) byte {
	if b := r.take(1, field); b != nil {
		return b[0]
	}
	return 0
}

func (r *reader) u16(field string) uint16 {
	if b := r.take(2, field); b != nil {
		return binary.LittleEndian.Uint16(b)
	}
	return 0
}

func (r *reader) u32(field string) uint32 {
	if b := r.take(4, field); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *reader) u64(field string) uint64 {
	if b := r.take(8, field); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (r *reader) hash(field string) (h Hash) {
	copy(h[:], r.take(len(h), field))
	return h
}

func (r *reader) programHash(field string) (h ProgramHash) {
	copy(h[:], r.take(len(h), field))
	return h
}

// amount reads a Fixed64 that must not be negative.
func (r *reader) amount(field string) Fixed64 {
	at := r.off
	v := Fixed64(r.u64(field))
	if v < 0 {
		r.failf(field, at, ErrInvalid, "negative amount %s", v)
	}
	return v
}

// boolean reads a byte that must be 0 or 1, so that it re-encodes exactly.
func (r *reader) boolean(field string) bool {
	at := r.off
	switch v := r.u8(field); v {
	case 0:
		return false
	case 1:
		return true
	default:
		r.failf(field, at, ErrInvalid, "byte 0x%02x, want 0x00 or 0x01", v)
		return false
	}
}

// varint reads a variable-length integer in its shortest form.
func (r *reader) varint(field string) uint64 {
	at := r.off
	var v, least uint64
	switch d := r.u8(field); d {
	case 0xfd:
		v, least = uint64(r.u16(field)), 0xfd
	case 0xfe:
		v, least = uint64(r.u32(field)), 0x10000
	case 0xff:
		v, least = r.u64(field), 0x100000000
	default:
		return uint64(d)
	}
	if r.err == nil && v < least {
		r.failf(field, at, ErrNonCanonical, "varint %d written in %d bytes", v, r.off-at)
	}
	return v
}

// checkCount checks a count read at offset at: no more than limit, and no
// more elements of at least minSize bytes than the input has room for.
func (r *reader) checkCount(field string, at int, n uint64, minSize, limit int) int {
	switch {
	case r.err != nil:
		return 0
	case n > uint64(limit):
		r.failf(field, at, ErrTooLarge, "count %d exceeds the limit %d", n, limit)
		return 0
	case n > uint64(r.left()) || int(n)*minSize > r.left():
		r.failf(field, at, ErrTruncated, "%d elements of at least %d bytes each, %d bytes left", n, minSize, r.left())
		return 0
	}
	return int(n)
}

// count reads a varint count of elements of at least minSize bytes.
func (r *reader) count(field string, minSize, limit int) int {
	at := r.off
	return r.checkCount(field, at, r.varint(field), minSize, limit)
}

// count32 reads a fixed 4-byte count, as blocks and AuxPow use.
func (r *reader) count32(field string, minSize, limit int) int {
	at := r.off
	return r.checkCount(field, at, uint64(r.u32(field)), minSize, limit)
}

// length reads a varint byte length of at most limit.
func (r *reader) length(field string, limit int) int {
	at := r.off
	n := r.varint(field)
	switch {
	case r.err != nil:
		return 0
	case n > uint64(limit):
		r.failf(field, at, ErrTooLarge, "length %d exceeds the limit %d", n, limit)
		return 0
	case n > uint64(r.left()):
		r.failf(field, at, ErrTruncated, "length %d, %d bytes left", n, r.left())
		return 0
	}
	return int(n)
}

// varBytes reads a varint length and that many bytes (a copy).
func (r *reader) varBytes(field string, limit int) []byte {
	n := r.length(field, limit)
	if n == 0 {
		return nil
	}
	return append([]byte(nil), r.take(n, field)...)
}

// varString reads a varint length and that many bytes of UTF-8 text. Text
// must be valid UTF-8 so that the JSON form can carry it exactly.
func (r *reader) varString(field string, limit int) string {
	at := r.off
	b := r.take(r.length(field, limit), field)
	if !utf8.Valid(b) {
		r.failf(field, at, ErrInvalid, "text is not valid UTF-8")
		return ""
	}
	return string(b)
}

// end fails if input is left after a complete object.
func (r *reader) end() *DecodeError {
	if r.err == nil && r.left() > 0 {
		r.failf("end", r.off, ErrTrailingData, "%d bytes after a complete %s", r.left(), r.object)
	}
	return r.err
}

// writer appends the protocol's primitive encodings to a byte slice.
type writer struct{ b []byte }

func (w *writer) u8(v byte)         { w.b = append(w.b, v) }
func (w *writer) u16(v uint16)      { w.b = binary.LittleEndian.AppendUint16(w.b, v) }
func (w *writer) u32(v uint32)      { w.b = binary.LittleEndian.AppendUint32(w.b, v) }
func (w *writer) u64(v uint64)      { w.b = binary.LittleEndian.AppendUint64(w.b, v) }
func (w *writer) raw(b []byte)      { w.b = append(w.b, b...) }
func (w *writer) hash(h Hash)       { w.b = append(w.b, h[:]...) }
func (w *writer) varBytes(b []byte) { w.varint(uint64(len(b))); w.raw(b) }
func (w *writer) varString(s string) {
	w.varint(uint64(len(s)))
	w.b = append(w.b, s...)
}

func (w *writer) boolean(v bool) {
	if v {
		w.u8(1)
	} else {
		w.u8(0)
	}
}

func (w *writer) varint(v uint64) {
	switch {
	case v < 0xfd:
		w.u8(byte(v))
	case v <= 0xffff:
		w.u8(0xfd)
		w.u16(uint16(v))
	case v <= 0xffffffff:
		w.u8(0xfe)
		w.u32(uint32(v))
	default:
		w.u8(0xff)
		w.u64(v)
	}
}
