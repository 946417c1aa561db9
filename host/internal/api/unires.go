package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/didlight/didlight/core/excerpt"
	"github.com/didlight/didlight/core/find"
	"github.com/didlight/didlight/core/w3c"
	"github.com/didlight/didlight/host/internal/chain"
)

// The Universal Resolver's companion endpoints, beside /1.0/identifiers,
// as its OpenAPI document describes them and its web servlets answer
// (decentralized-identity/universal-resolver, openapi/openapi.yaml;
// uni-resolver-web MethodsServlet, PropertiesServlet,
// TestIdentifiersServlet, TraitsServlet): each a JSON value written as
// application/json (UniResolver.*_MEDIA_TYPE), keyed by DID method where
// it is a map. This node resolves one method, elastos.
const (
	methodsPath         = "/1.0/methods"
	propertiesPath      = "/1.0/properties"
	testIdentifiersPath = "/1.0/testIdentifiers"
	traitsPath          = "/1.0/traits"

	didMethod = "elastos"

	// testIdentifierCount is how many DIDs /1.0/testIdentifiers lists:
	// the first created that are not deactivated, as the Universal
	// Resolver's configuration lists a few per driver.
	testIdentifierCount = 5

	// maxOptionsBody bounds the body of POST /1.0/identifiers: core/w3c
	// refuses options longer than 4096 bytes anyway.
	maxOptionsBody = 16 << 10
)

// traits are did:elastos's DID traits, under the names the Universal
// Resolver's configuration gives them (uni-resolver-web application.yml;
// the DIF DID Traits work item defines them): documents are updated and
// deactivated by operations on the chain, which keeps every version
// (resolvedid all=true, versionId) and lists every DID (a follower's
// query); customized DIDs (did:elastos:foobar) are names people read.
var traits = map[string]map[string]bool{didMethod: {
	"updatable":        true,
	"deactivatable":    true,
	"enumerable":       true,
	"historyAvailable": true,
	"humanReadable":    true,
}}

// anyDID is the find condition every document satisfies: the query that
// lists DIDs in creation order.
var anyDID = must(find.Compile(`{}`))

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// routeUniversalResolver registers the companion endpoints and the POST
// form of /1.0/identifiers on the REST listener's router.
func (s *Server) routeUniversalResolver(rt *router) {
	rt.handle("GET "+methodsPath, read, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, []string{didMethod})
	})
	rt.handle("GET "+traitsPath, read, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, traits)
	})
	rt.handle("GET "+propertiesPath, read, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{didMethod: s.properties()})
	})
	rt.handle("GET "+testIdentifiersPath, read, s.serveTestIdentifiers(&testIdentifiers{}))
	rt.handle("POST "+identifiersPath+"{identifier...}", read, s.servePostIdentifier)
}

// properties are what this node is, for an operator reading a Universal
// Resolver's /1.0/properties: the kind of node, its build, its height and,
// for a follower, its upstream.
func (s *Server) properties() map[string]any {
	p := map[string]any{"node": s.kind(), "version": s.opts.Version, "height": s.height()}
	if s.opts.Follower != nil {
		p["upstream"] = s.opts.Follower.Upstream()
	}
	if s.light != nil {
		p["light"] = s.light.Status()
	}
	return p
}

// kind names the node: a devnet producing blocks, a follower of one, a
// light node, or an EID follower.
func (s *Server) kind() string {
	switch {
	case s.opts.Follower != nil:
		return "follower"
	case s.chain != nil:
		return "devnet"
	case s.queries != nil:
		return "eid-follower"
	default:
		return "light"
	}
}

// testIdentifiers keeps the DIDs /1.0/testIdentifiers listed, with the
// height they were read at: finding them reads every document (a query
// matching all), so they are read again only once the chain has moved.
type testIdentifiers struct {
	mu     sync.Mutex // guards the fields below, and serializes reads
	height uint32
	dids   []string // nil until read
}

