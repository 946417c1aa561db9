package did

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/internal/vectors"
)

// AppendEntry finds keys, services and credentials by fragment and writes
// them as Normalized does.
func TestAppendEntry(t *testing.T) {
	doc, err := ParseDocument(vectors.Read("elastos-did-sdk/v2.2/foobar.id.json"))
	if err != nil {
		t.Fatal(err)
	}
	normalized := string(doc.Normalized())
	for _, tc := range []struct{ fragment, want string }{
		{"key2", `{"id":"did:elastos:foobar#key2","type":"ECDSAsecp256r1","controller":"did:elastos:foobar","publicKeyBase58":"26Cuo6GcQrrhfdAafL5bzcXoULcXKRr5o37WGhuGWUHqN"}`},
		{"vault", `{"id":"did:elastos:foobar#vault","type":"Hive.Vault.Service","serviceEndpoint":"https://foobar.com/vault"}`},
		{"profile", ""},
		{"email", ""},
	} {
		got, ok := doc.AppendEntry([]byte("x"), tc.fragment)
		entry := strings.TrimPrefix(string(got), "x")
		if !ok || tc.want != "" && entry != tc.want || !strings.Contains(normalized, entry) || !json.Valid([]byte(entry)) ||
			!strings.Contains(entry, `"id":"did:elastos:foobar#`+tc.fragment+`"`) {
			t.Errorf("#%s: %v %s", tc.fragment, ok, got)
		}
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
