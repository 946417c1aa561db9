package keystore

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/keys"
)

// cheap keeps the tests fast; the files they write are valid all the same.
var cheap = Params{N: minN, R: 8, P: 1}

const mnemonic = "cloth always junk crash fun exist stumble shift over benefit fun toe"

func TestSealOpen(t *testing.T) {
	fromMnemonic, err := FromMnemonic(mnemonic, "pass", 2)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := keys.NewPrivateKey(bytes.Repeat([]byte{7}, 32))
	for name, w := range map[string]*Wallet{"mnemonic": fromMnemonic, "key": {Key: raw}} {
		b, err := Seal(w, []byte("correct horse"), cheap, rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte("cloth")) || bytes.Contains(b, []byte("0707070707")) {
			t.Fatalf("%s: the file holds the secret in the clear:\n%s", name, b)
		}
		f, err := Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		if f.Address != w.ProgramHash().Address() || f.DID != w.DID().String() {
			t.Errorf("%s: public part %s %s, want %s %s", name, f.Address, f.DID, w.ProgramHash().Address(), w.DID())
		}
		got, err := Open(b, []byte("correct horse"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Key.Bytes(), w.Key.Bytes()) || got.Mnemonic != w.Mnemonic || got.Passphrase != w.Passphrase || got.Index != w.Index {
			t.Errorf("%s: opened %+v, sealed %+v", name, got, w)
		}
		if _, err := Open(b, []byte("correct horse!")); !errors.Is(err, ErrPassword) {
			t.Errorf("%s: wrong password: error %v, want ErrPassword", name, err)
		}
	}
}

// A file written by an earlier build still opens: the format is stable.
func TestOpenStoredFile(t *testing.T) {
	b, err := os.ReadFile("testdata/wallet-pw.json")
	if err != nil {
		t.Fatal(err)
	}
	w, err := Open(b, []byte("pw"))
	if err != nil {
		t.Fatal(err)
	}
	if w.Mnemonic != mnemonic || w.DID().ID() != "iY4Ghz9tCuWvB5rNwvn4ngWvthZMNzEA7U" {
		t.Errorf("opened %q → %s, want the test mnemonic's DID 0", w.Mnemonic, w.DID())
	}
}

// The SDK derives iiJDdo3EoG7o5evT6aimVqM8jyeDnr7yY1 as DID 1 of the mnemonic.
func TestFromMnemonicDID(t *testing.T) {
	w, err := FromMnemonic(mnemonic, "", 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := w.DID().ID(); got != "iiJDdo3EoG7o5evT6aimVqM8jyeDnr7yY1" {
		t.Errorf("DID %s, want iiJDdo3EoG7o5evT6aimVqM8jyeDnr7yY1", got)
	}
	if _, err := FromMnemonic("cloth always", "", 0); err == nil {
		t.Error("a two-word mnemonic was accepted")
	}
}

// Swapping the public part for another key's is detected like a wrong
// password, so a file cannot be made to show an address it does not pay.
func TestTamperedPublicPart(t *testing.T) {
	w, _ := FromMnemonic(mnemonic, "", 0)
	other, _ := FromMnemonic(mnemonic, "", 1)
	b, _ := Seal(w, []byte("pw"), cheap, rand.Reader)
	var f File
	json.Unmarshal(b, &f)
	f.Address, f.DID, f.PublicKey = other.ProgramHash().Address(), other.DID().String(), other.Key.Public().Base58()
	altered, _ := json.Marshal(f)
	if _, err := Open(altered, []byte("pw")); !errors.Is(err, ErrPassword) {
		t.Errorf("altered public part: error %v, want ErrPassword", err)
	}
}

func TestParseErrors(t *testing.T) {
	w, _ := FromMnemonic(mnemonic, "", 0)
	good, _ := Seal(w, []byte("pw"), cheap, rand.Reader)
	edit := func(change func(*File)) []byte {
		var f File
		json.Unmarshal(good, &f)
		change(&f)
		b, _ := json.Marshal(f)
		return b
	}
	tests := []struct {
		name string
		in   []byte
		msg  string
	}{
		{"not JSON", []byte("xprv…"), "not a wallet file"},
		{"version", edit(func(f *File) { f.Version = 2 }), "version 2"},
		{"public key", edit(func(f *File) { f.PublicKey = "abc" }), "publicKey"},
		{"address", edit(func(f *File) { f.Address = "EQ" }), "is not the address"},
		{"did", edit(func(f *File) { f.DID = "did:elastos:foo" }), "is not the DID"},
		{"kdf", edit(func(f *File) { f.Crypto.KDF = "pbkdf2" }), "want scrypt"},
		{"N not a power of two", edit(func(f *File) { f.Crypto.N = 3000 }), "power of two"},
		{"N too large", edit(func(f *File) { f.Crypto.N = 1 << 24 }), "power of two"},
		{"memory", edit(func(f *File) { f.Crypto.R = 1 << 20 }), "1 GiB"},
		{"p", edit(func(f *File) { f.Crypto.P = 0 }), "p 0"},
		{"salt", edit(func(f *File) { f.Crypto.Salt = "00" }), "crypto.salt"},
		{"nonce", edit(func(f *File) { f.Crypto.Nonce = "zz" }), "crypto.nonce"},
		{"ciphertext", edit(func(f *File) { f.Crypto.Ciphertext = "" }), "crypto.ciphertext"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Parse(tt.in); err == nil || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.msg)
			}
			if _, err := Open(tt.in, []byte("pw")); err == nil || errors.Is(err, ErrPassword) {
				t.Errorf("%s: Open error %v, want the parse error", tt.name, err)
			}
		})
	}
}

func TestSealRefusesWeakParams(t *testing.T) {
	w, _ := FromMnemonic(mnemonic, "", 0)
	if _, err := Seal(w, []byte("pw"), Params{N: 16, R: 1, P: 1}, rand.Reader); err == nil {
		t.Error("Seal accepted N = 16")
	}
	if _, err := Seal(w, []byte("pw"), cheap, bytes.NewReader(nil)); err == nil || !strings.Contains(err.Error(), "randomness") {
		t.Errorf("Seal with an empty random source: error %v", err)
	}
}

// BenchmarkOpen measures what a password costs at DefaultParams.
func BenchmarkOpen(b *testing.B) {
	w, _ := FromMnemonic(mnemonic, "", 0)
	file, _ := Seal(w, []byte("pw"), DefaultParams, rand.Reader)
	for b.Loop() {
		if _, err := Open(file, []byte("pw")); err != nil {
			b.Fatal(err)
		}
	}
}
