//go:build didlight_wasm && didlight_noshim

package js

import "io/fs"

// Shim returns [ErrNoShim]: this binary was built with [NoShimTag].
func Shim() (fs.FS, error) { return nil, ErrNoShim }
