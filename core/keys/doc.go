// Package keys implements the P-256 keys and signatures of the Elastos identity chain.
//
// It holds the P-256 (secp256r1) keys and signatures every part of the
// Elastos identity chain uses: DID document keys, ID-chain request proofs
// and ledger transaction programs.
//
// Public keys travel as 33-byte SEC 1 compressed points, usually written in
// base58 (publicKeyBase58 in DID documents). Signatures are 64 bytes, r‖s,
// each a 32-byte big-endian integer, over a SHA-256 digest.
//
// Signing is deterministic (RFC 6979), so the package reads no randomness and
// stays a pure function of its inputs. Verification goes through the [Verifier]
// interface so that a host may supply a faster native implementation (the
// WebAssembly module asks its host); [Native] is the Go implementation.
package keys
