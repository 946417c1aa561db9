package wasmbuild

import (
	"encoding/binary"
	"fmt"
)

// The data section initializes the module's memory with active segments,
// each "flags 0, i32.const offset, end, bytes" (the only kind the Go linker
// writes).

// maxImage bounds the memory a data section may initialize here; the Go
// runtime's data is a few megabytes.
const maxImage = 64 << 20

// memoryImage returns the memory the data section initializes, from
// address 0 to the end of its last segment.
func memoryImage(body []byte) ([]byte, error) {
	r := reader{b: body}
	var image []byte
	for range r.count() {
		if flags := r.uint(); flags != 0 || r.byte() != 0x41 {
			r.fail(fmt.Sprintf("data segment of kind %d", flags))
			break
		}
		addr := r.sint()
		if r.byte() != 0x0b {
			r.fail("data segment offset is not a constant")
		}
		seg := r.bytes(int(r.uint()))
		if r.err != nil {
			break
		}
		if addr < 0 || addr+len(seg) > maxImage {
			r.fail(fmt.Sprintf("data segment at %d", addr))
			break
		}
		if end := addr + len(seg); end > len(image) {
			image = append(image, make([]byte, end-len(image))...)
		}
		copy(image[addr:], seg)
	}
	if r.err == nil && r.off != len(body) {
		r.fail("data after the data segments")
	}
	return image, r.err
}

// minZeroRun is the shortest run of zero bytes worth ending a segment at:
// a segment costs a few bytes of header.
const minZeroRun = 16

// dataSection encodes image as a data section body of segments that leave
// out its longer runs of zeros (memory starts zeroed); it also returns the
// number of segments.
func dataSection(image []byte) (body []byte, n int) {
	var segs []byte
	for i := 0; i < len(image); {
		for i < len(image) && image[i] == 0 {
			i++
		}
		if i == len(image) {
			break
		}
		start, zeros := i, 0
		for ; i < len(image) && zeros < minZeroRun; i++ {
			if image[i] == 0 {
				zeros++
			} else {
				zeros = 0
			}
		}
		end := i - zeros
		segs = append(segs, 0, 0x41)
		segs = appendSLEB(segs, int64(start))
		segs = append(segs, 0x0b)
		segs = binary.AppendUvarint(segs, uint64(end-start))
		segs = append(segs, image[start:end]...)
		n++
	}
	return append(binary.AppendUvarint(nil, uint64(n)), segs...), n
}

// appendSLEB appends v in signed LEB128, as i32.const takes its operand.
func appendSLEB(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 && c&0x40 == 0 || v == -1 && c&0x40 != 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// sint reads a signed LEB128 integer.
func (r *reader) sint() int {
	var v int64
	var shift uint
	for {
		c := r.byte()
		if r.err != nil {
			return 0
		}
		v |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return int(v)
		}
		if shift >= 35 {
			r.fail("bad LEB128 integer")
			return 0
		}
	}
}
