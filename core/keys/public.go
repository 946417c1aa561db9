package keys

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"fmt"

	"github.com/didlight/didlight/core/excerpt"
	"github.com/mr-tron/base58"
)

// PublicKeySize is the length of a compressed P-256 public key.
const PublicKeySize = 33

// PublicKey is a P-256 public key. The zero value is not a valid key; obtain
// one from [ParsePublicKey], [ParsePublicKeyBase58] or [PrivateKey.Public].
type PublicKey struct {
	compressed [PublicKeySize]byte
	key        *ecdsa.PublicKey
}

// ParsePublicKey decodes a 33-byte SEC 1 compressed point and checks that it
// lies on the P-256 curve.
func ParsePublicKey(b []byte) (PublicKey, error) {
	if len(b) != PublicKeySize {
		return PublicKey{}, fmt.Errorf("keys: public key is %d bytes, want %d (compressed P-256)", len(b), PublicKeySize)
	}
	if b[0] != 2 && b[0] != 3 {
		return PublicKey{}, fmt.Errorf("keys: public key prefix 0x%02x, want 0x02 or 0x03 (compressed P-256)", b[0])
	}
	x, y := elliptic.UnmarshalCompressed(elliptic.P256(), b)
	if x == nil {
		return PublicKey{}, fmt.Errorf("keys: public key %x is not a point on P-256", b)
	}
	uncompressed := make([]byte, 65)
	uncompressed[0] = 4
	x.FillBytes(uncompressed[1:33])
	y.FillBytes(uncompressed[33:])
	key, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), uncompressed)
	if err != nil {
		return PublicKey{}, fmt.Errorf("keys: public key %x: %w", b, err)
	}
	var pk PublicKey
	copy(pk.compressed[:], b)
	pk.key = key
	return pk, nil
}

// ParsePublicKeyBase58 decodes the publicKeyBase58 form used in DID documents.
func ParsePublicKeyBase58(s string) (PublicKey, error) {
	b, err := DecodeBase58(s, PublicKeySize)
	if err != nil {
		return PublicKey{}, fmt.Errorf("keys: public key %s is not base58 of %d bytes: %w", excerpt.Quote(s), PublicKeySize, err)
	}
	return ParsePublicKey(b)
}

// Bytes returns the 33-byte compressed encoding.
func (k PublicKey) Bytes() []byte { return append([]byte(nil), k.compressed[:]...) }

// Base58 returns the compressed encoding in base58, as DID documents write it.
func (k PublicKey) Base58() string { return base58.Encode(k.compressed[:]) }

// IsZero reports whether k is the zero value rather than a parsed key.
func (k PublicKey) IsZero() bool { return k.key == nil }

// Equal reports whether k and o are the same point.
func (k PublicKey) Equal(o PublicKey) bool { return k.compressed == o.compressed }

// ECDSA returns the key as a crypto/ecdsa public key.
func (k PublicKey) ECDSA() *ecdsa.PublicKey { return k.key }

// String returns the base58 form.
func (k PublicKey) String() string { return k.Base58() }
