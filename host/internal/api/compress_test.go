package api

import "testing"

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
// node sends it to a client that accepts each coding.
func BenchmarkCompress(b *testing.B) {
	answer := []byte(`{"jsonrpc":"2.0","result":{"did":"did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y","status":0,"transaction":[`)
	for len(answer) < 3<<10 {
		answer = append(answer, `{"txid":"3d0eaa466df74983b5d7c543de6904f4c9418ead5ffd6d25814234a96db37b0a","timestamp":"2026-01-01T00:00:05Z","operation":{"header":{"specification":"elastos/did/1.0","operation":"create"},"payload":"eyJpZCI6ImRpZDplbGFzdG9zOmlYY1JoWUIzOGdNdDFwaGk1SkpYSk1qZVhMMlRMOGNnNTh5In0"}},`...)
	}
	for _, coding := range []string{"gzip", "br"} {
		b.Run(coding, func(b *testing.B) {
			b.SetBytes(int64(len(answer)))
			b.ReportAllocs()
			for b.Loop() {
				out := getBuffer()
				compress(out, coding, answer)
				putBuffer(out)
			}
		})
	}
}
