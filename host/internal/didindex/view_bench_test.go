package didindex

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/resolve"
)

// sdkVectors holds the SDK's test vectors, its DID documents among them.
const sdkVectors = "../../../core/internal/vectors/data/elastos-did-sdk/"

// BenchmarkStoredView measures what deriving an identity costs per
// published document for its query view: the view record (the encoded
// view) and the view's postings, over the query views of the SDK's DID
// documents.
func BenchmarkStoredView(b *testing.B) {
	names, err := filepath.Glob(sdkVectors + "*/*.id.json")
	if err != nil || len(names) == 0 {
		b.Fatalf("no SDK DID documents in %s: %v", sdkVectors, err)
	}
	var views [][]byte
	for _, name := range names {
		text, err := os.ReadFile(name)
		if err != nil {
			b.Fatal(err)
		}
		doc, err := did.ParseDocument(text)
		if err != nil {
			b.Fatalf("%s: %v", name, err)
		}
		views = append(views, resolve.View(doc))
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		view := mustStoredView(b, views[i%len(views)])
		if len(viewIndex.EncodedPostings(view.Encoded)) == 0 {
			b.Fatal("a view without postings")
		}
		i++
	}
}
