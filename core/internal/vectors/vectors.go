// Package vectors provides the test vectors in data/ to tests.
//
// It gives tests read access to the test vectors in data/: DID documents,
// credentials and keys from the Elastos DID SDK, and operations in the
// identity chain's wire format. See README.md for where each comes from.
package vectors

import (
	"embed"
	"io/fs"
	"path"
	"sort"
	"strings"
)

//go:embed data
var data embed.FS

// Read returns the file at name, relative to data/ (for example
// "elastos-did-sdk/v1/user1.id.json"). It panics if the file is missing: a
// missing vector is a broken checkout, not a test outcome.
func Read(name string) []byte {
	b, err := data.ReadFile(path.Join("data", name))
	if err != nil {
		panic("vectors: " + err.Error())
	}
	return b
}

// String returns Read(name) as a string with surrounding whitespace removed,
// the form in which keys (*.sk) are stored.
func String(name string) string { return strings.TrimSpace(string(Read(name))) }

// Glob returns the names, relative to data/, that match pattern, sorted.
func Glob(pattern string) []string {
	names, err := fs.Glob(data, path.Join("data", pattern))
	if err != nil {
		panic("vectors: " + err.Error())
	}
	for i, n := range names {
		names[i] = strings.TrimPrefix(n, "data/")
	}
	sort.Strings(names)
	return names
}
