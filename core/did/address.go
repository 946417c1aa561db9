package did

import (
	"didlight/core/ela"
	"didlight/core/keys"
)

// FromKey returns the standard DID of a key: the identity address of the
// script 0x21 ‖ key ‖ 0xAD, as every DID since the oldest ones is derived.
func FromKey(pub keys.PublicKey) DID {
	return DID{id: address(pub.Bytes(), ela.OpCheckSigDID)}
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
	return derivation(d, pub.Bytes())
}

// derivation works on the compressed key bytes, so that no curve point has
// to be decoded to find a document's default key.
func derivation(d DID, compressed []byte) Derivation {
	switch d.id {
	case address(compressed, ela.OpCheckSigDID):
		return Derived
	case address(compressed, ela.OpCheckSig):
		return DerivedLegacy
	}
	return NotDerived
}

func address(compressed []byte, op byte) string {
	script := make([]byte, 0, 2+keys.PublicKeySize)
	script = append(script, byte(len(compressed)))
	script = append(script, compressed...)
	script = append(script, op)
	return ela.ToProgramHash(ela.PrefixIdentity, script).Address()
}
