package hdkey

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/did"
)

// The wordlist must be byte for byte the published one.
func TestWordlist(t *testing.T) {
	const published = "2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda"
	if sum := sha256.Sum256([]byte(englishText)); hex.EncodeToString(sum[:]) != published {
		t.Fatalf("english.txt SHA-256 %x, want %s", sum, published)
	}
	if len(wordlist) != 2048 {
		t.Fatalf("%d words, want 2048", len(wordlist))
	}
	for i := 1; i < len(wordlist); i++ {
		if wordlist[i-1] >= wordlist[i] {
			t.Fatalf("words %d and %d out of order: %q, %q", i-1, i, wordlist[i-1], wordlist[i])
		}
	}
}

// BIP39 vectors, one per mnemonic length, with passphrase "TREZOR" as in
// the reference vectors (trezor/python-mnemonic vectors.json); the seeds are
// checked against npm bip39 3.0.4, the library the Elastos DID SDKs use.
var bip39Vectors = []struct{ entropy, mnemonic, seed string }{
	{"00000000000000000000000000000000", "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
		"c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e53495531f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04"},
	{"7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f", "legal winner thank year wave sausage worth useful legal winner thank year wave sausage worth useful legal will",
		"f2b94508732bcbacbcc020faefecfc89feafa6649a5491b8c952cede496c214a0c7b3c392d168748f2d4a612bada0753b52a1c7ac53c1e93abd5c6320b9e95dd"},
	{"ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", "zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo vote",
		"dd48c104698c30cfe2b6142103248622fb7bb0ff692eebb00089b32d22484e1613912f0a5b694407be899ffd31ed3992c456cdf60f5d4564b8ba3f05a69890ad"},
	{"0ce452419635c1a5faf44d60f2029f73fdc43419b4de1f03", "artefact card motor cluster foster spray type meadow genius mosquito pond tree sword borrow grocery orange business burger",
		"378b20cc763e0c535514cd2dda75dfd3edfb3c3a09f2a2b096bce82d14ea61837249797dc74b5dc0a5ec24f9c8fb244631447856b4a4a01322ca84d1574dfeb5"},
	{"7dce4ed2284c9134d026608ab684c05c", "lava include region explain simple omit dog slot melt reflect copy reward",
		"dbc357660c90637d17704ff8d876e6992368bdf03e298fd1e20b2897e35abe92f0bf6ffe6ebc3063394b76a9edeba2f6d1da707ecf8a5f77b5579fe5efbac369"},
}

func TestBIP39Vectors(t *testing.T) {
	for _, v := range bip39Vectors {
		entropy, _ := hex.DecodeString(v.entropy)
		m, err := NewMnemonic(entropy)
		if err != nil || m != v.mnemonic {
			t.Errorf("NewMnemonic(%s) = %q, %v; want %q", v.entropy, m, err, v.mnemonic)
		}
		seed, err := Seed(v.mnemonic, "TREZOR")
		if err != nil || hex.EncodeToString(seed) != v.seed {
			t.Errorf("Seed(%q) = %x, %v; want %s", v.mnemonic, seed, err, v.seed)
		}
	}
}

func TestParseMnemonic(t *testing.T) {
	const valid = "cloth always junk crash fun exist stumble shift over benefit fun toe"
	if m, err := ParseMnemonic("  Cloth ALWAYS junk\tcrash fun exist stumble shift over benefit fun toe\n"); err != nil || m != valid {
		t.Errorf("ParseMnemonic of a spaced, mixed-case mnemonic = %q, %v; want the canonical form", m, err)
	}
	tests := []struct {
		name, in string
		word     int
		msg      string
	}{
		{"empty", "", 0, "0 words"},
		{"eleven words", "cloth always junk crash fun exist stumble shift over benefit fun", 0, "11 words"},
		{"thirteen words", valid + " toe", 0, "13 words"},
		{"unknown word", "cloth always junk crash fun exist stumble shift over benefit fun toes", 12, "not in the BIP39"},
		{"swapped words", "always cloth junk crash fun exist stumble shift over benefit fun toe", 0, "checksum"},
		{"last word changed", "cloth always junk crash fun exist stumble shift over benefit fun cloth", 0, "checksum"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseMnemonic(tt.in)
			var me *MnemonicError
			if !errors.As(err, &me) || me.Word != tt.word || !strings.Contains(me.Error(), tt.msg) {
				t.Errorf("%s: error %v, want a *MnemonicError at word %d saying %q", tt.name, err, tt.word, tt.msg)
			}
		})
	}
}

