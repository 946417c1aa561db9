package keys

import (
	"crypto/ecdsa"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"math/big"
	"strings"

	"golang.org/x/crypto/cryptobyte"
	"golang.org/x/crypto/cryptobyte/asn1"

	"github.com/didlight/didlight/core/excerpt"
)

// SignatureSize is the length of an r‖s signature.
const SignatureSize = 64

// Signature is an ECDSA P-256 signature as the protocol carries it: r‖s.
type Signature [SignatureSize]byte

// ParseSignature takes a 64-byte r‖s signature.
func ParseSignature(b []byte) (Signature, error) {
	var s Signature
	if len(b) != SignatureSize {
		return s, fmt.Errorf("keys: signature is %d bytes, want %d (r‖s)", len(b), SignatureSize)
	}
	copy(s[:], b)
	return s, nil
}

// ParseSignatureText decodes a signature written as base64url without padding,
// the form DID proofs use; standard base64, with or without padding, is also
// accepted because older chain samples use it.
func ParseSignatureText(s string) (Signature, error) {
	b, err := DecodeBase64(s)
	if err != nil {
		return Signature{}, fmt.Errorf("keys: signature %s: %w", excerpt.Quote(s), err)
	}
	return ParseSignature(b)
}

// Text returns the signature in base64url without padding.
func (s Signature) Text() string { return base64.RawURLEncoding.EncodeToString(s[:]) }

// DecodeBase64 decodes base64url or standard base64, padded or not. The
// Elastos SDKs write base64url without padding; older data uses the standard
// alphabet with padding.
func DecodeBase64(s string) ([]byte, error) {
	raw := strings.TrimRight(s, "=")
	if strings.ContainsAny(raw, "+/") {
		return base64.RawStdEncoding.DecodeString(raw)
	}
	return base64.RawURLEncoding.DecodeString(raw)
}

// Verifier checks a P-256 signature over a SHA-256 digest. Hosts may supply
// a native implementation; Native is the pure Go one.
type Verifier interface {
	Verify(pub PublicKey, digest [32]byte, sig Signature) bool
}

// Native verifies with crypto/ecdsa.
type Native struct{}

// Verify reports whether sig is a valid signature of digest by pub.
func (Native) Verify(pub PublicKey, digest [32]byte, sig Signature) bool {
	if pub.key == nil {
		return false
	}
	var der [maxDERSize]byte
	return ecdsa.VerifyASN1(pub.key, digest[:], sig.appendDER(der[:0]))
}

// maxDERSize is the longest ASN.1 form of a signature: a SEQUENCE of two
// INTEGERs of 33 bytes (32 and a zero that keeps them positive).
const maxDERSize = 2 + 2*(2+33)

// appendDER appends the ASN.1 DER form of sig, a SEQUENCE of r and s,
// which crypto/ecdsa verifies: ecdsa.Verify would make it through two
// big.Ints and a cryptobyte.Builder, a third of a kilobyte of garbage a
// signature.
func (sig Signature) appendDER(b []byte) []byte {
	start := len(b)
	b = append(b, 0x30, 0) // SEQUENCE; its length is set below
	b = appendDERInteger(b, sig[:32])
	b = appendDERInteger(b, sig[32:])
	b[start+1] = byte(len(b) - start - 2)
	return b
}

// appendDERInteger appends the big-endian unsigned x as an ASN.1 INTEGER:
// without leading zeros, and with one zero byte before a high bit, which
// would make it negative.
func appendDERInteger(b, x []byte) []byte {
	for len(x) > 1 && x[0] == 0 {
		x = x[1:]
	}
	if x[0] >= 0x80 {
		return append(append(b, 2, byte(len(x)+1), 0), x...)
	}
	return append(append(b, 2, byte(len(x))), x...)
}

// VerifyData reports whether sig signs SHA-256(data) under pub, using v
// (and v's hashing, see Digest).
func VerifyData(v Verifier, pub PublicKey, data []byte, sig Signature) bool {
	return v.Verify(pub, Digest(v, data), sig)
}

// Hasher is implemented by Verifiers that compute SHA-256 too: a
// WebAssembly module's host hashes natively, many times faster than the
// module's own code.
type Hasher interface {
	Sum256(data []byte) [32]byte
}

// Digest returns SHA-256(data), computed by v when v is a Hasher. Code that
// hashes what it then verifies with v hashes through Digest.
func Digest(v Verifier, data []byte) [32]byte {
	if h, ok := v.(Hasher); ok {
		return h.Sum256(data)
	}
	return sha256.Sum256(data)
}

// signatureFromDER converts an ASN.1 ECDSA signature into r‖s.
func signatureFromDER(der []byte) (Signature, error) {
	var inner cryptobyte.String
	r, s := new(big.Int), new(big.Int)
	in := cryptobyte.String(der)
	if !in.ReadASN1(&inner, asn1.SEQUENCE) || !in.Empty() ||
		!inner.ReadASN1Integer(r) || !inner.ReadASN1Integer(s) || !inner.Empty() ||
		r.Sign() <= 0 || s.Sign() <= 0 || r.BitLen() > 256 || s.BitLen() > 256 {
		return Signature{}, fmt.Errorf("malformed DER signature %x", der)
	}
	var sig Signature
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return sig, nil
}
