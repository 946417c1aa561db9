package did

import (
	"testing"
	"time"

	"github.com/didlight/didlight/core/internal/vectors"
	"github.com/didlight/didlight/core/keys"
)

// benchDocuments are a document as the CLI makes it (one key, one service)
// and the SDK's largest vector (user1: four keys, two credentials, three
// services).
func benchDocuments(b *testing.B) map[string][]byte {
	priv, err := keys.ParseExtendedPrivateKey(vectors.String("elastos-did-sdk/v2.2/user4.id.primary.sk"))
	if err != nil {
		b.Fatal(err)
	}
	at := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	doc, err := NewDocument(priv.Public(), at.AddDate(5, 0, 0), NewService(URL{Fragment: "vault"}, "HiveVault", "https://hive.example.com/vault"))
	if err != nil {
		b.Fatal(err)
	}
	if doc, err = doc.Sign(priv, doc.publicKeys[0].ID, at); err != nil {
		b.Fatal(err)
	}
	return map[string][]byte{
		"small": doc.Normalized(),
		"large": vectors.Read("elastos-did-sdk/v2.2/user1.id.normalized.json"),
	}
}

// BenchmarkParseDocument parses a normalized document, as a node does with
// every payload.
func BenchmarkParseDocument(b *testing.B) {
	for name, doc := range benchDocuments(b) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				if _, err := ParseDocument(doc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkNormalize writes a parsed document's normalized form.
func BenchmarkNormalize(b *testing.B) {
	for name, doc := range benchDocuments(b) {
		b.Run(name, func(b *testing.B) {
			d, err := ParseDocument(doc)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				d.signingInput()
			}
		})
	}
}
