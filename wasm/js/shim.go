//go:build didlight_wasm && !didlight_noshim

package js

import (
	"embed"
	"io/fs"
)

//go:embed node_modules/@bjorn3/browser_wasi_shim/dist/*.js node_modules/@bjorn3/browser_wasi_shim/LICENSE-*
var shim embed.FS

// Shim returns the WASI shim embedded in this binary: its package folder,
// holding dist/index.js, the modules it imports and the licenses.
func Shim() (fs.FS, error) { return fs.Sub(shim, "node_modules/@bjorn3/browser_wasi_shim") }
