package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/host/internal/api"
)

// The hostile-client suite: every route the routers serve and every
// JSON-RPC method, taken from the server itself (so that a new one is
// covered without editing this test), sent malformed, oversized and
// cross-site requests. Every answer must have the status its route's class
// promises and an error shape of its listener (on REST: the envelope, the
// confirm endpoints' JSON-RPC style, or a W3C resolution result), quote at most the start of
// what it was sent, and leave the chain as it was. Each request has a
// generous time bound: a hang fails the test, speed is for benchmarks.

// filler is what stands in for a long hostile value; an answer holding a
// run of it echoed more than an error may.
const filler = "Q"

var echoed = regexp.MustCompile(filler + "{200}")

// headerSets are what the suite sends as: a tool (no browser headers), a
// page of another site, a form.
var headerSets = map[string][]string{
	"tool":       nil,
	"cross-site": {"Origin", "http://evil.example", "Sec-Fetch-Site", "cross-site"},
	"form":       {"Content-Type", "application/x-www-form-urlencoded"},
}

func TestHostileClients(t *testing.T) {
	n := startNodeWith(t, 0, serviceOptions()) // every route and wrapper a public node has
	alice := newIdentity(t, "alice")
	n.publish(alice, alice.create(yearFromNow())) // something to read
	n.client.Timeout = 30 * time.Second           // the hang detector
	urls := map[string]string{"rest": strings.TrimSuffix(n.rest, "/api/v1"), "rpc": strings.TrimSuffix(n.rpcURL, "/")}

	sent := 0
	routes := n.srv.Routes()
	if len(routes) < 20 {
		t.Fatalf("the server lists %d routes: %v", len(routes), routes)
	}
	for _, rt := range routes {
		methods, path := splitPattern(rt.Pattern)
		for _, method := range methods {
			for _, p := range hostilePaths(path) {
				for _, body := range hostileBodies(method) {
					for set, headers := range headerSets {
						if rt.Access == "control" && set == "tool" {
							continue // a tool is served: /reset would reset
						}
						what := fmt.Sprintf("%s %s %.60s (%d bytes) as %s", method, rt.Listener, p, len(body), set)
						before := n.state()
						status, _, b := n.do(method, urls[rt.Listener]+p, contentType(headers), body, headerPairs(headers)...)
						n.checkAnswer(what, rt.Listener, rt.Access, set, status, b)
						sent++
						n.unchanged(what, before)
					}
				}
			}
		}
	}

	t.Logf("%d requests to %d routes", sent, len(routes))
	methods := api.Methods()
	if len(methods) < 9 {
		t.Fatalf("the server lists %d JSON-RPC methods: %v", len(methods), methods)
	}
	for name, access := range methods {
		for _, params := range hostileParams() {
			for _, id := range []string{`,"id":7`, ""} {
				for set, headers := range headerSets {
					if access == "control" && set == "tool" {
						continue // a tool is served: dev_mine would mine
					}
					body := fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":%s%s}`, name, params, id)
					what := fmt.Sprintf("%s %.60s %s as %s", name, params, id, set)
					before := n.state()
					status, _, b := n.do("POST", n.rpcURL, contentType(headers), []byte(body), headerPairs(headers)...)
					n.checkCall(what, access, set, id == "", status, b)
					sent++
					n.unchanged(what, before)
				}
			}
		}
	}
	t.Logf("%d requests in all, the last ones to %d JSON-RPC methods", sent, len(methods))
}

// splitPattern returns the HTTP methods to send to a ServeMux pattern (all
// of a few for one that names none) and its path.
func splitPattern(pattern string) ([]string, string) {
	if method, path, ok := strings.Cut(pattern, " "); ok {
		return []string{method}, path
	}
	return []string{"GET", "POST", "PUT", "DELETE"}, pattern
}

// hostilePaths fills a pattern's wildcards with malformed and oversized
// values, and extends a prefix pattern (one ending in /) the same way.
func hostilePaths(pattern string) []string {
	pattern = strings.ReplaceAll(pattern, "{$}", "")
	wildcard := regexp.MustCompile(`\{[^}]*\}`)
	if !wildcard.MatchString(pattern) && !strings.HasSuffix(pattern, "/") {
		return []string{pattern}
	}
	var out []string
	for _, v := range []string{"x", "-1", "%FF%00", "0x10", strings.Repeat(filler, 20<<10)} {
		p := wildcard.ReplaceAllLiteralString(pattern, v)
		if strings.HasSuffix(p, "/") {
			p += v
		}
		out = append(out, p)
	}
	return out
}

// hostileBodies are the bodies to send with a method: none for those that
// take none; malformed, deep and oversized JSON for the others.
func hostileBodies(method string) [][]byte {
	if method != "POST" && method != "PUT" {
		return [][]byte{nil}
	}
	return [][]byte{
		nil,
		[]byte(`{"jsonrpc":"2.0","method":`),
		[]byte(strings.Repeat("[", 100000)),
		[]byte(`{"Action":"sendrawtransaction","data":"` + strings.Repeat(filler, 30<<10) + `","header":{}}`),
		bytes.Repeat([]byte(filler), 2<<20),
	}
}

