package web_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/didlight/didlight/web"
)

// A node serves the app at / of its REST listener; without the module it
// answers 503 for it, with the reason, and the app still loads.
func ExampleHandler() {
	h := web.Handler(web.Options{Missing: "built without the module"})
	for _, path := range []string{"/", "/wasm/didlight.wasm"} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
		fmt.Println(path, w.Code)
	}
	// Output:
	// / 200
	// /wasm/didlight.wasm 503
}
