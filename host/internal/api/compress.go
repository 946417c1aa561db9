package api

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"

	"github.com/didlight/didlight/web"
)

// compressFrom is the shortest JSON answer sent compressed: a shorter one
// leaves in one TCP segment anyway, and compressing it costs more CPU than
// the bytes saved are worth.
const compressFrom = 1 << 10

// The levels answers are compressed at, as answers are compressed once
// per request (the module, once per process, is at the best): gzip's
// fastest, and brotli's 2, which is faster than its 0 and 1 (they take
// another path in andybalholm/brotli) and smaller than gzip's 1. A
// resolution answer shrinks to a fifth to a third (docs/service.md has the
// figures; BenchmarkCompress, the cost).
const (
	gzipLevel   = gzip.BestSpeed
	brotliLevel = 2
)

// The compressors answers are compressed with, kept between requests. A
// compressor holds hundreds of kilobytes of tables: making one costs more
// than compressing a resolution, so that a sync.Pool, which drops what it
// holds at each garbage collection (every few milliseconds under load),
// would make one for most requests.
var (
	gzipWriters   = newSpares(func() *gzip.Writer { w, _ := gzip.NewWriterLevel(nil, gzipLevel); return w })
	brotliWriters = newSpares(func() *brotli.Writer { return brotli.NewWriterLevel(nil, brotliLevel) })
)

// spares keeps up to two of a kind of compressor per CPU for reuse.
type spares[T any] struct {
	free  chan T
	fresh func() T
}

func newSpares[T any](fresh func() T) spares[T] {
	return spares[T]{free: make(chan T, 2*runtime.GOMAXPROCS(0)), fresh: fresh}
}

// get returns a spare compressor, or a new one when none is spare.
func (s spares[T]) get() T {
	select {
	case w := <-s.free:
		return w
	default:
		return s.fresh()
	}
}

// put keeps w for reuse, unless enough are kept.
func (s spares[T]) put(w T) {
	select {
	case s.free <- w:
	default:
	}
}

// compressor compresses the answers of a server's routes. An answer with
// an ETag (cache.go) is the same for every request that gets that ETag:
// it is compressed once per coding and kept, up to packedBytes, so that
// the answers a cache would keep cost no more compressed than not.
type compressor struct {
	mu     sync.Mutex // guards packed and bytes
	packed map[packedKey][]byte
	bytes  int
}

// packedKey is an answer kept compressed: its ETag and the coding.
type packedKey struct{ etag, coding string }

// packedBytes is how much the compressed answers kept take at most; when
// a new one would go beyond, all are dropped (they are mostly of an
// earlier head by then).
const packedBytes = 8 << 20

// kept returns the answer with ETag etag compressed with coding, if kept.
func (c *compressor) kept(k packedKey) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.packed[k]
	return b, ok
}

// keep keeps b, the answer with ETag etag compressed with coding. b is
// not changed afterwards.
func (c *compressor) keep(k packedKey, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.packed == nil || c.bytes+len(b) > packedBytes {
		c.packed, c.bytes = map[packedKey][]byte{}, 0
	}
	if _, ok := c.packed[k]; !ok {
		c.packed[k] = b
		c.bytes += len(b) + len(k.etag)
	}
}

// wrap returns h answering JSON bodies of compressFrom bytes or more
// compressed, with brotli or gzip, to clients that accept either
// (Accept-Encoding). Other answers, and every answer to a client that
// accepts neither, pass as they are. c may be nil: h is returned as it is.
func (c *compressor) wrap(h http.HandlerFunc) http.HandlerFunc {
	if c == nil {
		return h
	}
	return func(w http.ResponseWriter, r *http.Request) {
		coding := ""
		switch {
		case r.Method == http.MethodHead || r.Header.Get("Accept-Encoding") == "":
		case web.AcceptsEncoding(r, "br"):
			coding = "br"
		case web.AcceptsEncoding(r, "gzip"):
			coding = "gzip"
		}
		if coding == "" {
			h(w, r)
			return
		}
		cw := &compressWriter{ResponseWriter: w, coding: coding, c: c}
		h(cw, r)
		cw.finish()
	}
}

