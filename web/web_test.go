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

	"github.com/andybalholm/brotli"
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

// The module is served with brotli or gzip to browsers that accept them,
// as it is to the others, with an ETag that spares a second download.
func TestModuleServed(t *testing.T) {
	module := bytes.Repeat([]byte("\x00asm didlight "), 1000)
	h := web.Handler(web.Options{Module: module, ModuleBrotli: brotliOf(module), Shim: fstest.MapFS{"dist/index.js": {Data: []byte("export {}")}}})
	plain := get(h, "GET", "/wasm/didlight.wasm")
	if got := body(t, plain); plain.StatusCode != 200 || got != string(module) || plain.Header.Get("Content-Type") != "application/wasm" {
		t.Fatalf("plain: %s %q, %d bytes", plain.Status, plain.Header.Get("Content-Type"), len(got))
	}
	for _, tc := range []struct {
		accept, coding string
		decode         func(io.Reader) (io.Reader, error)
	}{
		{"br, gzip;q=0.8", "br", func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil }},
		{"gzip, deflate, br, zstd", "br", func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil }},
		{"gzip", "gzip", func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }},
		{"br;q=0, gzip", "gzip", func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }},
	} {
		t.Run(tc.accept, func(t *testing.T) {
			r := get(h, "GET", "/wasm/didlight.wasm", "Accept-Encoding", tc.accept)
			if got := r.Header.Get("Content-Encoding"); got != tc.coding || r.Header.Get("Vary") != "Accept-Encoding" || r.Header.Get("Content-Type") != "application/wasm" {
				t.Fatalf("Content-Encoding %q, want %q; Vary %q, Content-Type %q", got, tc.coding, r.Header.Get("Vary"), r.Header.Get("Content-Type"))
			}
			dec, err := tc.decode(r.Body)
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := io.ReadAll(dec); !bytes.Equal(got, module) || r.ContentLength >= int64(len(module)) {
				t.Errorf("%d bytes decode to %d, want fewer decoding to the module's %d", r.ContentLength, len(got), len(module))
			}
		})
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

// A brotli form that is not the module's (stale, of another build, or
// damaged) is never sent: the browser gets gzip.
func TestModuleBrotliChecked(t *testing.T) {
	module := bytes.Repeat([]byte("\x00asm didlight "), 1000)
	for name, br := range map[string][]byte{
		"another module's": brotliOf(bytes.Repeat([]byte("\x00asm other "), 1000)),
		"damaged":          brotliOf(module)[:50],
		"not brotli":       module,
	} {
		t.Run(name, func(t *testing.T) {
			h := web.Handler(web.Options{Module: module, ModuleBrotli: br})
			if r := get(h, "GET", "/wasm/didlight.wasm", "Accept-Encoding", "br, gzip"); r.Header.Get("Content-Encoding") != "gzip" {
				t.Errorf("Content-Encoding %q, want gzip", r.Header.Get("Content-Encoding"))
			}
		})
	}
}

// brotliOf compresses b with brotli.
func brotliOf(b []byte) []byte {
	var out bytes.Buffer
	w := brotli.NewWriter(&out)
	w.Write(b)
	w.Close()
	return out.Bytes()
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
