package js_test

import (
	"fmt"
	"io/fs"

	"github.com/didlight/didlight/wasm/js"
)

// The loader's modules are embedded in every build; a server puts them
// beside the module and the shim (as package web does under /wasm/).
func ExampleLoader() {
	names, err := fs.Glob(js.Loader(), "*.js")
	fmt.Println(names, err)
	// Output: [api.js browser.js endpoint.js resolver.js] <nil>
}
