//go:build wasip1

package main

import (
	"crypto/sha256"
	"fmt"
	"unsafe"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/keys"
)

// p256Verify asks the host to check a P-256 signature: 1 valid, 0 invalid,
// -1 unavailable.
//
//go:wasmimport didlight p256_verify
func p256Verify(pub, digest, sig unsafe.Pointer) int32

// sha256 asks the host for SHA-256 of the n bytes at data, written to
// digest: 1 done, -1 unavailable.
//
//go:wasmimport didlight sha256
func hostSHA256(data unsafe.Pointer, n uint32, digest unsafe.Pointer) int32

// lookupDocument asks the host for the current document of a DID: its
// length (written to buf when it fits), 0 none, -1 unavailable, -2 failed.
//
//go:wasmimport didlight lookup_document
func lookupDocument(did unsafe.Pointer, didLen uint32, buf unsafe.Pointer, bufCap uint32) int32

// hostVerifier verifies and hashes with the host's crypto, and with the
// module's own Go code when the host has none.
type hostVerifier struct{}

func (hostVerifier) Verify(pub keys.PublicKey, digest [32]byte, sig keys.Signature) bool {
	b := pub.Bytes()
	switch p256Verify(unsafe.Pointer(&b[0]), unsafe.Pointer(&digest), unsafe.Pointer(&sig)) {
	case 1:
		return true
	case 0:
		return false
	}
	return keys.Native{}.Verify(pub, digest, sig)
}

// Sum256 hashes with the host's crypto, and with the module's own Go code
// when the host has none ([keys.Hasher]).
func (hostVerifier) Sum256(data []byte) [32]byte {
	var digest [32]byte
	if hostSHA256(unsafe.Pointer(unsafe.SliceData(data)), uint32(len(data)), unsafe.Pointer(&digest)) == 1 {
		return digest
	}
	return sha256.Sum256(data)
}

// hostLookup finds documents through the host, parsing each once per call.
type hostLookup struct {
	seen map[string]*did.Document
}

// lookupBuffer is the room first offered for a document; larger ones are
// asked for again with room for their length.
const lookupBuffer = 8 << 10

func (l *hostLookup) Document(d did.DID) (*did.Document, error) {
	if doc, ok := l.seen[d.Key()]; ok {
		return doc, nil
	}
	s := d.String()
	buf := make([]byte, lookupBuffer)
	n := lookupDocument(unsafe.Pointer(unsafe.StringData(s)), uint32(len(s)), unsafe.Pointer(&buf[0]), uint32(len(buf)))
	if n > int32(len(buf)) {
		buf = make([]byte, n)
		n = lookupDocument(unsafe.Pointer(unsafe.StringData(s)), uint32(len(s)), unsafe.Pointer(&buf[0]), uint32(len(buf)))
	}
	var doc *did.Document
	switch {
	case n == -2:
		return nil, fmt.Errorf("the host's lookup of %s failed", s)
	case n > int32(len(buf)):
		return nil, fmt.Errorf("the host's document of %s changed size while read", s)
	case n > 0:
		var err error
		if doc, err = did.ParseDocument(buf[:n]); err != nil {
			return nil, fmt.Errorf("the host's document of %s: %w", s, err)
		}
	}
	if l.seen == nil {
		l.seen = map[string]*did.Document{}
	}
	l.seen[d.Key()] = doc
	return doc, nil
}
