package wasmrt_test

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"github.com/didlight/didlight/wasm/abi"
)

// FuzzParity feeds any input to any call, natively and in the module: the
// answers must be the same bytes (and the module must never trap).
func FuzzParity(f *testing.F) {
	calls := abi.Calls()
	for _, c := range parityCases(f) {
		i := slices.IndexFunc(calls, func(x abi.Call) bool { return x.Name == c.call })
		f.Add(uint8(i), c.in)
	}
	env := abi.Env{Lookup: sdkDocuments(f)}
	host, _ := runtimes(f)
	f.Fuzz(func(t *testing.T, call uint8, in []byte) {
		c := calls[int(call)%len(calls)]
		native := c.Run(in, env)
		got, err := host.Call(context.Background(), c.Name, in, env)
		if err != nil || !bytes.Equal(got, native) {
			t.Fatalf("%s(%q):\n wasm   %s (%v)\n native %s", c.Name, in, got, err, native)
		}
	})
}
