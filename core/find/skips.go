package find

import (
	"encoding/binary"
	"math"
	"slices"
	"unsafe"
)

// A skip table lets the raw matcher step over a large object or array of
// a document without reading it: it lists where each container of at
// least skipMin bytes starts and ends. Without one, finding the end of a
// container means scanning every byte of it, and a path's value near the
// end of a document costs a scan of everything before it.
//
// The table is a sequence of (start, end) offsets into the document, in
// the order of the starts, each little-endian in 2 bytes when the
// document is shorter than 64 KiB and in 4 otherwise. A store keeps it
// beside the document; the matcher checks every entry it uses against
// the document and scans instead where one does not fit, so a table that
// does not belong to its document changes no more than the answers, never
// reads outside the document.
const skipMin = 64

// Skips returns the skip table of the JSON document doc (see
// Condition.MatchSkips), for a store to keep with it.
func Skips(doc []byte) []byte {
	return buildSkips(unsafe.String(unsafe.SliceData(doc), len(doc)), skipMin)
}

// ScanForm returns the JSON object doc with the members whose values are
// not objects or arrays first, each group in its order, for a store to
// keep and scan: a condition on such a member (a document's id, expires)
// then reads the first bytes of the text only, where a scan is memory
// bound. Every condition matches it as it matches doc: the order of the
// members of the outermost object is nothing a condition can test. doc
// itself is returned when it is not a valid object or repeats a name.
func ScanForm(doc []byte) []byte {
	text := unsafe.String(unsafe.SliceData(doc), len(doc))
	start := rawSpace(text, 0)
	if start == len(text) || text[start] != '{' {
		return doc
	}
	var names []string
	var scalars, containers []byte
	it := newRawItems(nil, text[start:])
	for {
		name, value, ok := it.next()
		if !ok {
			break
		}
		if slices.Contains(names, name) {
			return doc
		}
		names = append(names, name)
		member := append(appendString(nil, name), ':')
		member = append(member, value...)
		if value[0] == '{' || value[0] == '[' {
			containers = append(append(containers, ','), member...)
		} else {
			scalars = append(append(scalars, ','), member...)
		}
	}
	if end := rawSpace(text, start+it.i); end == len(text) || text[end] != '}' || rawSpace(text, end+1) != len(text) {
		return doc // not valid JSON
	}
	form := append(append([]byte{'{'}, scalars...), containers...)
	if len(form) > 1 {
		form[1] = '{' // over the first comma
		form = form[1:]
	}
	return append(form, '}')
}

// buildSkips returns the table of the containers of text at least least
// bytes long.
func buildSkips(text string, least int) []byte {
	type span struct{ start, end int }
	var spans []span // every container, in the order of their starts
	var open []int   // the spans of the containers not yet closed
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '"':
			i = rawStringEnd(text, i) - 1
		case '{', '[':
			open = append(open, len(spans))
			spans = append(spans, span{i, -1})
		case '}', ']':
			if n := len(open); n > 0 {
				spans[open[n-1]].end = i + 1
				open = open[:n-1]
			}
		}
	}
	width := skipWidth(len(text))
	var out []byte
	for _, s := range spans {
		if s.end-s.start < least {
			continue // small, or never closed
		}
		if width == 2 {
			out = binary.LittleEndian.AppendUint16(out, uint16(s.start))
			out = binary.LittleEndian.AppendUint16(out, uint16(s.end))
		} else {
			out = binary.LittleEndian.AppendUint32(out, uint32(s.start))
			out = binary.LittleEndian.AppendUint32(out, uint32(s.end))
		}
	}
	return out
}

// skipWidth returns the bytes an offset takes in the table of a document
// of n bytes.
func skipWidth(n int) int {
	if n <= math.MaxUint16 {
		return 2
	}
	return 4
}

// rawDoc is a document matched in raw form with its skip table.
type rawDoc struct {
	text  string // the whole document
	skips string // its skip table
	width int    // skipWidth(len(text))
}

func newRawDoc(text string, skips []byte) *rawDoc {
	return &rawDoc{text: text, skips: unsafe.String(unsafe.SliceData(skips), len(skips)), width: skipWidth(len(text))}
}

// end returns the offset just after the container that starts at s[i],
// where s is part of the document, from the table: ok is false when the
// table has no entry for it that fits in s. The byte at the end is not
// read to check the entry: that would touch memory far ahead of the
// match, which in a scan costs a cache miss per container (a sixth of
// the CPU of a credential condition at 100k views), where reading on
// from the start finds the bytes already fetched.
func (d *rawDoc) end(s string, i int) (end int, ok bool) {
	if d == nil || len(d.skips) == 0 {
		return 0, false
	}
	base := int(uintptr(unsafe.Pointer(unsafe.StringData(s))) - uintptr(unsafe.Pointer(unsafe.StringData(d.text))))
	if base < 0 || base > len(d.text)-len(s) {
		return 0, false // not part of the document
	}
	at := base + i
	n := len(d.skips) / (2 * d.width)
	lo, hi := 0, n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if d.offset(2*m) < at {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == n || d.offset(2*lo) != at {
		return 0, false
	}
	end = d.offset(2*lo+1) - base
	if end <= i+1 || end > len(s) {
		return 0, false
	}
	return end, true
}

// offset returns offset k of the table.
func (d *rawDoc) offset(k int) int {
	if d.width == 2 {
		return int(d.skips[2*k]) | int(d.skips[2*k+1])<<8
	}
	b := d.skips[4*k : 4*k+4]
	return int(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)
}