func TestNewMnemonicEntropyLength(t *testing.T) {
	for _, n := range []int{0, 15, 17, 36} {
		if _, err := NewMnemonic(make([]byte, n)); err == nil || !strings.Contains(err.Error(), "entropy is") {
			t.Errorf("NewMnemonic(%d bytes): error %v, want one about the entropy length", n, err)
		}
	}
}

func TestSeedRefusesNonASCIIPassphrase(t *testing.T) {
	_, err := Seed(bip39Vectors[0].mnemonic, "pässword")
	if err == nil || !strings.Contains(err.Error(), "not ASCII") {
		t.Errorf("Seed with a non-ASCII passphrase: error %v, want a refusal", err)
	}
}

// The SDK's own HDKey tests (Elastos.DID.JS.SDK tests/src/crypto/hdkey.test.ts,
// Test 0 to Test 2) and derivations made with the published SDK through npm
// (testdata/sdk-derivations.json) must come out the same here.
func TestSDKVectors(t *testing.T) {
	sdkTests := []struct{ mnemonic, passphrase, did string }{
		{"cloth always junk crash fun exist stumble shift over benefit fun toe", "", "iY4Ghz9tCuWvB5rNwvn4ngWvthZMNzEA7U"},
		{"service illegal blossom voice three eagle grace agent service average knock round", "", "iW3HU8fTmwkENeVT9UCEvvg3ddUD5oCxYA"},
	}
	for i, tt := range sdkTests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if got := didAt(t, tt.mnemonic, tt.passphrase, 0); got.ID() != tt.did {
				t.Errorf("DID 0 of %q = %s, want %s", tt.mnemonic, got.ID(), tt.did)
			}
		})
	}
	master, err := FromMnemonic("pact reject sick voyage foster fence warm luggage cabbage any subject carbon", "helloworld")
	if err != nil {
		t.Fatal(err)
	}
	const wantMaster = "xprv9s21ZrQH143K4biiQbUq8369meTb1R8KnstYFAKtfwk3vF8uvFd1EC2s49bMQsbdbmdJxUWRkuC48CXPutFfynYFVGnoeq8LJZhfd9QjvUt"
	if got := master.ExtendedPrivate(); got != wantMaster {
		t.Errorf("master key %s, want %s", got, wantMaster)
	}

	var file struct {
		Cases []struct {
			Mnemonic, Passphrase, DID, PublicKeyBase58, Xprv string
			Index                                            uint32
		}
	}
	b, err := os.ReadFile("testdata/sdk-derivations.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &file); err != nil || len(file.Cases) == 0 {
		t.Fatalf("testdata/sdk-derivations.json: %d cases, %v", len(file.Cases), err)
	}
	for _, c := range file.Cases {
		root, err := FromMnemonic(c.Mnemonic, c.Passphrase)
		if err != nil {
			t.Fatal(err)
		}
		k, err := root.DIDKey(c.Index)
		if err != nil {
			t.Fatal(err)
		}
		if got := did.FromKey(k.Public()).String(); got != c.DID {
			t.Errorf("%q/%q index %d: DID %s, SDK %s", c.Mnemonic, c.Passphrase, c.Index, got, c.DID)
		}
		if got := k.Public().Base58(); got != c.PublicKeyBase58 {
			t.Errorf("index %d: public key %s, SDK %s", c.Index, got, c.PublicKeyBase58)
		}
		if got := k.ExtendedPrivate(); got != c.Xprv {
			t.Errorf("index %d: xprv %s, SDK %s", c.Index, got, c.Xprv)
		}
	}
}

