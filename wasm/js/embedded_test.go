//go:build didlight_wasm

package js

import (
	"context"
	"io/fs"
	"path"
	"testing"

	"github.com/didlight/didlight/host/wasmrt"
	"github.com/didlight/didlight/wasm/abi"
)

// The embedded module runs: it compiles in wazero and answers a call.
func TestEmbeddedModule(t *testing.T) {
	m, err := Module()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rt, err := wasmrt.New(ctx, m, wasmrt.WithCacheDir(""), wasmrt.WithMaxInstances(1))
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(ctx)
	d, err := rt.ParseDID(ctx, abi.ParseDIDInput{DID: "iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y"})
	if err != nil || d.DID != "did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y" {
		t.Errorf("parse_did in the embedded module: %+v, %v", d, err)
	}
}

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
