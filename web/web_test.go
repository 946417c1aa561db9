package web_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/didlight/didlight/web"
)

// get sends a request to h and returns the response.
func get(h http.Handler, method, path string, header ...string) *http.Response {
	r := httptest.NewRequest(method, path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Result()
}

func body(t *testing.T, r *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The module is served gzipped to browsers that accept it, as it is to the
// others, with an ETag that spares a second download.
func TestModuleServed(t *testing.T) {
	module := bytes.Repeat([]byte("\x00asm didlight "), 1000)
	h := web.Handler(web.Options{Module: module, Shim: fstest.MapFS{"dist/index.js": {Data: []byte("export {}")}}})
	plain := get(h, "GET", "/wasm/didlight.wasm")
	if got := body(t, plain); plain.StatusCode != 200 || got != string(module) || plain.Header.Get("Content-Type") != "application/wasm" {
		t.Fatalf("plain: %s %q, %d bytes", plain.Status, plain.Header.Get("Content-Type"), len(got))
	}
	gz := get(h, "GET", "/wasm/didlight.wasm", "Accept-Encoding", "br, gzip;q=0.8")
	zr, err := gzip.NewReader(gz.Body)
	if err != nil || gz.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("gzip: %v, Content-Encoding %q", err, gz.Header.Get("Content-Encoding"))
	}
	if unzipped, _ := io.ReadAll(zr); !bytes.Equal(unzipped, module) || gz.ContentLength >= int64(len(module)) {
		t.Errorf("gzip: %d bytes unzip to %d, want fewer unzipping to the module's %d", gz.ContentLength, len(unzipped), len(module))
	}
	if r := get(h, "GET", "/wasm/didlight.wasm", "Accept-Encoding", "gzip;q=0"); r.Header.Get("Content-Encoding") != "" {
		t.Errorf("gzip refused (q=0), yet Content-Encoding %q", r.Header.Get("Content-Encoding"))
	}
	etag := plain.Header.Get("ETag")
	if r := get(h, "GET", "/wasm/didlight.wasm", "If-None-Match", etag); etag == "" || r.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match %s: %s", etag, r.Status)
	}
	if r := get(h, "GET", "/wasm/shim/dist/index.js"); r.StatusCode != 200 || body(t, r) != "export {}" {
		t.Errorf("shim: %s", r.Status)
	}
}

// Without the module and shim their URLs answer 503 with why; the app
// itself and the loader are there all the same.
func TestModuleMissing(t *testing.T) {
	h := web.Handler(web.Options{Missing: "built without it"})
	for _, path := range []string{"/wasm/didlight.wasm", "/wasm/shim/dist/index.js"} {
		r := get(h, "GET", path)
		if got := body(t, r); r.StatusCode != http.StatusServiceUnavailable || !strings.Contains(got, "built without it") {
			t.Errorf("%s: %s %q", path, r.Status, got)
		}
	}
	for _, path := range []string{"/", "/app/main.js", "/style.css", "/wasm/browser.js", "/wasm/api.js"} {
		if r := get(h, "GET", path); r.StatusCode != 200 {
			t.Errorf("%s: %s", path, r.Status)
		}
	}
}

// The page carries a CSP that allows its import map by hash, and the
// app's files their types; folders are not listed, other methods refused.
func TestAppServed(t *testing.T) {
	h := web.Handler(web.Options{})
	page := get(h, "GET", "/")
	csp := page.Header.Get("Content-Security-Policy")
	if !strings.Contains(body(t, page), `<script type="importmap">`) || !strings.Contains(csp, "script-src 'self' 'wasm-unsafe-eval' 'sha256-") || !strings.Contains(csp, "connect-src *") {
		t.Errorf("page CSP %q", csp)
	}
	for path, typ := range map[string]string{"/app/main.js": "text/javascript", "/style.css": "text/css", "/favicon.svg": "image/svg+xml", "/wasm/browser.js": "text/javascript"} {
		if r := get(h, "GET", path); !strings.HasPrefix(r.Header.Get("Content-Type"), typ) || r.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: %q", path, r.Header.Get("Content-Type"))
		}
	}
	for path, code := range map[string]int{"/app/": 404, "/index.html": 404, "/nope.js": 404, "/wasm/": 404, "/wasm/shim/": 503} {
		if r := get(h, "GET", path); r.StatusCode != code {
			t.Errorf("GET %s: %s, want %d", path, r.Status, code)
		}
	}
	if r := get(h, "POST", "/"); r.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /: %s", r.Status)
	}
}
