package js

import (
	"io/fs"
	"regexp"
	"slices"
	"testing"
)

// importRE finds the specifiers of static imports and re-exports.
var importRE = regexp.MustCompile(`(?:\bfrom|\bimport)\s*["']([^"']+)["']`)

// commentRE finds whole-line comments, whose examples are not imports.
var commentRE = regexp.MustCompile(`(?m)^\s*//.*$`)

// imports returns the specifiers a module's source imports, in order.
func imports(src []byte) []string {
	var out []string
	for _, m := range importRE.FindAllSubmatch(commentRE.ReplaceAll(src, nil), -1) {
		out = append(out, string(m[1]))
	}
	return out
}

// The loader is embedded whatever the build tags, and browser.js imports
// only api.js and the shim by its package name, which is what a page's
// import map must provide.
func TestLoader(t *testing.T) {
	for name, want := range map[string][]string{
		"browser.js":  {"@bjorn3/browser_wasi_shim", "./api.js", "./resolver.js", "./api.js", "./resolver.js"},
		"resolver.js": nil,
		"api.js":      {"./endpoint.js", "./endpoint.js"},
		"endpoint.js": nil,
	} {
		src, err := fs.ReadFile(Loader(), name)
		if err != nil {
			t.Fatal(err)
		}
		if got := imports(src); !slices.Equal(got, want) {
			t.Errorf("%s imports %q, want %q", name, got, want)
		}
	}
}
