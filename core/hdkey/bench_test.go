package hdkey

import "testing"

// BenchmarkSeed is BIP39's PBKDF2 (2048 rounds of HMAC-SHA512): the cost of
// opening a mnemonic wallet, before derivation.
func BenchmarkSeed(b *testing.B) {
	for b.Loop() {
		if _, err := Seed(bip39Vectors[0].mnemonic, "TREZOR"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDIDKey derives the key of a DID from the master key: five
// child derivations (m/44'/0'/0'/0/i).
func BenchmarkDIDKey(b *testing.B) {
	root, err := FromMnemonic(bip39Vectors[0].mnemonic, "")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := root.DIDKey(7); err != nil {
			b.Fatal(err)
		}
	}
}
