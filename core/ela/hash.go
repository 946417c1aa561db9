package ela

import (
	"encoding/hex"
	"fmt"

	"github.com/didlight/didlight/core/excerpt"
	"github.com/didlight/didlight/core/keys"
)

// HashSize is the length of a transaction id, block hash or asset id.
const HashSize = 32

// Hash is a double SHA-256 digest as the ledger stores it. Its text form,
// used by every API, is the bytes reversed and written in hex (as Bitcoin
// shows hashes).
type Hash [HashSize]byte

// hashOf returns SHA-256(SHA-256(b)), the hash of every ledger object.
func hashOf(b []byte) Hash { return Hash(keys.DoubleSHA256(b)) }

// String returns the reversed-hex form.
func (h Hash) String() string {
	r := h
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return hex.EncodeToString(r[:])
}

// IsZero reports whether every byte is zero (no hash).
func (h Hash) IsZero() bool { return h == Hash{} }

// ParseHash reads the reversed-hex form: 64 hex digits.
func ParseHash(s string) (Hash, error) {
	var h Hash
	if len(s) != 2*HashSize {
		return h, fmt.Errorf("ela: hash %s has %d characters, want %d hex digits", excerpt.Quote(s), len(s), 2*HashSize)
	}
	if _, err := hex.Decode(h[:], []byte(s)); err != nil {
		return h, fmt.Errorf("ela: hash %s is not hex: %w", excerpt.Quote(s), err)
	}
	for i, j := 0, len(h)-1; i < j; i, j = i+1, j-1 {
		h[i], h[j] = h[j], h[i]
	}
	return h, nil
}

// MarshalText returns the reversed-hex form.
func (h Hash) MarshalText() ([]byte, error) { return []byte(h.String()), nil }

// UnmarshalText parses the reversed-hex form.
func (h *Hash) UnmarshalText(b []byte) error {
	v, err := ParseHash(string(b))
	if err != nil {
		return err
	}
	*h = v
	return nil
}

// MerkleRoot returns the root of the Merkle tree over hashes: pairs are
// hashed together level by level, an odd last node paired with itself, and a
// single hash is its own root (Elastos.ELA crypto/merkletree.go). It returns
// the zero hash for no hashes.
func MerkleRoot(hashes []Hash) Hash {
	if len(hashes) == 0 {
		return Hash{}
	}
	level := append([]Hash(nil), hashes...)
	var pair [2 * HashSize]byte
	for len(level) > 1 {
		next := level[:0]
		for i := 0; i < len(level); i += 2 {
			right := level[i]
			if i+1 < len(level) {
				right = level[i+1]
			}
			copy(pair[:HashSize], level[i][:])
			copy(pair[HashSize:], right[:])
			next = append(next, hashOf(pair[:]))
		}
		level = next
	}
	return level[0]
}
