package record

import (
	"encoding/binary"
	"fmt"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/host/internal/store"
)

// maxString bounds a decoded string or byte field, as a sanity check.
const maxString = 64 << 20

// writer appends fields.
type writer []byte

func (w *writer) u8(v byte)       { *w = append(*w, v) }
func (w *writer) u32(v uint32)    { *w = binary.BigEndian.AppendUint32(*w, v) }
func (w *writer) u64(v uint64)    { *w = binary.BigEndian.AppendUint64(*w, v) }
func (w *writer) hash(h ela.Hash) { *w = append(*w, h[:]...) }
func (w *writer) bytes(b []byte) {
	*w = binary.AppendUvarint(*w, uint64(len(b)))
	*w = append(*w, b...)
}
func (w *writer) str(s string) {
	*w = binary.AppendUvarint(*w, uint64(len(s)))
	*w = append(*w, s...)
}
func (w *writer) strs(ss []string) {
	*w = binary.AppendUvarint(*w, uint64(len(ss)))
	for _, s := range ss {
		w.str(s)
	}
}

// reader reads fields; the first failure sticks and later reads return
// zero values.
type reader struct {
	what string
	b    []byte
	err  error
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %s: %s", store.ErrCorrupt, r.what, fmt.Sprintf(format, args...))
	}
}

func (r *reader) take(n int, field string) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.b) {
		r.fail("%s needs %d bytes, %d left", field, n, len(r.b))
		return nil
	}
	b := r.b[:n:n]
	r.b = r.b[n:]
	return b
}

func (r *reader) u8(field string) byte {
	if b := r.take(1, field); b != nil {
		return b[0]
	}
	return 0
}

func (r *reader) u32(field string) uint32 {
	if b := r.take(4, field); b != nil {
		return binary.BigEndian.Uint32(b)
	}
	return 0
}

func (r *reader) u64(field string) uint64 {
	if b := r.take(8, field); b != nil {
		return binary.BigEndian.Uint64(b)
	}
	return 0
}

func (r *reader) hash(field string) ela.Hash {
	var h ela.Hash
	copy(h[:], r.take(ela.HashSize, field))
	return h
}

func (r *reader) length(field string) int {
	if r.err != nil {
		return 0
	}
	n, k := binary.Uvarint(r.b)
	if k <= 0 || n > maxString {
		r.fail("%s has a bad length", field)
		return 0
	}
	r.b = r.b[k:]
	return int(n)
}

func (r *reader) bytes(field string) []byte { return r.take(r.length(field), field) }
func (r *reader) str(field string) string   { return string(r.bytes(field)) }

func (r *reader) strs(field string) []string {
	n := r.length(field)
	if n > len(r.b) {
		r.fail("%s has %d strings in %d bytes", field, n, len(r.b))
		return nil
	}
	ss := make([]string, 0, n)
	for range n {
		ss = append(ss, r.str(field))
	}
	return ss
}

// end returns the first failure, or a failure for bytes left over.
func (r *reader) end() error {
	if r.err == nil && len(r.b) > 0 {
		r.fail("%d bytes left over", len(r.b))
	}
	return r.err
}

func newReader(what string, b []byte) *reader { return &reader{what: what, b: b} }
