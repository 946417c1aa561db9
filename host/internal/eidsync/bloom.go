package eidsync

import (
	"encoding/hex"

	"golang.org/x/crypto/sha3"
)

// bloomBits returns the three bits of a 2048-bit header bloom that
// go-ethereum's bloom9 sets for addr: each of the first three pairs of
// bytes of its Keccak-256, big-endian, modulo 2048 (EID
// core/types/bloom9.go).
func bloomBits(addr []byte) [3]uint16 {
	h := sha3.NewLegacyKeccak256()
	h.Write(addr)
	sum := h.Sum(nil)
	var bits [3]uint16
	for i := range bits {
		bits[i] = (uint16(sum[2*i])<<8 | uint16(sum[2*i+1])) & 2047
	}
	return bits
}

// inBloom reports whether bloom (256 bytes, the big-endian number whose
// bit k is set) has every one of bits set: whether the block may hold
// what they stand for. It cannot say that it does.
func inBloom(bloom []byte, bits [3]uint16) bool {
	if len(bloom) != 256 {
		return true // no bloom to judge by: read the block
	}
	for _, k := range bits {
		if bloom[255-k/8]&(1<<(k%8)) == 0 {
			return false
		}
	}
	return true
}

// addressBits returns the bloom bits of an address written as 0x and 40
// hex digits.
func addressBits(addr string) [3]uint16 {
	b, _ := hex.DecodeString(addr[2:])
	return bloomBits(b)
}

// AddToBloom sets in bloom the bits EID's header bloom sets for addr (0x
// and 40 hex digits), for fakes of an EID node that make blocks.
func AddToBloom(bloom *[256]byte, addr string) {
	for _, k := range addressBits(addr) {
		bloom[255-k/8] |= 1 << (k % 8)
	}
}