// didAt returns DID number index of a mnemonic.
func didAt(t *testing.T, mnemonic, passphrase string, index uint32) did.DID {
	t.Helper()
	root, err := FromMnemonic(mnemonic, passphrase)
	if err != nil {
		t.Fatal(err)
	}
	k, err := root.DIDKey(index)
	if err != nil {
		t.Fatal(err)
	}
	return did.FromKey(k.Public())
}

// The master key of BIP32 test vector 1 does not depend on the curve
// (bitcoin/bips bip-0032.mediawiki, "Test vector 1", chain m); the SDK's
// HDKey.newWithSeed gives the same.
func TestBIP32MasterVector(t *testing.T) {
	seed, _ := hex.DecodeString("000102030405060708090a0b0c0d0e0f")
	m, err := NewMaster(seed)
	if err != nil {
		t.Fatal(err)
	}
	const want = "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi"
	if got := m.ExtendedPrivate(); got != want {
		t.Errorf("master %s, want %s", got, want)
	}
}

func TestExtendedRoundTrip(t *testing.T) {
	root, err := FromMnemonic(bip39Vectors[0].mnemonic, "x")
	if err != nil {
		t.Fatal(err)
	}
	k, err := root.Derive("m/44'/0'/0'/0/5")
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseExtended(k.ExtendedPrivate())
	if err != nil {
		t.Fatal(err)
	}
	if back.ExtendedPrivate() != k.ExtendedPrivate() || back.Depth() != 5 || back.Index() != 5 {
		t.Errorf("round trip: %s depth %d index %d, want %s depth 5 index 5", back.ExtendedPrivate(), back.Depth(), back.Index(), k.ExtendedPrivate())
	}
	// A relative path from the parsed key goes on as from the original.
	pre, _ := root.Derive("m/44'/0'/0'")
	rel, err := pre.Derive("0/5")
	if err != nil || rel.ExtendedPrivate() != k.ExtendedPrivate() {
		t.Errorf("relative derivation 0/5 = %v, %v; want the key at m/44'/0'/0'/0/5", rel, err)
	}
}

func TestDeriveErrors(t *testing.T) {
	root, err := FromMnemonic(bip39Vectors[0].mnemonic, "")
	if err != nil {
		t.Fatal(err)
	}
	child, _ := root.Child(1)
	tests := []struct {
		key  *Key
		path string
		msg  string
	}{
		{root, "m/x", `"x" is not an index`},
		{root, "m/2147483648", "not an index below 2^31"},
		{root, "m/01", "not an index"},
		{root, "m//1", "not an index"},
		{child, "m/1", "starts at the master key"},
	}
	for i, tt := range tests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if _, err := tt.key.Derive(tt.path); err == nil || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("Derive(%q): error %v, want %q", tt.path, err, tt.msg)
			}
		})
	}
	if _, err := root.DIDKey(Hardened); err == nil {
		t.Error("DIDKey(2^31) succeeded")
	}
}

func TestParseExtendedErrors(t *testing.T) {
	root, _ := FromMnemonic(bip39Vectors[0].mnemonic, "")
	good := root.ExtendedPrivate()
	tests := []struct{ in, msg string }{
		{"0OIl", "not base58"},
		{"xprv", "bytes, want 82"},
		{good[:len(good)-1] + "x", "checksum"},
		{root.ExtendedPublic(), "extended public key"},
	}
	for i, tt := range tests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if _, err := ParseExtended(tt.in); err == nil || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("ParseExtended(%.12s…): error %v, want %q", tt.in, err, tt.msg)
			}
		})
	}
}
