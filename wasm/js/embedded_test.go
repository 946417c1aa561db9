//go:build didlight_wasm

package js

import (
	"context"
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
