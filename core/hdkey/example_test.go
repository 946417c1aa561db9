package hdkey_test

import (
	"fmt"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/hdkey"
)

// A mnemonic gives the same DIDs here as in the Elastos DID SDKs
// (this one is from the SDK's own tests).
func Example() {
	root, err := hdkey.FromMnemonic("cloth always junk crash fun exist stumble shift over benefit fun toe", "")
	if err != nil {
		panic(err)
	}
	for i := range uint32(2) {
		k, err := root.DIDKey(i)
		if err != nil {
			panic(err)
		}
		fmt.Println(did.FromKey(k.Public()))
	}
	// Output:
	// did:elastos:iY4Ghz9tCuWvB5rNwvn4ngWvthZMNzEA7U
	// did:elastos:iiJDdo3EoG7o5evT6aimVqM8jyeDnr7yY1
}

func ExampleNewMnemonic() {
	entropy := make([]byte, 16) // take it from crypto/rand
	m, err := hdkey.NewMnemonic(entropy)
	fmt.Println(m, err)
	// Output: abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about <nil>
}
