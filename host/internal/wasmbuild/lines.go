package wasmbuild

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// The Go runtime keeps, in the module's data, a table per function that maps
// code offsets to source files and lines: about a quarter of the gzipped
// module, used only to print file:line in tracebacks. dropLines removes
// them (a function without them prints "?:0", as assembly functions do),
// keeping the tables the runtime needs (stack sizes, GC maps).
//
// The layout read here is the runtime's symbol table since Go 1.20
// (runtime/symtab.go pcHeader, runtime/runtime2.go _func): a header with
// the magic 0xfffffff1, a function table of {entry, offset} pairs, and per
// function an _func whose pcfile and pcln members are offsets into the
// shared pctab. A module whose data does not hold exactly one such header
// is refused rather than guessed at.

const (
	pclntabMagic = 0xfffffff1
	ptrSize      = 8  // GOARCH=wasm
	funcSize     = 44 // _func up to its pcdata offsets
	funcPCSP     = 16 // offsets of members of _func
	funcPCFile   = 20
	funcPCLine   = 24
	funcNPCData  = 28
)

// dropLines zeroes the file and line tables of every function in image (the
// module's memory as its data section initializes it) and clears the
// references to them; when it fails, image is as it was.
func dropLines(image []byte) error {
	h, err := findPCHeader(image)
	if err != nil {
		return err
	}
	word := func(i int) int { return int(binary.LittleEndian.Uint64(image[h+8+i*ptrSize:])) }
	nfunc, pctabOff, pclnOff := word(0), word(6), word(7) // the offsets from the header
	if nfunc <= 0 || pctabOff <= 0 || pctabOff > pclnOff || pclnOff > len(image)-h || nfunc > (len(image)-h-pclnOff)/8 {
		return fmt.Errorf("build: runtime symbol table header at %#x does not fit the data", h)
	}
	pctab, pcln := h+pctabOff, h+pclnOff
	tables := pcTables{pctab: image[pctab:pcln], spans: map[int]span{}}
	keep, drop := map[int]span{}, map[int]span{} // in pctab, by start
	funcs := make([]int, nfunc)                  // where each _func is
	for k := range nfunc {
		f := pcln + int(binary.LittleEndian.Uint32(image[pcln+8*k+4:]))
		if f+funcSize > len(image) {
			return fmt.Errorf("build: function %d of the runtime symbol table lies outside the data", k)
		}
		npcdata := int(binary.LittleEndian.Uint32(image[f+funcNPCData:]))
		if npcdata > (len(image)-f-funcSize)/4 {
			return fmt.Errorf("build: function %d of the runtime symbol table has %d pcdata tables, past the data", k, npcdata)
		}
		kept := []int{int(binary.LittleEndian.Uint32(image[f+funcPCSP:]))}
		for i := range npcdata {
			kept = append(kept, int(binary.LittleEndian.Uint32(image[f+funcSize+4*i:])))
		}
		for _, off := range kept {
			s, err := tables.span(off)
			if err != nil {
				return err
			}
			keep[s.start] = s
		}
		for _, m := range []int{funcPCFile, funcPCLine} {
			s, err := tables.span(int(binary.LittleEndian.Uint32(image[f+m:])))
			if err != nil {
				return err
			}
			drop[s.start] = s
		}
		funcs[k] = f
	}
	for _, f := range funcs {
		binary.LittleEndian.PutUint32(image[f+funcPCFile:], 0) // no table
		binary.LittleEndian.PutUint32(image[f+funcPCLine:], 0)
	}
	// The linker shares equal tables between functions and kinds: zero only
	// bytes no kept table uses.
	used := make([]bool, len(tables.pctab))
	for _, s := range keep {
		for i := s.start; i < s.end; i++ {
			used[i] = true
		}
	}
	for _, s := range drop {
		for i := s.start; i < s.end; i++ {
			if !used[i] {
				tables.pctab[i] = 0
			}
		}
	}
	return nil
}

// span is a byte range [start, end).
type span struct{ start, end int }

// pcTables reads the pc-value tables of pctab, each once. The linker writes
// each distinct table once and lets functions and kinds share it, so a
// table is known by where it starts, and the distinct tables add up to no
// more than pctab: a symbol table whose tables do (they would overlap) is
// refused, which also bounds the reading of one made to be slow.
type pcTables struct {
	pctab []byte       // the tables
	spans map[int]span // the tables read, by start
	read  int          // the bytes of the tables read
}

// span returns the extent of the table at off in pctab (offset 0 is no
// table): pairs of varints, value delta then pc delta, ended by a zero
// value delta after the first pair.
func (t *pcTables) span(off int) (span, error) {
	if off == 0 {
		return span{}, nil
	}
	if s, ok := t.spans[off]; ok {
		return s, nil
	}
	if off >= len(t.pctab) {
		return span{}, fmt.Errorf("build: runtime pc-value table at %#x lies past pctab (%#x bytes)", off, len(t.pctab))
	}
	r := reader{b: t.pctab, off: off}
	for first := true; r.err == nil; first = false {
		if v := r.uint(); v == 0 && !first {
			s := span{off, r.off}
			if t.read += s.end - s.start; t.read > len(t.pctab) {
				return span{}, errors.New("build: the runtime's pc-value tables overlap")
			}
			t.spans[off] = s
			return s, nil
		}
		r.uint()
	}
	return span{}, fmt.Errorf("build: runtime pc-value table at %#x: %w", off, r.err)
}

// findPCHeader returns the offset of the runtime's symbol table header.
func findPCHeader(image []byte) (int, error) {
	var head [8]byte
	binary.LittleEndian.PutUint32(head[:], pclntabMagic)
	head[6], head[7] = 1, ptrSize // minimum instruction size, pointer size
	at := -1
	for i := 0; i+len(head)+8*ptrSize <= len(image); i += 8 { // the header is pointer aligned
		if string(image[i:i+len(head)]) == string(head[:]) {
			if at >= 0 {
				return 0, errors.New("build: two runtime symbol table headers in the data")
			}
			at = i
		}
	}
	if at < 0 {
		return 0, errors.New("build: no runtime symbol table (Go 1.20 or later) in the data")
	}
	return at, nil
}
