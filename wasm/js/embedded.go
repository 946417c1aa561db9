//go:build didlight_wasm

package js

import _ "embed"

//go:embed didlight.wasm
var module []byte

// Module returns the module embedded in this binary (stripped, as `make
// wasm` writes it).
func Module() ([]byte, error) { return module, nil }