// serveTestIdentifiers lists DIDs this node resolves: the first created
// that are not deactivated, from its chain or index (a devnet's demo DIDs,
// a follower's first DIDs). A light node keeps no index of the chain, so
// it lists none.
func (s *Server) serveTestIdentifiers(kept *testIdentifiers) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		dids, err := s.testIdentifiers(r.Context(), kept)
		if err != nil {
			s.log.Error("listing test identifiers failed", "err", err)
			writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "the node could not read its DIDs; its log says why"})
			return
		}
		writeJSON(w, http.StatusOK, map[string][]string{didMethod: dids})
	}
}

func (s *Server) testIdentifiers(ctx context.Context, kept *testIdentifiers) ([]string, error) {
	if s.queries == nil {
		return []string{}, nil
	}
	kept.mu.Lock()
	defer kept.mu.Unlock()
	height := s.height()
	if kept.dids != nil && kept.height == height {
		return kept.dids, nil
	}
	result, err := s.queries.Query(ctx, chain.Query{Condition: anyDID, Limit: testIdentifierCount})
	if err != nil {
		return nil, err
	}
	var page struct {
		Document []struct{ ID string }
	}
	if err := json.Unmarshal(result, &page); err != nil {
		return nil, fmt.Errorf("api: reading a query result: %w", err)
	}
	dids := []string{}
	for _, d := range page.Document {
		dids = append(dids, d.ID)
	}
	kept.height, kept.dids = height, dids
	return dids, nil
}

// servePostIdentifier answers the POST form of the binding: the DID or DID
// URL in the path as GET takes it, the resolution (or dereferencing)
// options as a JSON object in the body. Options in the HTTP query win over
// the body's, as the Universal Resolver merges them (uni-resolver-web
// ResolveServlet.doPost; its OpenAPI's ResolvePostBody); W3C DID
// Resolution's HTTP(S) binding has the same input: the DID or DID URL and
// the options, which a POST carries in its body.
func (s *Server) servePostIdentifier(w http.ResponseWriter, r *http.Request) {
	id, options := identifierOf(r)
	accept := strings.Join(r.Header.Values("Accept"), ",")
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxOptionsBody))
	if err != nil {
		writeW3C(w, w3c.RefuseOptions(id, accept, fmt.Sprintf("the request body could not be read: %v", err)))
		return
	}
	merged, detail := mergeBodyOptions(options, body)
	if detail != "" {
		writeW3C(w, w3c.RefuseOptions(id, accept, detail))
		return
	}
	resp, err := s.dids.ResolveW3C(r.Context(), id, merged, accept)
	if err != nil {
		s.log.Error("W3C resolution failed", "identifier", id, "err", err)
	}
	writeW3C(w, resp)
}

// mergeBodyOptions adds the options of a POST body, a JSON object of
// names to strings, booleans or numbers (empty: none), to query, an HTTP
// query of options, as one query core/w3c reads; a name query gives keeps
// query's value. detail says why a body is refused.
func mergeBodyOptions(query string, body []byte) (merged, detail string) {
	if len(bytes.TrimSpace(body)) == 0 {
		return query, ""
	}
	var opts map[string]json.RawMessage
	if err := json.Unmarshal(body, &opts); err != nil || opts == nil {
		return "", "the request body is not a JSON object of options: " + excerpt.Quote(string(body))
	}
	given, _ := url.ParseQuery(query)
	extra := url.Values{}
	for name, raw := range opts {
		if given.Has(name) {
			continue
		}
		value, ok := optionValue(raw)
		if !ok {
			return "", fmt.Sprintf("option %s is %s: give a string, a boolean or a number", excerpt.Quote(name), excerpt.Quote(string(raw)))
		}
		extra.Set(name, value)
	}
	switch {
	case len(extra) == 0:
		return query, ""
	case query == "":
		return extra.Encode(), ""
	}
	return query + "&" + extra.Encode(), ""
}

// optionValue is a JSON scalar as an option's text: a string's contents,
// true, false or a number as written.
func optionValue(raw json.RawMessage) (string, bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return "", false
	}
	switch v := v.(type) {
	case string:
		return v, true
	case bool, float64:
		return string(bytes.TrimSpace(raw)), true
	}
	return "", false
}
