//go:build didlight_wasm

package js

import (
	"embed"
	"io/fs"
)

//go:embed didlight.wasm
var module []byte

//go:embed node_modules/@bjorn3/browser_wasi_shim/dist/*.js node_modules/@bjorn3/browser_wasi_shim/LICENSE-*
var shim embed.FS

// Module returns the module embedded in this binary (stripped, as `make
// wasm` writes it).
func Module() ([]byte, error) { return module, nil }

// Shim returns the WASI shim embedded in this binary: its package folder,
// holding dist/index.js, the modules it imports and the licenses.
func Shim() (fs.FS, error) { return fs.Sub(shim, "node_modules/@bjorn3/browser_wasi_shim") }
