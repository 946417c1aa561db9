package keys

import (
	"fmt"

	"github.com/mr-tron/base58"
)

// DecodeBase58 decodes base58 text that holds at most n bytes. Decoding
// base58 costs the square of the text's length, so text longer than any
// encoding of n bytes is refused before it is decoded.
func DecodeBase58(s string, n int) ([]byte, error) {
	if limit := MaxBase58Len(n); len(s) > limit {
		return nil, fmt.Errorf("base58 text of %d characters, longer than any encoding of %d bytes (%d)", len(s), n, limit)
	}
	return base58.Decode(s)
}

// MaxBase58Len is the length of the longest base58 encoding of n bytes:
// each byte is log(256)/log(58) ≈ 1.3657 digits (a leading zero byte is one
// '1'), so n·1.37 rounded up bounds it.
func MaxBase58Len(n int) int { return (n*137 + 99) / 100 }
