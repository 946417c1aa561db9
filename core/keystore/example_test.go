package keystore_test

import (
	"crypto/rand"
	"fmt"

	"github.com/didlight/didlight/core/keystore"
)

// A wallet from a mnemonic, sealed and opened again. The file shows its
// address and DID without the password.
func Example() {
	w, err := keystore.FromMnemonic("cloth always junk crash fun exist stumble shift over benefit fun toe", "", 0)
	if err != nil {
		panic(err)
	}
	file, err := keystore.Seal(w, []byte("s3cret"), keystore.DefaultParams, rand.Reader)
	if err != nil {
		panic(err)
	}
	public, _ := keystore.Parse(file)
	fmt.Println(public.DID)
	_, err = keystore.Open(file, []byte("wrong"))
	fmt.Println(err)
	opened, _ := keystore.Open(file, []byte("s3cret"))
	fmt.Println(opened.ProgramHash().Address() == public.Address)
	// Output:
	// did:elastos:iY4Ghz9tCuWvB5rNwvn4ngWvthZMNzEA7U
	// keystore: wrong password (or the wallet file was altered)
	// true
}
