package api_test

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/didlight/didlight/host/internal/api"
)

// openAPIDoc is the part of an OpenAPI document the route test reads.
type openAPIDoc struct {
	OpenAPI string
	Paths   map[string]map[string]json.RawMessage
}

type openAPIOp struct {
	Summary    string
	Pattern    string `json:"x-pattern"`
	Parameters []struct{ Name, In string }
	Responses  map[string]json.RawMessage
}

// Each listener's /openapi.json describes every route its router
// registered and nothing else: a route added without its description
// fails here, as does a description left after its route went. Each
// operation names its ServeMux pattern (x-pattern; x-fallback for a
// pattern of any method), has a summary, responses, and a parameter for
// each wildcard of its path; the JSON-RPC routes describe every method.
func TestOpenAPIMatchesRouter(t *testing.T) {
	n := startNode(t, 0)
	bases := map[string]string{"rest": strings.TrimSuffix(n.rest, "/api/v1"), "rpc": strings.TrimSuffix(n.rpcURL, "/")}
	routes := map[string][]string{}
	for _, r := range n.srv.Routes() {
		routes[r.Listener] = append(routes[r.Listener], r.Pattern)
	}
	wildcard := regexp.MustCompile(`\{([^}]+)\}`)
	for listener, base := range bases {
		t.Run(listener, func(t *testing.T) {
			status, ctype, body := send(t, "GET", base+"/openapi.json", "")
			var doc openAPIDoc
			if err := json.Unmarshal(body, &doc); status != 200 || ctype != "application/json; charset=utf-8" || err != nil || doc.OpenAPI != "3.1.0" {
				t.Fatalf("%d %s %v %.300s", status, ctype, err, body)
			}
			var described []string
			for path, item := range doc.Paths {
				for key, raw := range item {
					var op openAPIOp
					if err := json.Unmarshal(raw, &op); err != nil {
						t.Fatalf("%s %s: %v", path, key, err)
					}
					described = append(described, op.Pattern)
					if op.Summary == "" || len(op.Responses) == 0 {
						t.Errorf("%s: no summary or no responses: %s", op.Pattern, raw)
					}
					for _, w := range wildcard.FindAllStringSubmatch(path, -1) {
						if !slices.ContainsFunc(op.Parameters, func(p struct{ Name, In string }) bool { return p.Name == w[1] && p.In == "path" }) {
							t.Errorf("%s: path parameter %s is not described", op.Pattern, w[1])
						}
					}
				}
			}
			for _, p := range routes[listener] {
				if !slices.Contains(described, p) {
					t.Errorf("route %q is registered but not described (openapi_routes.go)", p)
				}
			}
			for _, p := range described {
				if !slices.Contains(routes[listener], p) {
					t.Errorf("%q is described but no route serves it", p)
				}
			}
		})
	}
	t.Run("JSON-RPC methods", func(t *testing.T) {
		_, _, body := send(t, "GET", bases["rpc"]+"/openapi.json", "")
		var doc struct {
			Paths map[string]map[string]struct {
				RequestBody struct {
					Content map[string]struct {
						Schema struct {
							OneOf []struct {
								Properties struct {
									Method struct {
										OneOf []struct{ Const, Description string }
									}
								}
							}
						}
					}
				}
			}
		}
		json.Unmarshal(body, &doc)
		for _, path := range []string{"/", "/resolve"} {
			choices := doc.Paths[path]["post"].RequestBody.Content["application/json"].Schema.OneOf
			if len(choices) == 0 {
				t.Fatalf("POST %s: no request schema", path)
			}
			var got []string
			for _, m := range choices[0].Properties.Method.OneOf {
				got = append(got, m.Const)
				if m.Description == "" || strings.HasPrefix(m.Description, " (") {
					t.Errorf("POST %s: method %s is not described", path, m.Const)
				}
			}
			for name := range api.Methods() {
				if !slices.Contains(got, name) {
					t.Errorf("POST %s: method %s is not in the document", path, name)
				}
			}
			if len(got) != len(api.Methods()) {
				t.Errorf("POST %s: %d methods described, %d served", path, len(got), len(api.Methods()))
			}
		}
	})
}
