package eidsync

// AddToBloom sets in bloom the bits EID's header bloom sets for addr (0x
// and 40 hex digits), for tests that make blocks.
func AddToBloom(bloom *[256]byte, addr string) {
	for _, k := range addressBits(addr) {
		bloom[255-k/8] |= 1 << (k % 8)
	}
}
