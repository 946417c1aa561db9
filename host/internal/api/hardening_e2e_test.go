package api_test

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/host/internal/api"
)

// The defects a hostile client and a hostile web page found,
// each shown gone.

// A 512 KiB DID or credential id is invalid params at once, for every
// method that takes one, and the error quotes its start only.
func TestLongIdentifiersRefused(t *testing.T) {
	n := startNode(t, 0)
	long := "did:elastos:i" + strings.Repeat("x", 512<<10)
	for i, c := range []struct{ method, params string }{
		{"resolvedid", `{"did":"` + long + `"}`},
		{"did_resolveDID", `[{"did":"` + long + `","all":true}]`},
		{"resolvecredential", `{"id":"` + long + `#c"}`},
		{"did_resolveCredential", `[{"id":"did:elastos:x#c","issuer":"` + long + `"}]`},
		{"listcredentials", `{"did":"` + long + `"}`},
		{"did_listCredentials", `[{"did":"` + long + `","limit":1}]`},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			r := n.decode(n.post("", `{"jsonrpc":"2.0","id":1,"method":"`+c.method+`","params":`+c.params+`}`))
			checkRPCError(t, c.method, r, -32602, "Invalid params", "too long")
			if r.Error != nil && len(r.Error.Data) > 300 {
				t.Errorf("%s: data of %d bytes, want the id quoted at its start only", c.method, len(r.Error.Data))
			}
		})
	}
}

// crossSite are the headers a browser sends with a request another site's
// page makes: a form POST (Origin), an <img> (Sec-Fetch-Site only).
var crossSite = map[string][]string{
	"a foreign Origin":          {"Origin", "http://evil.example"},
	"Origin null":               {"Origin", "null"},
	"a same-site Origin":        {"Origin", "http://127.0.0.1:8080", "Sec-Fetch-Site", "same-site"},
	"Sec-Fetch-Site cross-site": {"Sec-Fetch-Site", "cross-site"},
	"Sec-Fetch-Site same-site":  {"Sec-Fetch-Site", "same-site"},
}

// No page on another site can reset the chain, mine, move its clock, spend
// the dev account or restart the REST service: each is refused with 403
// and changes nothing. (A form POST to /reset took a 60-block chain back
// to genesis; dev_increaseTime as text/plain moved the clock 50 years.)
func TestControlsRefuseOtherSites(t *testing.T) {
	n := startNode(t, 0)
	alice := newIdentity(t, "alice")
	n.publish(alice, alice.create(yearFromNow()))
	idtx := requestJSON(t, newIdentity(t, "bob").create(yearFromNow()))
	for name, headers := range crossSite {
		for _, req := range []struct {
			what, path, contentType string
			body                    []byte
		}{
			{"/reset", "reset", "application/x-www-form-urlencoded", []byte("a=b")},
			{"/reset", "reset", "", nil},
			{"/idtx", "idtx", "text/plain", idtx},
			{"dev_increaseTime", "", "text/plain", []byte(`{"jsonrpc":"2.0","method":"dev_increaseTime","params":{"seconds":1576800000},"id":1}`)},
			{"dev_mine in a batch", "", "application/json", []byte(`[{"method":"resolvedid","params":{"did":"x"},"id":1},{"method":"dev_mine","id":2}]`)},
			{"/reset at a time", "reset?time=2025-12-01T00:00:00Z", "", nil},
			{"dev_reset", "", "text/plain", []byte(`{"jsonrpc":"2.0","method":"dev_reset","params":{"time":"2025-12-01T00:00:00Z"},"id":1}`)},
			{"dev_setNextBlockTime", "", "application/json", []byte(`{"jsonrpc":"2.0","method":"dev_setNextBlockTime","params":{"time":4000000000},"id":1}`)},
			{"dev_snapshot", "", "application/json", []byte(`{"jsonrpc":"2.0","method":"dev_snapshot","id":1}`)},
			{"dev_revert", "", "application/json", []byte(`{"jsonrpc":"2.0","method":"dev_revert","params":{"id":"0x1"},"id":1}`)},
		} {
			before := n.state()
			status, _, body := n.do("POST", n.rpcURL+req.path, req.contentType, req.body, headers...)
			if status != http.StatusForbidden || !strings.Contains(string(body), "another site") {
				t.Errorf("%s with %s: %d %s, want 403 saying it comes from another site", req.what, name, status, body)
			}
			n.unchanged(req.what+" with "+name, before)
		}
		before := n.openConn()
		status, _, body := n.do("GET", n.rest+"/restart", "", nil, headers...)
		e := n.envelope(http.StatusOK, body)
		if status != http.StatusForbidden || e.Error != 42003 || !strings.Contains(string(e.Result), "another site") {
			t.Errorf("restart with %s: %d %s, want 403 with 42003", name, status, body)
		}
		before.stillOpen()
	}
}

