//go:build didlight_wasm && !didlight_noshim

package js

import (
	"io/fs"
	"path"
	"testing"
)

// The embedded shim is complete: every module its index imports, directly
// or not, is there, and so are its licenses.
func TestEmbeddedShim(t *testing.T) {
	s, err := Shim()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	todo := []string{"dist/index.js"}
	for len(todo) > 0 {
		name := todo[0]
		todo = todo[1:]
		if seen[name] {
			continue
		}
		seen[name] = true
		src, err := fs.ReadFile(s, name)
		if err != nil {
			t.Errorf("the shim lacks %s: %v", name, err)
			continue
		}
		for _, spec := range imports(src) {
			todo = append(todo, path.Join(path.Dir(name), spec))
		}
	}
	if len(seen) < 5 {
		t.Errorf("the shim's index reaches only %d modules: %v", len(seen), seen)
	}
	for _, name := range []string{"LICENSE-MIT", "LICENSE-APACHE"} {
		if _, err := fs.Stat(s, name); err != nil {
			t.Error(err)
		}
	}
}