// hostileParams are params no method takes: the wrong types, unknown and
// oversized members, too many positions.
func hostileParams() []string {
	long := `"` + strings.Repeat(filler, 30<<10) + `"`
	return []string{
		`"x"`, `7`, `[1,2,3,4,5,6,7,8,9,10,11]`, `{"zzz":1}`,
		`{"did":` + long + `,"zzz":1}`, `[` + long + `,` + long + `,` + long + `,` + long + `]`,
		`{"` + strings.Repeat(filler, 30<<10) + `":1}`, strings.Repeat("[", 5000) + strings.Repeat("]", 5000),
	}
}

func contentType(headers []string) string {
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i] == "Content-Type" {
			return headers[i+1]
		}
	}
	return "application/json"
}

// headerPairs are the headers other than Content-Type.
func headerPairs(headers []string) []string {
	var out []string
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i] != "Content-Type" {
			out = append(out, headers[i], headers[i+1])
		}
	}
	return out
}

// checkAnswer checks the answer of a route: the status its class promises,
// the error shape of its listener, and a bounded echo.
func (n *node) checkAnswer(what, listener, access, set string, status int, body []byte) {
	n.t.Helper()
	switch {
	case status >= 500:
		n.t.Errorf("%s: status %d: %.300s", what, status, body)
		return
	case access == "control" && set == "cross-site" && status != http.StatusForbidden,
		access == "control" && set == "form" && status != http.StatusUnsupportedMediaType:
		n.t.Errorf("%s: status %d, want the %s refused: %.300s", what, status, set, body)
	case access != "control" && (status == http.StatusForbidden || status == http.StatusUnsupportedMediaType):
		n.t.Errorf("%s: status %d for a %s route: %.300s", what, status, access, body)
	}
	if echoed.Match(body) {
		n.t.Errorf("%s: the answer echoes the input (%d bytes): %.300s", what, len(body), body)
	}
	if len(body) == 0 {
		if status != http.StatusNoContent && status != http.StatusOK {
			n.t.Errorf("%s: status %d without a body", what, status)
		}
		return
	}
	if string(body) == `["elastos"]` { // GET /1.0/methods, which reads no input
		return
	}
	var shape map[string]json.RawMessage
	if err := json.Unmarshal(body, &shape); err != nil {
		n.t.Errorf("%s: status %d, the answer is not a JSON object: %.300s", what, status, body)
		return
	}
	has := func(keys ...string) bool {
		return !slices.ContainsFunc(keys, func(k string) bool { _, ok := shape[k]; return !ok })
	}
	switch {
	case listener == "rest" && (has("Desc", "Error", "Result") || has("error", "id", "jsonrpc", "result")):
	case listener == "rest" && (has("didResolutionMetadata") || has("dereferencingMetadata")): // the W3C binding
	case listener == "rest" && status == http.StatusOK && len(shape) == 1 && has("elastos"): // the Universal Resolver's companion endpoints
	case status == http.StatusOK && has("openapi", "paths"): // GET /openapi.json, which reads no input
	case listener == "rpc" && (has("jsonrpc", "error", "id") || has("code", "message")):
	case has("status") && len(shape) == 1 || has("ready", "height", "lag"): // /health and /ready, on both
	default:
		n.t.Errorf("%s: status %d, the answer is not the %s listener's error shape: %.300s", what, status, listener, body)
	}
}

// checkCall checks the answer to a JSON-RPC call with hostile params.
func (n *node) checkCall(what, access, set string, notification bool, status int, body []byte) {
	n.t.Helper()
	refused := access == "control" && set != "tool"
	switch {
	case refused:
		want := map[string]int{"cross-site": http.StatusForbidden, "form": http.StatusUnsupportedMediaType}[set]
		var r rpcResponse
		if status != want || json.Unmarshal(body, &r) != nil || r.Error == nil || r.Error.Code != -32003 {
			n.t.Errorf("%s: %d %.300s, want %d with error -32003", what, status, body, want)
		}
	case notification:
		if status != http.StatusNoContent || len(body) != 0 {
			n.t.Errorf("%s: %d %.300s, want a notification answered 204 without a body", what, status, body)
		}
	default:
		var r rpcResponse
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		if status != http.StatusOK || dec.Decode(&r) != nil || r.JSONRPC != "2.0" || (r.Error == nil) == (r.Result == nil) || string(r.ID) != "7" {
			n.t.Errorf("%s: %d %.300s, want a JSON-RPC answer with id 7", what, status, body)
		} else if r.Error != nil && (r.Error.Code == -32603 || r.Error.Code == -32700) {
			n.t.Errorf("%s: error %d %s %s", what, r.Error.Code, r.Error.Message, r.Error.Data)
		}
	}
	if echoed.Match(body) {
		n.t.Errorf("%s: the answer echoes the input (%d bytes): %.300s", what, len(body), body)
	}
}