// Controls never take a form body, whoever sends it: a form is what a page
// can post anywhere without asking.
func TestControlsRefuseForms(t *testing.T) {
	n := startNode(t, 0)
	for _, ct := range []string{"application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "Application/X-WWW-Form-Urlencoded; charset=utf-8"} {
		for _, req := range []struct{ what, path, body string }{
			{"/reset", "reset", "a=b"},
			{"dev_mine", "", `{"jsonrpc":"2.0","method":"dev_mine","id":1}`},
			{"/idtx", "idtx", `{}`},
		} {
			before := n.state()
			status, _, body := n.do("POST", n.rpcURL+req.path, ct, []byte(req.body))
			if status != http.StatusUnsupportedMediaType || !strings.Contains(string(body), "form") {
				t.Errorf("%s as %s: %d %s, want 415", req.what, ct, status, body)
			}
			n.unchanged(req.what+" as a form", before)
		}
	}
	// Reads as forms are served: curl -d sends that type.
	r := n.decode(n.postAs("", "application/x-www-form-urlencoded", `{"method":"resolvedid","params":{"did":"x"},"id":1}`))
	if r.Error != nil {
		t.Errorf("resolvedid as a form: %+v", r.Error)
	}
}

// Without the headers browsers add (curl, the SDKs in Node, ela-cli), and
// from the node's own pages or an origin allowed with --cors-origin,
// controls are served; reads and signed broadcasts are open to every page.
func TestControlsServeTools(t *testing.T) {
	n := startNodeWith(t, 0, api.Options{Version: "test", CORSOrigins: []string{"http://localhost:3000"}})
	rest, _ := url.Parse(n.rest)
	rpc, _ := url.Parse(n.rpcURL)
	for name, headers := range map[string][]string{
		"no browser headers":         nil,
		"text/plain like ela-cli":    {"Content-Type", "text/plain"},
		"the node's own app":         {"Origin", "http://" + rest.Host, "Sec-Fetch-Site", "same-site"},
		"the JSON-RPC origin":        {"Origin", "http://" + rpc.Host, "Sec-Fetch-Site", "same-origin"},
		"an allowed origin":          {"Origin", "http://localhost:3000", "Sec-Fetch-Site", "cross-site"},
		"Sec-Fetch-Site none":        {"Sec-Fetch-Site", "none"},
		"Sec-Fetch-Site same-origin": {"Sec-Fetch-Site", "same-origin"},
	} {
		height := n.height()
		status, _, body := n.do("POST", n.rpcURL, "application/json", []byte(`{"jsonrpc":"2.0","method":"dev_mine","id":1}`), headers...)
		if status != http.StatusOK || n.decode(body).Error != nil || n.height() != height+1 {
			t.Errorf("dev_mine with %s: %d %s, want a block mined", name, status, body)
		}
	}
	for name, headers := range crossSite {
		status, h, body := n.do("POST", n.rpcURL, "text/plain", []byte(`{"method":"resolvedid","params":{"did":"x"},"id":1}`), headers...)
		if status != http.StatusOK || n.decode(body).Error != nil || h.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("resolvedid with %s: %d %s %v, want it answered with CORS", name, status, body, h)
		}
		status, h, body = n.do("GET", n.rest+"/block/height", "", nil, headers...)
		if status != http.StatusOK || n.envelope(status, body).Error != 0 || h.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("GET /block/height with %s: %d %s", name, status, body)
		}
		status, _, body = n.do("POST", n.rest+"/transaction", "text/plain", []byte(`{"Action":"sendrawtransaction","data":"zz"}`), headers...)
		n.checkFailure("a broadcast with "+name, n.envelope(status, body), 42002, "not hex")
	}
}

// A 2.0 request without an id is a notification: no answer, HTTP 204 when
// nothing else is to be answered; it is still done.
func TestNotificationsAreNotAnswered(t *testing.T) {
	n := startNode(t, 0)
	for _, body := range []string{
		`{"jsonrpc":"2.0","method":"resolvedid","params":{"did":"x"}}`,
		`{"jsonrpc":"2.0","method":"nope"}`,
		`{"jsonrpc":"2.0","method":"query","params":{"limit":"x"}}`,
		`[{"jsonrpc":"2.0","method":"resolvedid","params":{"did":"x"}},{"jsonrpc":"2.0","method":"nope"}]`,
	} {
		status, _, b := n.do("POST", n.rpcURL, "application/json", []byte(body))
		if status != http.StatusNoContent || len(b) != 0 {
			t.Errorf("%s: %d %q, want 204 and no body", body, status, b)
		}
	}
	var batch []rpcResponse
	b := n.post("", `[{"jsonrpc":"2.0","method":"resolvedid","params":{"did":"x"}},{"jsonrpc":"2.0","method":"resolvedid","params":{"did":"x"},"id":7},{"jsonrpc":"2.0","method":5}]`)
	if err := json.Unmarshal(b, &batch); err != nil || len(batch) != 2 || string(batch[0].ID) != "7" || batch[1].Error == nil || batch[1].Error.Code != -32600 {
		t.Errorf("a batch with a notification: %s, want the call and the invalid request answered, the notification left out", b)
	}
	height := n.height()
	if status, _, _ := n.do("POST", n.rpcURL, "application/json", []byte(`{"jsonrpc":"2.0","method":"dev_mine"}`)); status != http.StatusNoContent || n.height() != height+1 {
		t.Errorf("dev_mine as a notification: %d, height %d; want 204 and a block", status, n.height())
	}
	// Without a version (1.0 style) or with ela-cli's empty one, a call is
	// answered, with id null when it has none.
	for body, id := range map[string]string{
		`{"method":"resolvedid","params":{"did":"x"}}`:                     "null",
		`{"jsonrpc":"","method":"resolvedid","params":{"did":"x"},"id":4}`: "4",
	} {
		if r := n.decode(n.post("", body)); r.Error != nil || string(r.ID) != id {
			t.Errorf("%s: %+v, want a result with id %s", body, r, id)
		}
	}
}

