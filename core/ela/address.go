package ela

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/didlight/didlight/core/excerpt"
	"github.com/mr-tron/base58"
	"golang.org/x/crypto/ripemd160" //lint:ignore SA1019 the protocol's program hashes are RIPEMD-160; there is no substitute

	"github.com/didlight/didlight/core/keys"
)

// ProgramHashSize is the length of a program hash: a prefix byte and a
// RIPEMD-160 digest.
const ProgramHashSize = 21

// ProgramHash identifies the script that locks an output, and is what an
// address encodes. Its first byte is a Prefix that says what kind of script.
type ProgramHash [ProgramHashSize]byte

// Prefix is the first byte of a program hash (Elastos.ELA core/contract).
type Prefix byte

// Program hash prefixes. Each gives base58 addresses a recognisable first
// letter: E, 8, X, D and i.
const (
	PrefixStandard   Prefix = 0x21
	PrefixMultiSig   Prefix = 0x12
	PrefixCrossChain Prefix = 0x4B
	PrefixDeposit    Prefix = 0x1F
	PrefixIdentity   Prefix = 0x67
)

// Script opcodes that end a redeem script (Elastos.ELA vm/opcode.go,
// common/uint168.go).
const (
	OpCheckSig      byte = 0xAC // a standard single-key script
	OpCheckSigDID   byte = 0xAD // a DID key script, as DID ids are derived today
	OpCheckMultiSig byte = 0xAE
	OpCrossChain    byte = 0xAF // ends a cross-chain script (Elastos.ELA common/uint168.go)
)

// SingleKeyScript returns the redeem script for one public key:
// 0x21 ‖ the 33-byte compressed key ‖ op. Standard wallets end it with
// [OpCheckSig]; DIDs derive their id with [OpCheckSigDID] (the oldest DIDs on
// chain used OpCheckSig).
func SingleKeyScript(pub keys.PublicKey, op byte) []byte {
	script := make([]byte, 0, 2+keys.PublicKeySize)
	script = append(script, keys.PublicKeySize)
	script = append(script, pub.Bytes()...)
	return append(script, op)
}

// ToProgramHash hashes a redeem script: prefix ‖ RIPEMD-160(SHA-256(script)).
func ToProgramHash(prefix Prefix, script []byte) ProgramHash {
	sum := sha256.Sum256(script)
	r := ripemd160.New()
	r.Write(sum[:])
	var h ProgramHash
	h[0] = byte(prefix)
	r.Sum(h[1:1])
	return h
}

// Prefix returns the kind of script the hash was made from.
func (h ProgramHash) Prefix() Prefix { return Prefix(h[0]) }

// Address returns the base58check form: base58(hash ‖ first 4 bytes of
// SHA-256(SHA-256(hash))).
func (h ProgramHash) Address() string {
	sum := keys.DoubleSHA256(h[:])
	return base58.Encode(append(h[:], sum[:4]...))
}

// String returns the address form.
func (h ProgramHash) String() string { return h.Address() }

// Hex returns the program hash in hex, byte order as stored.
func (h ProgramHash) Hex() string { return hex.EncodeToString(h[:]) }

// ParseAddress decodes a base58check address and checks its length and
// checksum. It accepts any prefix; callers that need one kind check Prefix.
func ParseAddress(s string) (ProgramHash, error) {
	var h ProgramHash
	if s == "" {
		return h, fmt.Errorf("ela: empty address")
	}
	b, err := keys.DecodeBase58(s, ProgramHashSize+4)
	if err != nil {
		return h, fmt.Errorf("ela: address %s is not base58: %w", excerpt.Quote(s), err)
	}
	if len(b) != ProgramHashSize+4 {
		return h, fmt.Errorf("ela: address %s decodes to %d bytes, want %d", excerpt.Quote(s), len(b), ProgramHashSize+4)
	}
	copy(h[:], b)
	if sum := keys.DoubleSHA256(h[:]); string(sum[:4]) != string(b[ProgramHashSize:]) {
		return h, fmt.Errorf("ela: address %s has checksum %x, want %x", excerpt.Quote(s), b[ProgramHashSize:], sum[:4])
	}
	return h, nil
}
