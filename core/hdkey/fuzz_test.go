package hdkey

import (
	"strings"
	"testing"
)

// FuzzParseMnemonic: any text either fails with a *MnemonicError or parses
// to a canonical form that parses to itself and has a seed.
func FuzzParseMnemonic(f *testing.F) {
	for _, v := range bip39Vectors {
		f.Add(v.mnemonic)
	}
	f.Add("cloth always junk crash fun exist stumble shift over benefit fun cloth")
	f.Add(strings.Repeat("zoo ", 25))
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMnemonic(s)
		if err != nil {
			if _, ok := err.(*MnemonicError); !ok {
				t.Fatalf("error %T %v, want *MnemonicError", err, err)
			}
			return
		}
		if again, err := ParseMnemonic(m); err != nil || again != m {
			t.Fatalf("canonical form %q reparses as %q, %v", m, again, err)
		}
	})
}

// FuzzParseExtended: any text either fails or gives a key that serializes
// back to the same text.
func FuzzParseExtended(f *testing.F) {
	root, err := FromMnemonic(bip39Vectors[0].mnemonic, "")
	if err != nil {
		f.Fatal(err)
	}
	k, _ := root.DIDKey(3)
	f.Add(root.ExtendedPrivate())
	f.Add(k.ExtendedPrivate())
	f.Add(k.ExtendedPublic())
	f.Fuzz(func(t *testing.T, s string) {
		key, err := ParseExtended(s)
		if err != nil {
			return
		}
		if got := key.ExtendedPrivate(); got != s {
			t.Fatalf("ParseExtended(%q) serializes as %q", s, got)
		}
	})
}
