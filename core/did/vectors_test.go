package did

import (
	"bytes"
	"strings"
	"testing"

	"didlight/core/internal/vectors"
	"didlight/core/keys"
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

func TestSDKDocuments(t *testing.T) {
	names := sdkDocuments()
	if len(names) != 16 {
		t.Fatalf("found %d document vectors, want 16", len(names))
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			version := strings.Split(name, "/")[1]
			want := vectors.Read(name + ".normalized.json")
			for _, form := range []string{".json", ".compact.json", ".normalized.json"} {
				doc, err := ParseDocument(vectors.Read(name + form))
				if err != nil {
					t.Fatalf("%s: %v", form, err)
				}
				if got := doc.Normalized(); !bytes.Equal(got, want) {
					t.Errorf("%s: normalized\n got %s\nwant %s", form, got, want)
				}
				if version == "v2.2" {
					if got, want := doc.Compact(), vectors.Read(name+".compact.json"); !bytes.Equal(got, want) {
						t.Errorf("%s: compact\n got %s\nwant %s", form, got, want)
					}
				}
				if err := doc.VerifyProofs(keys.Native{}, lookupFor(t, version)); err != nil {
					t.Errorf("%s: %v", form, err)
				}
			}
		})
	}
}
