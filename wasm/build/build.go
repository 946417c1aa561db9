// Package build builds the didlight WebAssembly module and measures what
// it is made of. `make wasm` and the tests of the Go runtime (host/wasmrt)
// build the module through it, so that both use the same flags.
package build

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Build compiles the module's main package in dir (the wasm directory of
// the repository) for GOOS=wasip1 as a reactor, with paths trimmed, and
// returns it with its name section, which Measure reads; Strip removes it.
func Build(ctx context.Context, dir string) ([]byte, error) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	tmp, err := os.MkdirTemp("", "didlight-wasm-")
	if err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, "didlight.wasm")
	cmd := exec.CommandContext(ctx, goCmd, "build", "-buildmode=c-shared", "-trimpath", "-o", out, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("build: go build in %s: %w\n%s", dir, err, stderr.Bytes())
	}
	return os.ReadFile(out)
}
