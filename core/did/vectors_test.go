package did

import (
	"bytes"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/internal/vectors"
	"github.com/didlight/didlight/core/keys"
)

// sdkDocuments lists every document vector: name without ".json".
func sdkDocuments() []string {
	var names []string
	for _, n := range vectors.Glob("elastos-did-sdk/*/*id.json") {
		names = append(names, strings.TrimSuffix(n, ".json"))
	}
	return names
}

// lookupFor returns the documents of one SDK vector version, to look
// controllers and issuers up in.
func lookupFor(t testing.TB, version string) Documents {
	t.Helper()
	var docs []*Document
	for _, n := range vectors.Glob("elastos-did-sdk/" + version + "/*.id.json") {
		docs = append(docs, mustParse(t, vectors.Read(n)))
	}
	return NewDocuments(docs...)
}

func mustParse(t testing.TB, b []byte) *Document {
	t.Helper()
	doc, err := ParseDocument(b)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// sdkObject is what documents and credentials have in common.
type sdkObject interface {
	Normalized() []byte
	Compact() []byte
	verify(docs Lookup) error
}

func (doc *Document) verify(docs Lookup) error { return doc.VerifyProofs(keys.Native{}, docs) }
func (c *Credential) verify(docs Lookup) error { return c.VerifyProof(keys.Native{}, docs) }

// checkVectors parses each vector in all its forms and checks that each
// normalizes byte for byte as the SDK did, that v2.2 ones are written in
// compact form as the SDK did (v1 compact files come from an older writer),
// and that each verifies, with the documents of its version to look up.
func checkVectors[T sdkObject](t *testing.T, names []string, parse func([]byte) (T, error)) {
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			version := strings.Split(name, "/")[1]
			want := vectors.Read(name + ".normalized.json")
			for _, form := range []string{".json", ".compact.json", ".normalized.json"} {
				obj, err := parse(vectors.Read(name + form))
				if err != nil {
					t.Fatalf("%s: %v", form, err)
				}
				if got := obj.Normalized(); !bytes.Equal(got, want) {
					t.Errorf("%s: normalized\n got %s\nwant %s", form, got, want)
				}
				if version == "v2.2" {
					if got, want := obj.Compact(), vectors.Read(name+".compact.json"); !bytes.Equal(got, want) {
						t.Errorf("%s: compact\n got %s\nwant %s", form, got, want)
					}
				}
				if err := obj.verify(lookupFor(t, version)); err != nil {
					t.Errorf("%s: %v", form, err)
				}
			}
		})
	}
}

func TestSDKDocuments(t *testing.T) {
	names := sdkDocuments()
	if len(names) != 16 {
		t.Fatalf("found %d document vectors, want 16", len(names))
	}
	checkVectors(t, names, ParseDocument)
}

func sdkCredentials() []string {
	var names []string
	for _, n := range vectors.Glob("elastos-did-sdk/*/*.vc.*.json") {
		if !strings.HasSuffix(n, ".compact.json") && !strings.HasSuffix(n, ".normalized.json") {
			names = append(names, strings.TrimSuffix(n, ".json"))
		}
	}
	return names
}

func TestSDKCredentials(t *testing.T) {
	names := sdkCredentials()
	if len(names) != 9 {
		t.Fatalf("found %d credential vectors, want 9", len(names))
	}
	checkVectors(t, names, ParseCredential)
}

// Credentials embedded in documents verify too, customized issuers included.
func TestEmbeddedCredentials(t *testing.T) {
	n := 0
	for _, name := range sdkDocuments() {
		docs := lookupFor(t, strings.Split(name, "/")[1])
		for _, c := range mustParse(t, vectors.Read(name+".json")).Credentials() {
			if err := c.VerifyProof(keys.Native{}, docs); err != nil {
				t.Errorf("%s: %v", name, err)
			}
			n++
		}
	}
	if n != 11 {
		t.Errorf("verified %d embedded credentials, want 11", n)
	}
}

// Every vector file is covered by a test above or named here with the
// reason it is not: a new vector must not go untested unnoticed.
func TestEveryVectorIsCovered(t *testing.T) {
	covered := map[string]bool{}
	for _, names := range [][]string{sdkDocuments(), sdkCredentials()} {
		for _, n := range names {
			for _, form := range []string{".json", ".compact.json", ".normalized.json"} {
				covered[n+form] = true
			}
		}
	}
	for _, n := range vectors.Glob("elastos-did-sdk/*/*.sk") {
		covered[n] = true // private keys: used by the signing tests
	}
	elsewhere := map[string]string{
		".vp.":                                  "presentations: not part of the identity chain's operations",
		".tt.json":                              "transfer tickets: TestTransferTicketVectors here, and core/idop's transfer tests",
		"idchain/create-op-mainnet-format.json": "the legacy create operation: TestLegacyDocument here, and core/idop",
	}
	for _, n := range vectors.Glob("*/*/*") {
		if covered[n] {
			continue
		}
		found := false
		for part := range elsewhere {
			found = found || strings.Contains(n, part)
		}
		if !found {
			t.Errorf("vector %s is not covered by any test", n)
		}
	}
	if n := len(vectors.Glob("idchain/*")); n != 1 {
		t.Errorf("%d idchain vectors, this test knows 1", n)
	}
}
