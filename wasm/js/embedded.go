//go:build didlight_wasm

package js

import (
	"embed"
	"fmt"
	"io/fs"
)

// modules holds didlight.wasm and, when the build wrote it, its brotli
// form didlight.wasm.br.
//
//go:embed didlight.wasm*
var modules embed.FS

// Module returns the module embedded in this binary (stripped, as `make
// wasm` writes it).
func Module() ([]byte, error) { return modules.ReadFile("didlight.wasm") }

// ModuleBrotli returns the embedded module compressed with brotli, as
// `make wasm` writes it beside the module, for a server to send browsers
// that accept br; [ErrNotEmbedded] when the build left it out. It is the
// build's word that it holds [Module]: check before serving it.
func ModuleBrotli() ([]byte, error) {
	b, err := modules.ReadFile("didlight.wasm.br")
	if err != nil {
		return nil, fmt.Errorf("this binary was built without the module's brotli form: %w", fs.ErrNotExist)
	}
	return b, nil
}
