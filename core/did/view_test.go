package did

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/internal/vectors"
	"github.com/didlight/didlight/core/keys"
)

// AppendEntry finds keys, services and credentials by fragment and writes
// them as Normalized does.
func TestAppendEntry(t *testing.T) {
	doc, err := ParseDocument(vectors.Read("elastos-did-sdk/v2.2/foobar.id.json"))
	if err != nil {
		t.Fatal(err)
	}
	normalized := string(doc.Normalized())
	for i, tc := range []struct{ fragment, want string }{
		{"key2", `{"id":"did:elastos:foobar#key2","type":"ECDSAsecp256r1","controller":"did:elastos:foobar","publicKeyBase58":"26Cuo6GcQrrhfdAafL5bzcXoULcXKRr5o37WGhuGWUHqN"}`},
		{"vault", `{"id":"did:elastos:foobar#vault","type":"Hive.Vault.Service","serviceEndpoint":"https://foobar.com/vault"}`},
		{"profile", ""},
		{"email", ""},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			got, ok := doc.AppendEntry([]byte("x"), tc.fragment)
			entry := strings.TrimPrefix(string(got), "x")
			if !ok || tc.want != "" && entry != tc.want || !strings.Contains(normalized, entry) || !json.Valid([]byte(entry)) ||
				!strings.Contains(entry, `"id":"did:elastos:foobar#`+tc.fragment+`"`) {
				t.Errorf("#%s: %v %s", tc.fragment, ok, got)
			}
		})
	}
	for _, f := range []string{"nope", "", "KEY2", "key2?x"} {
		if got, ok := doc.AppendEntry([]byte("x"), f); ok || string(got) != "x" {
			t.Errorf("#%s: %v %s", f, ok, got)
		}
	}
}

// WithContext and WithServices change what is written, nothing else.
func TestWithContextAndServices(t *testing.T) {
	doc, err := ParseDocument(vectors.Read("elastos-did-sdk/v2.2/foobar.id.json"))
	if err != nil {
		t.Fatal(err)
	}
	before := string(doc.Normalized())
	bare := string(doc.WithContext(nil).Normalized())
	if !strings.HasPrefix(before, `{"@context":[`) || !strings.HasPrefix(bare, `{"id":"did:elastos:foobar",`) || bare != `{`+before[strings.Index(before, `"id":`):] {
		t.Errorf("WithContext(nil):\n%s\n%s", bare, before)
	}
	v1, err := ParseDocument(vectors.Read("elastos-did-sdk/v1/user1.id.json"))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(v1.WithContext([]string{"a", "b"}).Normalized()); !strings.HasPrefix(got, `{"@context":["a","b"],"id":`) || len(v1.Context()) != 0 {
		t.Errorf("WithContext on a v1 document: %s", got)
	}
	vault := doc.WithServices(func(s Service) bool { return s.Type == "Hive.Vault.Service" })
	if len(vault.Services()) != 1 || len(doc.Services()) != 2 || len(vault.Proofs()) != 2 || doc.Normalized() == nil || string(doc.Normalized()) != before {
		t.Errorf("WithServices: %d of %d services", len(vault.Services()), len(doc.Services()))
	}
}

// A parsed document writes its normalized form once; the copies Sign and
// the With methods make write their own.
func TestNormalizedMemo(t *testing.T) {
	doc, err := ParseDocument(vectors.Read("elastos-did-sdk/v2.2/user1.id.json"))
	if err != nil {
		t.Fatal(err)
	}
	first := doc.Normalized()
	first[0] = 'x' // the caller's copy
	if again := doc.Normalized(); again[0] != '{' || string(doc.AppendNormalized([]byte("ab"))) != "ab"+string(again) {
		t.Fatalf("Normalized shares its bytes: %.20s", again)
	}
	priv, err := keys.ParseExtendedPrivateKey(vectors.String("elastos-did-sdk/v2.2/user1.id.primary.sk"))
	if err != nil {
		t.Fatal(err)
	}
	def, _ := doc.DefaultKey()
	signed, err := doc.Sign(priv, def.ID, time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if a, b := signed.Normalized(), doc.Normalized(); string(a) == string(b) || !strings.Contains(string(a), "2030-01-01T00:00:00Z") {
		t.Errorf("the signed copy writes the original's form:\n%s", a)
	}
}

// countingHasher is a Verifier that hashes, counting its hashes.
type countingHasher struct {
	keys.Native
	calls *int
}

func (h countingHasher) Sum256(data []byte) [32]byte {
	*h.calls++
	return sha256.Sum256(data)
}

// A parsed document keeps the digest its proofs sign, for a Verifier that
// hashes with crypto/sha256; a copy made by a With method, or a Verifier
// that hashes itself, gets the digest hashed anew.
func TestProofDigestMemo(t *testing.T) {
	doc, err := ParseDocument(vectors.Read("elastos-did-sdk/v2.2/user1.id.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := sha256.Sum256(doc.signingInput())
	if got := doc.proofDigest(keys.Native{}); got != want || doc.memo.digest != want {
		t.Fatalf("proofDigest = %x, kept %x; want %x", got, doc.memo.digest, want)
	}
	if got := doc.proofDigest(keys.Native{}); got != want {
		t.Errorf("proofDigest again = %x, want %x", got, want)
	}
	var calls int
	if got := doc.proofDigest(countingHasher{calls: &calls}); got != want || calls != 1 {
		t.Errorf("proofDigest through a hasher = %x after %d hashes, want %x after 1", got, calls, want)
	}
	ctx := doc.WithContext([]string{"https://example.com/ctx"})
	if got, want := ctx.proofDigest(keys.Native{}), sha256.Sum256(ctx.signingInput()); got != want || got == doc.proofDigest(keys.Native{}) {
		t.Errorf("a copy's proofDigest = %x, want its own %x", got, want)
	}
}
