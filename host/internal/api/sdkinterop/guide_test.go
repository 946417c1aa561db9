package sdkinterop

import (
	"os"
	"strings"
	"testing"
)

// TestGuideInDocs keeps the example of docs/testing.md the file the suite
// runs: its copy there is guide.test.mjs, byte for byte.
func TestGuideInDocs(t *testing.T) {
	file, err := os.ReadFile("guide.test.mjs")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../../../../docs/testing.md")
	if err != nil {
		t.Fatal(err)
	}
	const open = "## The whole file"
	_, rest, ok := strings.Cut(string(doc), open)
	if !ok {
		t.Fatalf("docs/testing.md has no section %q", open)
	}
	_, code, _ := strings.Cut(rest, "```js\n")
	if code, _, ok := strings.Cut(code, "```\n"); !ok || code != string(file) {
		t.Errorf("the example in docs/testing.md differs from guide.test.mjs: copy the file into the doc again")
	}
}
