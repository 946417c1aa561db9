package keys

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/internal/vectors"
	"github.com/mr-tron/base58"
)

func TestExtendedKeysDeriveDocumentKeys(t *testing.T) {
	// Each SDK key file holds the private half of a publicKeyBase58 in the
	// matching document: user1.id.primary.sk ↔ user1.id.json #primary.
	for i, tc := range []struct{ sk, pub string }{
		{"elastos-did-sdk/v1/user1.id.primary.sk", "vMYSz32qbWsNeDJpKsuuMaFsiApuZMz9XVy9DmEwysWg"},
		{"elastos-did-sdk/v1/user1.id.key2.sk", "kP9yBiRNMLhJkn4YtCgLNXb2SKKCjeyrPWcatHcUh8tT"},
		{"elastos-did-sdk/v1/user1.id.key3.sk", "uQmGsJjX6VCxeFz6TxF4AYby6DCmU5CEK1bS68SUks8S"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			k, err := ParseExtendedPrivateKey(vectors.String(tc.sk))
			if err != nil {
				t.Fatalf("%s: %v", tc.sk, err)
			}
			if got := k.Public().Base58(); got != tc.pub {
				t.Errorf("%s: public key %s, want %s", tc.sk, got, tc.pub)
			}
		})
	}
}

func TestParseExtendedPrivateKeyErrors(t *testing.T) {
	good := vectors.String("elastos-did-sdk/v1/user1.id.primary.sk")
	for _, tc := range []struct{ name, in, want string }{
		{"not base58", "xprv0OIl", "not base58"},
		{"short", good[:100], "bytes, want 82"},
		{"checksum", good[:110] + string(flip(good[110])), "checksum"},
		{"xpub", "xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8", "version"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseExtendedPrivateKey(tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
			}
		})
	}
}

func flip(c byte) byte {
	if c == 'a' {
		return 'b'
	}
	return 'a'
}

func TestParsePublicKeyErrors(t *testing.T) {
	onCurve := mustPub(t, "vMYSz32qbWsNeDJpKsuuMaFsiApuZMz9XVy9DmEwysWg").Bytes()
	offCurve := append([]byte{2}, []byte(strings.Repeat("\xff", 32))...) // x ≥ p
	for _, tc := range []struct {
		name string
		in   []byte
		want string
	}{
		{"empty", nil, "0 bytes"},
		{"uncompressed", append([]byte{4}, make([]byte, 64)...), "65 bytes"},
		{"prefix", append([]byte{5}, onCurve[1:]...), "prefix 0x05"},
		{"off curve", offCurve, "not a point"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParsePublicKey(tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
			}
		})
	}
	if _, err := ParsePublicKeyBase58("0OIl"); err == nil || !strings.Contains(err.Error(), "not base58") {
		t.Errorf("ParsePublicKeyBase58(bad alphabet) error %v", err)
	}
}

func TestSignIsDeterministicAndVerifies(t *testing.T) {
	k, err := ParseExtendedPrivateKey(vectors.String("elastos-did-sdk/v2.2/user1.id.primary.sk"))
	if err != nil {
		t.Fatal(err)
	}
	msg := []byte("didlight")
	sig := k.SignData(msg)
	if again := k.SignData(msg); again != sig {
		t.Errorf("two signatures of one message differ: %x, %x", sig, again)
	}
	if !VerifyData(Native{}, k.Public(), msg, sig) {
		t.Fatal("signature does not verify")
	}
	if VerifyData(Native{}, k.Public(), []byte("didlighT"), sig) {
		t.Error("signature verifies over another message")
	}
	bad := sig
	bad[63] ^= 1
	if VerifyData(Native{}, k.Public(), msg, bad) {
		t.Error("tampered signature verifies")
	}
	if (Native{}).Verify(PublicKey{}, sha256.Sum256(msg), sig) {
		t.Error("zero public key verifies")
	}
	round, err := ParseSignatureText(sig.Text())
	if err != nil || round != sig {
		t.Errorf("ParseSignatureText(Text()) = %x, %v; want %x", round, err, sig)
	}
	priv, err := NewPrivateKey(k.Bytes())
	if err != nil || !priv.Public().Equal(k.Public()) {
		t.Errorf("NewPrivateKey(Bytes()) = %v, %v; want the same key", priv, err)
	}
}