// Error data names the parameter and what it should be, in JSON's terms,
// not in Go's.
func TestErrorDataNamesParameters(t *testing.T) {
	n := startNode(t, 0)
	for i, c := range []struct{ method, params, want string }{
		{"query", `{"service":"x","limit":"x"}`, "limit: want an integer"},
		{"query", `{"service":"x","skip":1.5}`, "skip: want an integer"},
		{"resolvedid", `{"did":"x","all":"yes"}`, "all: want true or false"},
		{"resolvedid", `{"did":7}`, "did: want a string"},
		{"listcredentials", `[{"did":"x","limit":[]}]`, "limit: want an integer"},
		{"resolvedid", `{"did":"x","al":true}`, `unknown parameter \"al\": want did or all`},
		{"dev_increaseTime", `{"seconds":"sixty"}`, "seconds: want a whole number"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			r := n.decode(n.post("", fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":%s}`, c.method, c.params)))
			if r.Error == nil || !strings.Contains(string(r.Error.Data), c.want) || strings.Contains(string(r.Error.Data), "Go ") {
				t.Errorf("%s %s: %+v, want data with %q", c.method, c.params, r.Error, c.want)
			}
		})
	}
}

// Errors quote at most about 100 bytes of what they were given.
func TestEchoesBounded(t *testing.T) {
	n := startNode(t, 0)
	long := strings.Repeat("x", 60<<10)
	for _, path := range []string{"/block/details/hash/" + long, "/transaction/" + long, "/asset/balances/" + long, "/block/hash/" + long, "/" + long, "/asset/utxo/" + long[:30<<10] + "/" + long[:30<<10]} {
		status, _, body := n.do("GET", n.rest+path, "", nil)
		if e := n.envelope(status, body); e.Error == 0 || len(body) > 400 {
			t.Errorf("GET %.40s…: %d bytes: %.200s, want a short error", path, len(body), body)
		}
	}
	for i, req := range []struct{ path, body string }{
		{"", `{"jsonrpc":"2.0","method":"` + long + `","id":1}`},
		{"", `{"jsonrpc":"2.0","method":"query","params":{"query":"{\"$` + long + `\":1}"},"id":1}`},
		{"", `{"jsonrpc":"` + long + `","method":"m","id":1}`},
		{long, `{}`},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			status, _, body := n.do("POST", n.rpcURL+req.path, "application/json", []byte(req.body))
			if status == http.StatusOK && n.decode(body).Error == nil || len(body) > 400 {
				t.Errorf("POST /%.20s %.60s…: %d, %d bytes: %.200s, want a short error", req.path, req.body, status, len(body), body)
			}
		})
	}
	status, _, body := n.do("POST", n.rest+"/transaction", "application/json", []byte(`{"Action":"`+long+`","data":"00"}`))
	if e := n.envelope(status, body); e.Error != 42002 || len(body) > 400 {
		t.Errorf("a broadcast with a long Action: %.200s", body)
	}
}

// postAs posts body to path with a content type; the answer must be 200.
func (n *node) postAs(path, contentType, body string) []byte {
	n.t.Helper()
	status, _, b := n.do("POST", n.rpcURL+path, contentType, []byte(body))
	if status != http.StatusOK {
		n.t.Fatalf("POST /%s: status %d: %s", path, status, b)
	}
	return b
}

// stillOpen checks that the REST service did not restart: the server does
// not close the idle connection (as a restart does at once) within a
// generous moment.
func (c *conn) stillOpen() {
	c.t.Helper()
	c.c.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	defer c.c.Close()
	_, err := c.r.ReadByte()
	if ne, ok := err.(net.Error); !ok || !ne.Timeout() {
		c.t.Errorf("the connection opened before: read %v, want it still open (the REST service restarted)", err)
	}
}
