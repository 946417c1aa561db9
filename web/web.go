// Package web implements the browser app a node serves.
//
// It is the browser app the node serves at / of its REST listener: enter a
// DID, and the page fetches its history from the node's JSON-RPC API, or
// from an EID endpoint it is pointed at, and verifies it in the browser with
// the didlight WebAssembly module before showing its status, document and
// operations; it also has a query console and a view of the chain. The app
// is plain HTML, CSS and JS modules, embedded in the binary.
//
// Handler serves the app's files, the module's browser loader under
// /wasm/ (package github.com/didlight/didlight/wasm/js) and the module itself at
// /wasm/didlight.wasm. A node built without the module answers 503 there,
// with the reason, and the app shows answers flagged as unverified.
package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/didlight/didlight/wasm/js"
)

//go:embed static
var static embed.FS

// Options says what the app serves besides its own files.
type Options struct {
	// Module is the didlight WebAssembly module browsers verify with; nil
	// when the node has none.
	Module []byte
	// ModuleBrotli is Module compressed with brotli (as `make wasm`
	// writes it beside the module), sent to browsers that accept br; nil
	// for none. It is served only once it is found to decompress to Module.
	ModuleBrotli []byte
	// Shim is the WASI shim's package folder (dist/index.js and the
	// modules it imports; see js.Shim); nil when the node has none.
	Shim fs.FS
	// Missing says why Module or Shim is nil; browsers get it with the 503.
	Missing string
}

// Handler returns the app. It answers GET and HEAD requests for its own
// paths and 404 for any other path.
func Handler(o Options) http.Handler {
	files, _ := fs.Sub(static, "static") // static is always there: embedded
	mux := http.NewServeMux()
	mux.Handle("GET /{$}", page(files))
	mux.Handle("GET /wasm/didlight.wasm", moduleHandler(o))
	mux.Handle("GET /wasm/shim/", assets("/wasm/shim", o.Shim, o.Missing))
	mux.Handle("GET /wasm/", assets("/wasm", js.Loader(), ""))
	mux.Handle("GET /", assets("", files, ""))
	return mux
}

// importMapRE finds the page's import map, which the CSP allows by hash.
var importMapRE = regexp.MustCompile(`<script type="importmap">([^<]*)</script>`)

// page serves index.html with a Content-Security-Policy that allows only
// the app's own scripts, its import map, WebAssembly compilation, and
// requests to any node (the JSON-RPC API is on another port, and the user
// may point the app at another node or an EID endpoint).
func page(files fs.FS) http.Handler {
	html, err := fs.ReadFile(files, "index.html")
	if err != nil {
		panic("web: index.html is not embedded: " + err.Error())
	}
	m := importMapRE.FindSubmatch(html)
	if m == nil {
		panic("web: index.html has no import map")
	}
	sum := sha256.Sum256(m[1])
	csp := "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'; " +
		"connect-src *; img-src 'self' data:; style-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Security-Policy", csp)
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		w.Write(html)
	})
}

// assets serves the files of fsys under prefix; nil fsys answers 503 with
// why. Folders are not listed.
func assets(prefix string, fsys fs.FS, missing string) http.Handler {
	if fsys == nil {
		return unavailable(missing)
	}
	files := http.StripPrefix(prefix, http.FileServerFS(fsys))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/") || strings.HasSuffix(r.URL.Path, "/index.html") {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		files.ServeHTTP(w, r)
	})
}

// unavailable answers 503 with why, for what this node was built without.
func unavailable(why string) http.Handler {
	if why == "" {
		why = "not available on this node"
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintln(w, why)
	})
}

// moduleHandler serves the module, compressed as the browser accepts it
// (brotli to about a fifth, gzip to about a quarter), with an ETag so that
// a browser downloads it again only when it changed.
func moduleHandler(o Options) http.Handler {
	if o.Module == nil {
		return unavailable(o.Missing)
	}
	sum := sha256.Sum256(o.Module)
	etag := `"` + hex.EncodeToString(sum[:16]) + `"`
	gz := sync.OnceValue(func() []byte {
		var b bytes.Buffer
		// Best compression: done once per process, and about 1 % smaller.
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		zw.Write(o.Module)
		zw.Close()
		return b.Bytes()
	})
	br := sync.OnceValue(func() []byte { return brotliOf(o.Module, o.ModuleBrotli) })
	size := strconv.Itoa(len(o.Module))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "application/wasm")
		h.Set("Cache-Control", "no-cache")
		h.Set("ETag", etag)
		h.Set("Vary", "Accept-Encoding")
		h.Set("X-Module-Size", size)
		h.Set("Access-Control-Expose-Headers", "X-Module-Size")
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		body := o.Module
		switch {
		case AcceptsEncoding(r, "br") && br() != nil:
			body = br()
			h.Set("Content-Encoding", "br")
		case AcceptsEncoding(r, "gzip"):
			body = gz()
			h.Set("Content-Encoding", "gzip")
		}
		h.Set("Content-Length", strconv.Itoa(len(body)))
		if r.Method != http.MethodHead {
			w.Write(body)
		}
	})
}

// brotliOf returns compressed when it decompresses to module, else nil: a
// stale or damaged file beside the module is never served for it.
func brotliOf(module, compressed []byte) []byte {
	if compressed == nil {
		return nil
	}
	got, err := io.ReadAll(io.LimitReader(brotli.NewReader(bytes.NewReader(compressed)), int64(len(module))+1))
	if err != nil || !bytes.Equal(got, module) {
		return nil
	}
	return compressed
}

// AcceptsEncoding reports whether the request's Accept-Encoding lists
// coding (gzip, br) with a non-zero quality: for the module here, and the
// node's JSON answers (host/internal/api).
func AcceptsEncoding(r *http.Request, coding string) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), coding) {
			q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}
