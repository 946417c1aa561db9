package eidsync

import (
	"encoding/hex"
	"fmt"
	"strings"
)

// ParseHash reads a hash as EID's JSON-RPC writes it: 0x and 64 hex digits.
func ParseHash(s string) (Hash, error) {
	var h Hash
	digits, ok := strings.CutPrefix(s, "0x")
	if !ok || len(digits) != 64 {
		return h, fmt.Errorf("eidsync: hash %.80q is not 0x and 64 hex digits", s)
	}
	if _, err := hex.Decode(h[:], []byte(digits)); err != nil {
		return h, fmt.Errorf("eidsync: hash %.80q is not 0x and 64 hex digits", s)
	}
	return h, nil
}

// String returns h as EID's JSON-RPC writes it, in lower case.
func (h Hash) String() string { return "0x" + hex.EncodeToString(h[:]) }
