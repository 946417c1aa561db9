// Package js provides the didlight module's browser loader to Go programs.
//
// It serves the didlight module's browser loader to Go programs: the node
// embeds it to give browsers what they need to verify DIDs themselves (the
// browser app in github.com/didlight/didlight/web) and to run its own
// validation through the module (`didlight node --engine wasm`).
//
// The loader's source (api.js, endpoint.js, browser.js) is always embedded. The built
// module (didlight.wasm, written here by `make wasm`) and the WASI shim
// browser.js imports (@bjorn3/browser_wasi_shim, installed here by npm ci
// from package-lock.json) are not committed: they are embedded only in a
// binary built with the didlight_wasm build tag, which `make build` and
// `make run` set after making them. Without the tag Module and Shim
// return [ErrNotEmbedded], so that `go build ./...` works on a clean checkout.
// With it and [NoShimTag] (what `make build` does where npm is missing) the
// module is embedded but not the shim: Shim returns [ErrNoShim], and
// browsers cannot run the module that binary serves.
package js

import (
	"embed"
	"errors"
	"io/fs"
)

// BuildTag is the build tag that embeds the module and the shim.
const BuildTag = "didlight_wasm"

// NoShimTag, beside [BuildTag], leaves the shim out: for a machine without
// npm, where the module can be built but the shim cannot be installed.
const NoShimTag = "didlight_noshim"

// ErrNotEmbedded is the error of Module and Shim in a binary built
// without [BuildTag].
var ErrNotEmbedded = errors.New("this didlight binary was built without its WebAssembly module: " +
	"build it with `make build` (make wasm, npm ci in wasm/js, then go build -tags " + BuildTag + ")")

// ErrNoShim is the error of Shim in a binary built with [BuildTag] and
// [NoShimTag]: it has the module, but browsers also need the shim to run it.
var ErrNoShim = errors.New("this didlight binary was built without the WASI shim browsers run its module with " +
	"(npm was missing): install Node.js 20 or later with npm, then `make build`")

//go:embed api.js browser.js endpoint.js resolver.js
var loader embed.FS

// Loader returns the browser loader's modules: api.js, endpoint.js (which
// api.js imports), resolver.js and browser.js, which imports the shim by its package name, @bjorn3/browser_wasi_shim (a page
// maps that name to the shim's dist/index.js with an import map).
func Loader() fs.FS { return loader }