// The chain sample signs SHA-256(specification ‖ operation ‖ payload) and
// writes the signature in standard base64 with padding.
func TestVerifyChainSampleSignature(t *testing.T) {
	var v struct {
		PublicKeyBase58 string
		Operation       struct {
			Header  struct{ Specification, Operation string }
			Payload string
			Proof   struct{ Signature string }
		}
	}
	if err := json.Unmarshal(vectors.Read("idchain/create-op-mainnet-format.json"), &v); err != nil {
		t.Fatal(err)
	}
	pub := mustPub(t, v.PublicKeyBase58)
	sig, err := ParseSignatureText(v.Operation.Proof.Signature)
	if err != nil {
		t.Fatal(err)
	}
	op := v.Operation
	data := op.Header.Specification + op.Header.Operation + op.Payload
	if !VerifyData(Native{}, pub, []byte(data), sig) {
		t.Error("chain sample signature does not verify")
	}
}

func TestDecodeBase64Alphabets(t *testing.T) {
	for _, in := range []string{"-_8", "+/8=", "+/8", "-_8="} {
		b, err := DecodeBase64(in)
		if err != nil || len(b) != 2 || b[0] != 0xfb || b[1] != 0xff {
			t.Errorf("DecodeBase64(%q) = %x, %v; want fbff", in, b, err)
		}
	}
	if _, err := DecodeBase64("a-+b"); err == nil {
		t.Error("DecodeBase64 accepted a mix of both alphabets")
	}
	if _, err := ParseSignatureText("AAAA"); err == nil || !strings.Contains(err.Error(), "3 bytes") {
		t.Errorf("short signature error %v", err)
	}
}

func mustPub(t *testing.T, s string) PublicKey {
	t.Helper()
	k, err := ParsePublicKeyBase58(s)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func BenchmarkVerify(b *testing.B) {
	k, err := ParseExtendedPrivateKey(vectors.String("elastos-did-sdk/v1/user1.id.primary.sk"))
	if err != nil {
		b.Fatal(err)
	}
	digest := sha256.Sum256([]byte("didlight"))
	sig := k.Sign(digest)
	pub := k.Public()
	for b.Loop() {
		if !(Native{}).Verify(pub, digest, sig) {
			b.Fatal("does not verify")
		}
	}
}

// countingHasher hashes as a host would, counting the calls.
type countingHasher struct {
	Native
	calls *int
}

func (h countingHasher) Sum256(data []byte) [32]byte {
	*h.calls++
	return sha256.Sum256(data)
}

// Digest hashes through a Verifier that hashes, and itself otherwise.
func TestDigestUsesTheVerifiersHashing(t *testing.T) {
	data := []byte("didlight")
	want := sha256.Sum256(data)
	var calls int
	h := countingHasher{calls: &calls}
	if got := Digest(Native{}, data); got != want {
		t.Errorf("Digest(Native) = %x, want %x", got, want)
	}
	if got := Digest(h, data); got != want || calls != 1 {
		t.Errorf("Digest(hasher) = %x after %d calls, want %x after 1", got, calls, want)
	}
	priv, err := NewPrivateKey(sha256.New().Sum(nil))
	if err != nil {
		t.Fatal(err)
	}
	if !VerifyData(h, priv.Public(), data, priv.SignData(data)) || calls != 2 {
		t.Errorf("VerifyData through a hasher: %d hash calls, want 2", calls)
	}
}

// The bound of DecodeBase58 holds every encoding of n bytes and refuses
// longer text without decoding it.
func TestDecodeBase58Bound(t *testing.T) {
	for _, n := range []int{1, 25, 33, 82} {
		max := make([]byte, n)
		for i := range max {
			max[i] = 0xff
		}
		for _, b := range [][]byte{max, make([]byte, n)} {
			s := base58.Encode(b)
			got, err := DecodeBase58(s, n)
			if err != nil || !bytes.Equal(got, b) {
				t.Errorf("DecodeBase58(%s, %d) = %x, %v; want %x", s, n, got, err, b)
			}
		}
		long := strings.Repeat("z", MaxBase58Len(n)+1)
		if _, err := DecodeBase58(long, n); err == nil || !strings.Contains(err.Error(), "longer than any encoding") {
			t.Errorf("DecodeBase58 of %d characters for %d bytes: %v, want refused", len(long), n, err)
		}
	}
}

// A signature's DER form is the one signatureFromDER reads back, for
// integers with leading zeros and with their high bit set.
func TestSignatureDERRoundTrip(t *testing.T) {
	var sigs []Signature
	for _, r := range [][]byte{{1}, {0x7f}, {0x80}, {0xff}, bytes.Repeat([]byte{0xff}, 32), append(make([]byte, 31), 5)} {
		var sig Signature
		copy(sig[32-len(r):32], r)
		copy(sig[32:], r)
		sig[63] |= 1
		sigs = append(sigs, sig)
	}
	for _, sig := range sigs {
		der := sig.appendDER(nil)
		got, err := signatureFromDER(der)
		if err != nil || got != sig || len(der) > maxDERSize {
			t.Errorf("%x: DER %x (%d bytes) reads back as %x, %v", sig, der, len(der), got, err)
		}
	}
}
