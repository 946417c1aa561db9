//go:build wasip1

package main

import (
	"unsafe"

	"github.com/didlight/didlight/wasm/abi"
)

// held keeps the buffers the host holds (inputs it is writing, outputs it
// is reading) reachable, so that the garbage collector leaves them where
// the host expects them. The module runs one call at a time.
var held = map[uint32][]byte{}

// alloc reserves size bytes for the host to write an input into.
//
//go:wasmexport alloc
func alloc(size uint32) uint32 {
	return hold(make([]byte, size, max(size, 1)))
}

// free releases a buffer the module handed out.
//
//go:wasmexport free
func free(p uint32) { delete(held, p) }

func hold(b []byte) uint32 {
	p := uint32(uintptr(unsafe.Pointer(unsafe.SliceData(b))))
	held[p] = b
	return p
}

// serve runs call on the n-byte input at p (releasing it) and returns the
// output's address and length, packed as out_ptr<<32 | out_len. The output
// is held until the host frees it.
func serve(p, n uint32, call abi.Func) uint64 {
	var out []byte
	if in, ok := held[p]; ok && int(n) <= len(in) {
		delete(held, p)
		out = call(in[:n], abi.Env{Verifier: hostVerifier{}, Lookup: &hostLookup{}})
	} else {
		out = abi.BufferError(p, n)
	}
	return uint64(hold(out))<<32 | uint64(len(out))
}
