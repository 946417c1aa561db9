package eid

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/didlight/didlight/core/excerpt"
)

// quantity reads a JSON string holding a quantity as Ethereum's JSON-RPC
// writes numbers (parseQuantity).
func quantity(raw json.RawMessage) (uint64, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return 0, fmt.Errorf("%s is not a quantity (a string of 0x and hex digits)", excerpt.Bytes(raw))
	}
	return parseQuantity(s)
}

// parseQuantity reads 0x and 1 to 16 hex digits, the form of geth's
// numbers (hexutil.Uint64; leading zeros, which geth never writes, are
// taken).
func parseQuantity(s string) (uint64, error) {
	digits, ok := strings.CutPrefix(s, "0x")
	if !ok || len(digits) == 0 || len(digits) > 16 || !isHex(digits) {
		return 0, fmt.Errorf("%s is not a quantity (0x and 1 to 16 hex digits)", excerpt.Quote(s))
	}
	return strconv.ParseUint(digits, 16, 64)
}

// hexBytes checks that s is 0x and n bytes in hex: a hash (32) or an
// address (20). It returns s in lower case.
func hexBytes(s string, n int) (string, error) {
	digits, ok := strings.CutPrefix(s, "0x")
	if !ok || len(digits) != 2*n || !isHex(digits) {
		return "", fmt.Errorf("%s is not 0x and %d hex digits", excerpt.Quote(s), 2*n)
	}
	return strings.ToLower(s), nil
}

func isHex(s string) bool {
	for i := range len(s) {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// object is the check of a result that must be a JSON object.
func object(raw json.RawMessage) error {
	if t := bytes.TrimLeft(raw, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return errors.New("want an object")
	}
	return nil
}
