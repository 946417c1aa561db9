package keystore

import (
	"encoding/json"
	"os"
	"testing"
)

// FuzzParse: any input either fails or parses to a file that parses the
// same once written again. (Open runs scrypt, far too slow for a fuzz loop;
// its decoding of the sealed secret is FuzzSecret's.)
func FuzzParse(f *testing.F) {
	good, err := os.ReadFile("testdata/wallet-pw.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{"version":1}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		file, err := Parse(b)
		if err != nil {
			return
		}
		again, _ := json.Marshal(file)
		if back, err := Parse(again); err != nil || *back != *file {
			t.Fatalf("re-encoded file parses as %+v, %v; want %+v", back, err, file)
		}
	})
}

// FuzzSecret: a decrypted secret either fails or gives a wallet that seals
// into a file with the same key.
func FuzzSecret(f *testing.F) {
	f.Add([]byte(`{"mnemonic":"` + mnemonic + `","index":3}`))
	f.Add([]byte(`{"privateKey":"0707070707070707070707070707070707070707070707070707070707070707"}`))
	f.Add([]byte(`{"privateKey":"ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var s secret
		if json.Unmarshal(b, &s) != nil {
			return
		}
		w, err := s.wallet()
		if err != nil {
			return
		}
		if w.Key == nil || w.DID().IsZero() {
			t.Fatalf("secret %q gave a wallet without a key", b)
		}
	})
}
