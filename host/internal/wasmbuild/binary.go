package wasmbuild

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// The parts of the WebAssembly binary format
// (https://webassembly.github.io/spec/core/binary/modules.html) that Strip
// and Measure read.
const (
	sectionCustom    = 0
	sectionImport    = 2
	sectionCode      = 10
	sectionData      = 11
	sectionDataCount = 12
)

var magic = []byte{0x00, 'a', 's', 'm', 0x01, 0x00, 0x00, 0x00}

// section is one section of a module: its id, its contents and, for
// custom sections, its name.
type section struct {
	id   byte
	name string
	body []byte // after the name for custom sections
	raw  []byte // the whole section, id and size included
}

// sections splits a module into its sections.
func sections(module []byte) ([]section, error) {
	if len(module) < len(magic) || string(module[:len(magic)]) != string(magic) {
		return nil, errors.New("build: not a WebAssembly module (version 1)")
	}
	var out []section
	r := reader{b: module, off: len(magic)}
	for r.off < len(r.b) {
		start := r.off
		id := r.byte()
		body := r.bytes(int(r.uint()))
		if r.err != nil {
			return nil, r.err
		}
		s := section{id: id, body: body, raw: module[start:r.off]}
		if id == sectionCustom {
			b := reader{b: body}
			s.name = string(b.bytes(int(b.uint())))
			if b.err != nil {
				return nil, fmt.Errorf("build: custom section at offset %d: %w", start, b.err)
			}
			s.body = body[b.off:]
		}
		out = append(out, s)
	}
	return out, nil
}

// reader reads the binary format's LEB128 integers and byte vectors,
// remembering the first error.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("build: %s at offset %d", what, r.off)
	}
	r.off = len(r.b)
}

func (r *reader) byte() byte {
	if r.off >= len(r.b) {
		r.fail("truncated")
		return 0
	}
	r.off++
	return r.b[r.off-1]
}

func (r *reader) uint() uint64 {
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		r.fail("bad LEB128 integer")
		return 0
	}
	r.off += n
	return v
}

// count reads the length of a vector whose elements take a byte or more
// each. A length beyond the bytes left is a malformed module, and a loop
// over it would not end in any time: count fails and returns 0.
func (r *reader) count() uint64 {
	n := r.uint()
	if left := uint64(len(r.b) - r.off); n > left {
		r.fail(fmt.Sprintf("vector of %d elements in %d bytes", n, left))
		return 0
	}
	return n
}

func (r *reader) bytes(n int) []byte {
	if n < 0 || n > len(r.b)-r.off {
		r.fail("truncated")
		return nil
	}
	r.off += n
	return r.b[r.off-n : r.off]
}
