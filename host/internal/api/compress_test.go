package api

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"testing"
)

// The answers compressed are JSON, in each of the media types the node
// sends JSON as.
func TestIsJSON(t *testing.T) {
	for _, tc := range []struct {
		contentType string
		want        bool
	}{
		{"application/json; charset=utf-8", true},
		{"application/did-resolution", true},
		{"application/did-url-dereferencing", true},
		{"application/did", true},
		{"application/did+ld+json", true},
		{`application/ld+json;profile="https://w3id.org/did-resolution"`, true},
		{"application/wasm", false},
		{"text/html; charset=utf-8", false},
		{"text/plain; charset=utf-8", false},
		{"", false},
	} {
		t.Run(tc.contentType, func(t *testing.T) {
			if got := isJSON(tc.contentType); got != tc.want {
				t.Errorf("isJSON(%q) = %v, want %v", tc.contentType, got, tc.want)
			}
		})
	}
}

// BenchmarkCompress compresses a resolution answer of about 3 KB, as the
// node sends it to a client that accepts each coding: JSON around base64
// payloads and signatures, which compress little (the demo's answers
// shrink to 55 %).
func BenchmarkCompress(b *testing.B) {
	answer := []byte(`{"jsonrpc":"2.0","result":{"did":"did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y","status":0,"transaction":[`)
	seed := sha256.Sum256([]byte("payload"))
	for len(answer) < 3<<10 {
		var random []byte
		for range 24 {
			seed = sha256.Sum256(seed[:])
			random = append(random, seed[:]...)
		}
		answer = fmt.Appendf(answer, `{"txid":"%x","timestamp":"2026-01-01T00:00:05Z","operation":{"header":{"specification":"elastos/did/1.0","operation":"create"},"payload":"%s","proof":{"verificationMethod":"#primary","signature":"%s"}}},`,
			seed, base64.RawURLEncoding.EncodeToString(random[:512]), base64.RawURLEncoding.EncodeToString(random[512:576]))
	}
	for _, coding := range []string{"gzip", "br"} {
		b.Run(coding, func(b *testing.B) {
			b.SetBytes(int64(len(answer)))
			b.ReportAllocs()
			out := getBuffer()
			for b.Loop() {
				out.Reset()
				compress(out, coding, answer)
			}
			b.ReportMetric(float64(out.Len())/float64(len(answer)), "ratio")
			putBuffer(out)
		})
	}
}

// The compressed answers kept take at most packedBytes: past it, all are
// dropped and the new one kept.
func TestCompressorKeeps(t *testing.T) {
	var c compressor
	big := make([]byte, packedBytes/4)
	for i := range 10 {
		k := packedKey{etag: fmt.Sprintf(`W/"%d"`, i), coding: "br"}
		c.keep(k, big)
		if got, ok := c.kept(k); !ok || len(got) != len(big) {
			t.Fatalf("answer %d not kept", i)
		}
		if c.bytes > packedBytes {
			t.Fatalf("after %d answers, %d bytes kept, more than %d", i+1, c.bytes, packedBytes)
		}
	}
	if _, ok := c.kept(packedKey{etag: `W/"0"`, coding: "br"}); ok {
		t.Error("the first answer is still kept after the limit was passed")
	}
	if _, ok := c.kept(packedKey{etag: `W/"9"`, coding: "gzip"}); ok {
		t.Error("an answer kept for brotli is found for gzip")
	}
}
