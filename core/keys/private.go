package keys

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
)

// PrivateKeySize is the length of a raw P-256 private scalar.
const PrivateKeySize = 32

// PrivateKey is a P-256 private key. It signs deterministically (RFC 6979).
type PrivateKey struct {
	key *ecdsa.PrivateKey
	pub PublicKey
}

// NewPrivateKey builds a key from its 32-byte big-endian scalar, which must be
// in [1, n-1].
func NewPrivateKey(b []byte) (*PrivateKey, error) {
	if len(b) != PrivateKeySize {
		return nil, fmt.Errorf("keys: private key is %d bytes, want %d", len(b), PrivateKeySize)
	}
	key, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), b)
	if err != nil {
		return nil, fmt.Errorf("keys: private key: %w", err)
	}
	uncompressed, err := key.PublicKey.Bytes()
	if err != nil {
		return nil, fmt.Errorf("keys: private key: %w", err)
	}
	var pub PublicKey
	pub.compressed[0] = 2 | uncompressed[64]&1
	copy(pub.compressed[1:], uncompressed[1:33])
	pub.key = &key.PublicKey
	return &PrivateKey{key: key, pub: pub}, nil
}

// extendedKeySize is a BIP32 serialization (78 bytes) plus its 4-byte checksum.
const extendedKeySize = 82

// bip32Private is the version of a BIP32 extended private key ("xprv").
const bip32Private = 0x0488ade4

// ParseExtendedPrivateKey decodes a base58check BIP32 extended private key
// ("xprv…", as the Elastos DID SDKs export keys) and returns its key. The
// chain code and depth are not kept; HD derivation is not needed to sign.
func ParseExtendedPrivateKey(s string) (*PrivateKey, error) {
	b, err := DecodeBase58(s, extendedKeySize)
	if err != nil {
		return nil, fmt.Errorf("keys: extended key is not base58: %w", err)
	}
	if len(b) != extendedKeySize {
		return nil, fmt.Errorf("keys: extended key is %d bytes, want %d", len(b), extendedKeySize)
	}
	sum := DoubleSHA256(b[:78])
	if string(sum[:4]) != string(b[78:]) {
		return nil, fmt.Errorf("keys: extended key checksum %x, want %x", b[78:], sum[:4])
	}
	if v := binary.BigEndian.Uint32(b); v != bip32Private {
		return nil, fmt.Errorf("keys: extended key version 0x%08x, want 0x%08x (xprv)", v, bip32Private)
	}
	if b[45] != 0 {
		return nil, fmt.Errorf("keys: extended key byte 45 is 0x%02x, want 0x00 before a private key", b[45])
	}
	return NewPrivateKey(b[46:78])
}

// Public returns the matching public key.
func (k *PrivateKey) Public() PublicKey { return k.pub }

// Bytes returns the 32-byte scalar.
func (k *PrivateKey) Bytes() []byte {
	b, _ := k.key.Bytes() // cannot fail for a P-256 key built by NewPrivateKey
	return b
}

// Sign signs a SHA-256 digest and returns the 64-byte r‖s signature. The
// nonce is derived from the key and digest (RFC 6979), so equal inputs give
// equal signatures.
func (k *PrivateKey) Sign(digest [32]byte) Signature {
	der, err := k.key.Sign(nil, digest[:], crypto.SHA256)
	if err != nil {
		// Sign fails only for a curve without RFC 6979 support or a bad hash
		// length, neither of which a PrivateKey can have.
		panic("keys: deterministic P-256 signing failed: " + err.Error())
	}
	sig, err := signatureFromDER(der)
	if err != nil {
		panic("keys: " + err.Error())
	}
	return sig
}

// SignData signs SHA-256(data).
func (k *PrivateKey) SignData(data []byte) Signature { return k.Sign(sha256.Sum256(data)) }

// DoubleSHA256 returns SHA-256(SHA-256(b)), the checksum and txid hash of the protocol.
func DoubleSHA256(b []byte) [32]byte {
	first := sha256.Sum256(b)
	return sha256.Sum256(first[:])
}
