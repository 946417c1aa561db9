package did

import (
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/keys"
)

// FromKey returns the standard DID of a key: the identity address of the
// script 0x21 ‖ key ‖ 0xAD, as every DID since the oldest ones is derived.
func FromKey(pub keys.PublicKey) DID {
	return DID{id: programHash(pub.Bytes(), ela.OpCheckSigDID).Address()}
}

// Derivation says how a key derives a DID.
type Derivation uint8

// How a key may derive a DID.
const (
	NotDerived    Derivation = iota
	Derived                  // with the 0xAD suffix, as today
	DerivedLegacy            // with the 0xAC suffix of the oldest DIDs on chain
)

// DerivedFrom reports whether pub derives d, in either suffix form.
func (d DID) DerivedFrom(pub keys.PublicKey) Derivation {
	h, ok := d.programHash()
	if !ok {
		return NotDerived
	}
	return derives(h, pub.Bytes())
}

// programHash returns the program hash a standard DID's id encodes.
func (d DID) programHash() (ela.ProgramHash, bool) {
	h, err := ela.ParseAddress(d.id)
	return h, err == nil && h.Prefix() == ela.PrefixIdentity
}

// derives works on the compressed key bytes, so that no curve point has to be
// decoded to find a document's default key.
func derives(h ela.ProgramHash, compressed []byte) Derivation {
	for _, how := range [...]Derivation{Derived, DerivedLegacy} {
		if programHash(compressed, how.op()) == h {
			return how
		}
	}
	return NotDerived
}

// op returns the opcode that ends the script of a derivation.
func (how Derivation) op() byte {
	if how == DerivedLegacy {
		return ela.OpCheckSig
	}
	return ela.OpCheckSigDID
}

func programHash(compressed []byte, op byte) ela.ProgramHash {
	var script [2 + keys.PublicKeySize]byte
	script[0] = byte(len(compressed))
	copy(script[1:], compressed)
	script[len(script)-1] = op
	return ela.ToProgramHash(ela.PrefixIdentity, script[:2+len(compressed)])
}
