package build

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
// references to them.
func dropLines(image []byte) error {
	h, err := findPCHeader(image)
	if err != nil {
		return err
	}
	word := func(i int) int { return int(binary.LittleEndian.Uint64(image[h+8+i*ptrSize:])) }
	nfunc, pctab, pcln := word(0), h+word(6), h+word(7)
	if nfunc <= 0 || pctab > pcln || pcln+8*nfunc > len(image) {
		return fmt.Errorf("build: runtime symbol table header at %#x does not fit the data", h)
	}
	var keep, drop []span // in pctab
	for k := range nfunc {
		f := pcln + int(binary.LittleEndian.Uint32(image[pcln+8*k+4:]))
		if f+funcSize > len(image) {
			return fmt.Errorf("build: function %d of the runtime symbol table lies outside the data", k)
		}
		npcdata := int(binary.LittleEndian.Uint32(image[f+funcNPCData:]))
		kept := []int{int(binary.LittleEndian.Uint32(image[f+funcPCSP:]))}
		for i := range npcdata {
			kept = append(kept, int(binary.LittleEndian.Uint32(image[f+funcSize+4*i:])))
		}
		for _, off := range kept {
			s, err := table(image, pctab, off)
			if err != nil {
				return err
			}
			keep = append(keep, s)
		}
		for _, m := range []int{funcPCFile, funcPCLine} {
			s, err := table(image, pctab, int(binary.LittleEndian.Uint32(image[f+m:])))
			if err != nil {
				return err
			}
			drop = append(drop, s)
			binary.LittleEndian.PutUint32(image[f+m:], 0) // no table
		}
	}
	// The linker shares equal tables between functions and kinds: zero only
	// bytes no kept table uses.
	used := make([]bool, pcln-pctab)
	for _, s := range keep {
		for i := s.start; i < s.end; i++ {
			used[i] = true
		}
	}
	for _, s := range drop {
		for i := s.start; i < s.end; i++ {
			if !used[i] {
				image[pctab+i] = 0
			}
		}
	}
	return nil
}

// span is a byte range [start, end).
type span struct{ start, end int }

// table returns the extent of the pc-value table at off in pctab (offset 0
// is no table): pairs of varints, value delta then pc delta, ended by a
// zero value delta after the first pair.
func table(image []byte, pctab, off int) (span, error) {
	if off == 0 {
		return span{}, nil
	}
	r := reader{b: image, off: pctab + off}
	for first := true; r.err == nil; first = false {
		if v := r.uint(); v == 0 && !first {
			return span{off, r.off - pctab}, nil
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
