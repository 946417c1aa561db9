package keys_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/didlight/didlight/core/keys"
)

// A key signs a message's SHA-256 digest; anyone with the public key, as a
// DID document publishes it (publicKeyBase58), checks the signature.
func Example() {
	// The dev account of a didlight devnet: SHA-256("didlight dev account:" + seed).
	secret := sha256.Sum256([]byte("didlight dev account:didlight"))
	priv, err := keys.NewPrivateKey(secret[:])
	if err != nil {
		fmt.Println(err)
		return
	}
	pub := priv.Public()
	fmt.Println("public key", hex.EncodeToString(pub.Bytes()))

	msg := []byte("hello, identity chain")
	sig := priv.SignData(msg)
	fmt.Println("verifies:", keys.VerifyData(keys.Native{}, pub, msg, sig))
	fmt.Println("another message:", keys.VerifyData(keys.Native{}, pub, []byte("hello"), sig))

	// The published form of the key reads back as the same key.
	again, err := keys.ParsePublicKeyBase58(pub.Base58())
	fmt.Println("base58 round trip:", err == nil && again.Equal(pub))
	// Output:
	// public key 035d9f647212ec13e06728efc22ed9f56a4828f0416b6e33dc6e0651b8ea5210bd
	// verifies: true
	// another message: false
	// base58 round trip: true
}

// Signatures are 64 bytes, r‖s; malformed ones are refused with what is
// wrong.
func ExampleParseSignature() {
	_, err := keys.ParseSignature(make([]byte, 63))
	fmt.Println(err)
	// Output:
	// keys: signature is 63 bytes, want 64 (r‖s)
}
