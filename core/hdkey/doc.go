// Package hdkey derives DID and wallet keys from a mnemonic as the Elastos DID SDKs do.
//
// It derives DID and wallet keys from a mnemonic the way the Elastos DID
// SDKs do: a BIP39 English mnemonic and passphrase give a 64-byte seed, and
// BIP32 hierarchical derivation over P-256 (secp256r1) gives the key of each
// DID at m/44'/0'/0'/0/index (Elastos.DID.JS.SDK src/crypto/hdkey.ts,
// src/hdkey-secp256r1/index.ts, src/mnemonic.ts).
//
// The SDKs run BIP32 unchanged on P-256: the master key is
// HMAC-SHA512("Bitcoin seed", seed), a child key is the parent scalar plus
// the left half of HMAC-SHA512(chain code, data) modulo the P-256 order, and
// extended keys serialize as xprv with Bitcoin's version bytes. So a mnemonic
// gives, here and in the SDKs, the same keys and hence the same DIDs.
//
// The package is pure: [NewMnemonic] takes its entropy from the caller.
package hdkey
