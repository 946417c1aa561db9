package api

import (
	"encoding/json"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// openAPIPath is where each listener serves the OpenAPI 3.1 document of
// its own routes. Both listeners have a root that means something else
// (the browser app or ELA's REST envelope; JSON-RPC), so one document
// cannot hold both (its paths are keyed by path alone): each listener
// describes itself, at the top-level name tools look for first, outside
// the namespaces whose conventions the rest follows (/api/v1, ELA's
// envelope; /1.0, the W3C binding's server root).
const openAPIPath = "/openapi.json"

// routeDoc describes a route (one pattern of a router) for the OpenAPI
// document: what it does, what it takes and what it answers.
type routeDoc struct {
	summary     string
	description string
	params      map[string]string // the path parameters' descriptions, by name
	query       map[string]string // the query parameters' descriptions, by name
	body        string            // the request body's media type; "" for none
	bodyDoc     string
	media       []string          // the media types of its answers; none: no body
	responses   map[string]string // descriptions by status; nil: 200 alone
	rpc         bool              // a JSON-RPC endpoint: the methods are its body's
	optional    bool              // registered only when an option asks (/metrics): described only then
}

// pathParam matches a wildcard of an http.ServeMux pattern.
var pathParam = regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_]*)(\.\.\.)?\}|\{\$\}`)

// openAPIDocument is the OpenAPI 3.1 document of the routes described by
// docs (keyed by their ServeMux patterns) on the listener named title: all
// but the optional ones not among routes, those the listener registered.
// Each operation names its pattern in x-pattern, and a pattern without a
// method (any method, any path under it not otherwise routed) is an
// x-fallback of its path: the router's own words, which the route test
// compares with the routes registered.
func openAPIDocument(title, description, version string, docs map[string]routeDoc, routes []route) []byte {
	registered := map[string]bool{}
	for _, r := range routes {
		registered[r.pattern] = true
	}
	paths := map[string]map[string]any{}
	for pattern, d := range docs {
		if d.optional && !registered[pattern] {
			continue
		}
		method, path, hasMethod := strings.Cut(pattern, " ")
		if !hasMethod {
			method, path = "", pattern
		}
		oPath := pathParam.ReplaceAllStringFunc(path, func(w string) string {
			if w == "{$}" {
				return ""
			}
			return "{" + pathParam.FindStringSubmatch(w)[1] + "}"
		})
		item := paths[oPath]
		if item == nil {
			item = map[string]any{}
			paths[oPath] = item
		}
		op := d.operation(pattern, path)
		if method == "" {
			item["x-fallback"] = op
			continue
		}
		item[strings.ToLower(method)] = op
	}
	doc := map[string]any{
		"openapi": "3.1.0",
		"info":    map[string]any{"title": title, "description": description, "version": version},
		"servers": []map[string]string{{"url": "/"}},
		"paths":   paths,
	}
	b, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		panic(err) // built of maps and strings only
	}
	return b
}

// operation is d as an OpenAPI operation of pattern, whose path is path.
func (d routeDoc) operation(pattern, path string) map[string]any {
	op := map[string]any{"summary": d.summary, "x-pattern": pattern}
	if d.description != "" {
		op["description"] = d.description
	}
	var params []map[string]any
	for _, m := range pathParam.FindAllStringSubmatch(path, -1) {
		if m[0] == "{$}" {
			continue
		}
		desc := d.params[m[1]]
		if m[2] != "" {
			desc += " (the rest of the path: it may hold slashes)"
		}
		params = append(params, map[string]any{"name": m[1], "in": "path", "required": true, "description": desc, "schema": map[string]string{"type": "string"}})
	}
	names := make([]string, 0, len(d.query))
	for name := range d.query {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		params = append(params, map[string]any{"name": name, "in": "query", "description": d.query[name], "schema": map[string]string{"type": "string"}})
	}
	if params != nil {
		op["parameters"] = params
	}
	if d.body != "" {
		schema := map[string]any{}
		if d.rpc {
			schema = jsonRPCSchema()
		}
		op["requestBody"] = map[string]any{"description": d.bodyDoc, "content": map[string]any{d.body: map[string]any{"schema": schema}}}
	}
	responses := d.responses
	if responses == nil {
		responses = map[string]string{"200": "The answer."}
	}
	out := map[string]any{}
	for status, desc := range responses {
		r := map[string]any{"description": desc}
		if len(d.media) > 0 && status < "300" && status != "204" {
			content := map[string]any{}
			for _, m := range d.media {
				content[m] = map[string]any{}
			}
			r["content"] = content
		}
		out[status] = r
	}
	op["responses"] = out
	return op
}

// jsonRPCSchema is the schema of a JSON-RPC body: a request, or a batch of
// them, whose method is one of methods, each described.
func jsonRPCSchema() map[string]any {
	names := make([]string, 0, len(methods))
	for name := range methods {
		names = append(names, name)
	}
	sort.Strings(names)
	choices := make([]map[string]any, 0, len(names))
	for _, name := range names {
		choices = append(choices, map[string]any{"const": name, "description": methodDocs[name] + methodAccess(methods[name])})
	}
	request := map[string]any{
		"type":     "object",
		"required": []string{"method"},
		"properties": map[string]any{
			"jsonrpc": map[string]any{"description": `"2.0"; absent or empty is answered as 2.0 (ela-cli sends it empty)`},
			"id":      map[string]any{"description": "echoed in the answer; absent with jsonrpc 2.0: a notification, not answered"},
			"method":  map[string]any{"oneOf": choices},
			"params":  map[string]any{"description": "named (an object) or positional (an array); the SDKs' DID methods take an array holding one object"},
		},
	}
	return map[string]any{"oneOf": []any{request, map[string]any{"type": "array", "items": request, "description": "a batch"}}}
}

// methodAccess says who may call a method that is not an open read, and
// which nodes do not serve one.
func methodAccess(m rpcMethod) string {
	var notes []string
	switch m.access {
	case control:
		notes = append(notes, "a control: refused to pages of other sites (docs/security.md)")
	case broadcast:
		notes = append(notes, "a broadcast of a transaction its sender signed")
	}
	switch {
	case m.query:
		notes = append(notes, "not served by a light node")
	case !m.light:
		notes = append(notes, "not served by a light node or an EID follower")
	}
	if notes == nil {
		return ""
	}
	return " (" + strings.Join(notes, "; ") + ")"
}

// serveOpenAPI serves the document build makes, once, at the first
// request: by then the listener's router has every route.
func serveOpenAPI(build func() []byte) http.HandlerFunc {
	doc := sync.OnceValue(build)
	return func(w http.ResponseWriter, r *http.Request) { writeBody(w, http.StatusOK, doc()) }
}
