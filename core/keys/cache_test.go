package keys

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"testing"
)

// testKey returns the n-th of a run of distinct private keys.
func testKey(t *testing.T, n int) *PrivateKey {
	t.Helper()
	seed := sha256.Sum256(binary.BigEndian.AppendUint64([]byte("cache test "), uint64(n)))
	k, err := NewPrivateKey(seed[:])
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// A Cache decodes each key once, answers as ParsePublicKey does, keeps no
// more keys than its bound, and verifies with its Verifier.
func TestCacheKeepsDecodedKeys(t *testing.T) {
	c := NewCache(Native{}, 4)
	k := testKey(t, 0)
	first, err := ParseWith(c, k.Public().Bytes())
	if err != nil || !first.Equal(k.Public()) {
		t.Fatalf("ParseWith(cache) = %v, %v; want %v", first, err, k.Public())
	}
	again, err := ParseWith(c, k.Public().Bytes())
	if err != nil || again.ECDSA() != first.ECDSA() {
		t.Errorf("the second decoding made a new key (%p, want the kept %p), err %v", again.ECDSA(), first.ECDSA(), err)
	}
	for n := 1; n < 10; n++ {
		if _, err := c.ParsePublicKey(testKey(t, n).Public().Bytes()); err != nil {
			t.Fatal(err)
		}
		if len(c.keys) > 4 {
			t.Fatalf("after %d keys the cache holds %d, bound 4", n+1, len(c.keys))
		}
	}
	offCurve := append([]byte{2}, bytes.Repeat([]byte{0xff}, 32)...) // x ≥ p
	for _, bad := range [][]byte{nil, make([]byte, PublicKeySize), offCurve} {
		_, want := ParsePublicKey(bad)
		if _, err := c.ParsePublicKey(bad); err == nil || err.Error() != want.Error() {
			t.Errorf("ParsePublicKey(%x) through the cache: error %v, want %v", bad, err, want)
		}
	}
	if _, ok := c.keys[[PublicKeySize]byte(offCurve)]; ok {
		t.Error("the cache kept a bad key")
	}
	data := []byte("didlight")
	if !VerifyData(c, k.Public(), data, k.SignData(data)) {
		t.Error("a signature does not verify through the cache")
	}
	if VerifyData(c, testKey(t, 1).Public(), data, k.SignData(data)) {
		t.Error("a signature verified under another key")
	}
}

// Without a KeyParser, ParseWith is ParsePublicKey.
func TestParseWithPlainVerifier(t *testing.T) {
	k := testKey(t, 0)
	got, err := ParseWith(Native{}, k.Public().Bytes())
	if err != nil || !got.Equal(k.Public()) {
		t.Errorf("ParseWith(Native) = %v, %v; want %v", got, err, k.Public())
	}
}