// compressWriter holds an answer's status until its body arrives, then
// sends the body compressed when it is JSON, whole (the answers' writers
// set Content-Length and write the body at once) and long enough.
type compressWriter struct {
	http.ResponseWriter
	coding  string
	c       *compressor
	status  int  // held by WriteHeader; 0 until then
	decided bool // the header has gone down
}

func (w *compressWriter) WriteHeader(status int) {
	switch {
	case w.decided:
		w.ResponseWriter.WriteHeader(status)
	case status < 200: // an informational answer goes at once
		w.ResponseWriter.WriteHeader(status)
	case w.status == 0:
		w.status = status
	}
}

func (w *compressWriter) Write(b []byte) (int, error) {
	if w.decided {
		return w.ResponseWriter.Write(b)
	}
	w.decided = true
	if w.status == 0 {
		w.status = http.StatusOK
	}
	h := w.Header()
	if !w.compressible(h, len(b)) {
		w.ResponseWriter.WriteHeader(w.status)
		return w.ResponseWriter.Write(b)
	}
	packed := w.packed(h, b)
	h["Content-Encoding"] = []string{w.coding}
	h["Content-Length"] = []string{strconv.Itoa(len(packed))}
	h.Add("Vary", "Accept-Encoding")
	w.ResponseWriter.WriteHeader(w.status)
	if _, err := w.ResponseWriter.Write(packed); err != nil {
		return 0, err
	}
	return len(b), nil
}

// packed returns b compressed: as kept for the answer's ETag, or
// compressed now (and kept, when it has an ETag).
func (w *compressWriter) packed(h http.Header, b []byte) []byte {
	k := packedKey{etag: h.Get("Etag"), coding: w.coding}
	if k.etag != "" {
		if p, ok := w.c.kept(k); ok {
			return p
		}
	}
	out := getBuffer()
	defer putBuffer(out)
	compress(out, w.coding, b)
	p := bytes.Clone(out.Bytes())
	if k.etag != "" {
		w.c.keep(k, p)
	}
	return p
}

// compressible reports whether an answer with header h and an n-byte body,
// written whole, is one to compress.
func (w *compressWriter) compressible(h http.Header, n int) bool {
	if n < compressFrom || w.status == http.StatusNoContent || w.status == http.StatusNotModified || h.Get("Content-Encoding") != "" {
		return false
	}
	if cl := h.Get("Content-Length"); cl != strconv.Itoa(n) {
		return false // written in pieces: sent as it is
	}
	return isJSON(h.Get("Content-Type"))
}

// isJSON reports whether a Content-Type is JSON's or one of the JSON
// representations of DID resolution (application/did,
// application/did-resolution, application/did-url-dereferencing; see
// core/w3c).
func isJSON(contentType string) bool {
	return strings.HasPrefix(contentType, "application/") &&
		(strings.Contains(contentType, "json") || strings.HasPrefix(contentType, "application/did"))
}

// finish sends a status held without a body.
func (w *compressWriter) finish() {
	if !w.decided && w.status != 0 {
		w.decided = true
		w.ResponseWriter.WriteHeader(w.status)
	}
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *compressWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// compress writes b compressed with coding to out.
func compress(out *bytes.Buffer, coding string, b []byte) {
	if coding == "br" {
		bw := brotliWriters.get()
		bw.Reset(out)
		bw.Write(b)
		bw.Close()
		bw.Reset(nil)
		brotliWriters.put(bw)
		return
	}
	gw := gzipWriters.get()
	gw.Reset(out)
	gw.Write(b)
	gw.Close()
	gw.Reset(nil)
	gzipWriters.put(gw)
}
