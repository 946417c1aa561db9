package api

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/didlight/didlight/core/w3c"
)

// identifiersPath is where the W3C DID Resolution HTTP(S) binding resolves
// DIDs and dereferences DID URLs (the draft's binding, and its OpenAPI
// description: server /1.0/, path /identifiers/{identifier}); a Universal
// Resolver calls its drivers there.
const identifiersPath = "/1.0/identifiers/"

// serveIdentifier answers GET /1.0/identifiers/{DID or DID URL}: it reads
// the identifier and the Accept header, and writes what core/w3c answers
// from the chain.
// The answer depends on the identifier, the options, Accept and the head
// only: a cache may keep it (cache.go).
func (s *Server) serveIdentifier(w http.ResponseWriter, r *http.Request) {
	id, options := identifierOf(r)
	accept := strings.Join(r.Header.Values("Accept"), ",")
	w.Header()["Vary"] = varyAccept
	if s.notModified(w, r, identifiersPath, id, options, accept) {
		return
	}
	resp, err := s.dids.ResolveW3C(r.Context(), id, options, accept)
	if err != nil {
		s.log.Error("W3C resolution failed", "identifier", id, "err", err)
	}
	if resp.Status >= http.StatusInternalServerError {
		uncache(w)
	}
	writeW3C(w, resp)
}

// varyAccept is the Vary of the binding's answers, made once (see
// anyOrigin).
var varyAccept = []string{"Accept"}

// identifierOf reads the DID or DID URL of a request and the resolution
// options given apart from it. As the binding writes it (and the Universal
// Resolver reads it, ResolveServlet), a percent-encoded DID or DID URL (the
// path starts with did%3A) is followed by the options as the HTTP query;
// so is a DID as it is, when the HTTP query names options only
// ([w3c.QueryIsOptions]), as clients send them; otherwise the HTTP query is
// the DID URL's own. The path is decoded once: a fragment arrives as %23,
// a DID URL's query given with options as %3F. A path that does not decode
// is passed as it is, for core/w3c to refuse.
func identifierOf(r *http.Request) (id, options string) {
	raw := strings.TrimPrefix(r.URL.EscapedPath(), identifiersPath)
	id, err := url.PathUnescape(raw)
	if err != nil {
		id = raw
	}
	encoded := len(raw) >= len("did%3A") && strings.EqualFold(raw[:len("did%3A")], "did%3A")
	if encoded || w3c.QueryIsOptions(r.URL.RawQuery) {
		return id, r.URL.RawQuery
	}
	if r.URL.RawQuery != "" || r.URL.ForceQuery {
		id += "?" + r.URL.RawQuery
	}
	return id, ""
}

// writeW3C writes an answer of the binding.
func writeW3C(w http.ResponseWriter, resp w3c.Response) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	if resp.Location != "" {
		h.Set("Location", resp.Location)
	}
	if resp.ContentType != "" {
		h.Set("Content-Type", resp.ContentType)
	}
	h.Set("Content-Length", strconv.Itoa(len(resp.Body)))
	w.WriteHeader(resp.Status)
	w.Write(resp.Body)
}
