//go:build !didlight_wasm

package js

import "io/fs"

// Module returns [ErrNotEmbedded]: this binary was built without [BuildTag].
func Module() ([]byte, error) { return nil, ErrNotEmbedded }

// ModuleBrotli returns [ErrNotEmbedded]: this binary was built without [BuildTag].
func ModuleBrotli() ([]byte, error) { return nil, ErrNotEmbedded }

// Shim returns [ErrNotEmbedded]: this binary was built without [BuildTag].
func Shim() (fs.FS, error) { return nil, ErrNotEmbedded }
