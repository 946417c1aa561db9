package api

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The browser policy, request by request: reads and broadcasts pass
// whatever their headers; a control passes from tools, from the node's own
// pages and from allowed origins, and is refused from other pages, from
// pages under host names (DNS rebinding), and as a form.
func TestPolicy(t *testing.T) {
	p := &policy{origins: []string{"http://localhost:3000", "https://app.example"}, ports: []int{20334, 20336}}
	for _, tc := range []struct {
		name    string
		host    string   // where the request was sent
		headers []string // header pairs
		status  int      // 0: passes
	}{
		{"a tool", "127.0.0.1:20336", nil, 0},
		{"ela-cli's text/plain", "127.0.0.1:20336", []string{"Content-Type", "text/plain"}, 0},
		{"a form", "127.0.0.1:20336", []string{"Content-Type", "application/x-www-form-urlencoded"}, 415},
		{"a multipart form", "127.0.0.1:20336", []string{"Content-Type", "multipart/form-data; boundary=x"}, 415},
		{"a form type in capitals", "127.0.0.1:20336", []string{"Content-Type", "Application/X-WWW-Form-Urlencoded ;charset=x"}, 415},
		{"the node's app", "127.0.0.1:20336", []string{"Origin", "http://127.0.0.1:20334", "Sec-Fetch-Site", "same-site"}, 0},
		{"the node's app under localhost", "127.0.0.1:20336", []string{"Origin", "http://localhost:20334"}, 0},
		{"the node's app on IPv6", "[::1]:20336", []string{"Origin", "http://[::1]:20334"}, 0},
		{"the node on its LAN address", "192.168.1.10:20336", []string{"Origin", "http://192.168.1.10:20334"}, 0},
		{"another machine's page on the same port", "192.168.1.10:20336", []string{"Origin", "http://10.0.0.5:20334"}, 403},
		{"another local port", "127.0.0.1:20336", []string{"Origin", "http://127.0.0.1:8080"}, 403},
		{"an allowed origin", "127.0.0.1:20336", []string{"Origin", "http://localhost:3000", "Sec-Fetch-Site", "cross-site"}, 0},
		{"an allowed origin, written otherwise", "127.0.0.1:20336", []string{"Origin", "https://APP.example:443"}, 0},
		{"a foreign origin", "127.0.0.1:20336", []string{"Origin", "http://evil.example"}, 403},
		{"Origin null", "127.0.0.1:20336", []string{"Origin", "null"}, 403},
		{"a rebound name", "attacker.example:20336", []string{"Origin", "http://attacker.example:20336", "Sec-Fetch-Site", "same-origin"}, 403},
		{"a rebound name, same-origin GET", "attacker.example:20334", []string{"Sec-Fetch-Site", "same-origin"}, 403},
		{"a same-origin GET of the node's app", "127.0.0.1:20334", []string{"Sec-Fetch-Site", "same-origin"}, 0},
		{"an <img> of another site", "127.0.0.1:20334", []string{"Sec-Fetch-Site", "cross-site"}, 403},
		{"a same-site page", "127.0.0.1:20334", []string{"Sec-Fetch-Site", "same-site"}, 403},
		{"typed in the address bar", "127.0.0.1:20334", []string{"Sec-Fetch-Site", "none"}, 0},
		{"a cross-site form", "127.0.0.1:20336", []string{"Origin", "http://evil.example", "Content-Type", "multipart/form-data"}, 403},
	} {
		r := httptest.NewRequest("POST", "http://"+tc.host+"/", nil)
		for i := 0; i+1 < len(tc.headers); i += 2 {
			r.Header.Add(tc.headers[i], tc.headers[i+1])
		}
		for _, a := range []access{read, broadcast} {
			if no := p.check(r, a); no != nil {
				t.Errorf("%s, %s: refused (%d %s); reads and broadcasts are open", tc.name, a, no.status, no.reason)
			}
		}
		no := p.check(r, control)
		switch {
		case tc.status == 0 && no != nil:
			t.Errorf("%s: refused %d (%s), want it served", tc.name, no.status, no.reason)
		case tc.status != 0 && (no == nil || no.status != tc.status):
			t.Errorf("%s: %+v, want %d", tc.name, no, tc.status)
		}
	}
}

// Two Origin headers are two claims: both must be trusted.
func TestPolicyEveryOrigin(t *testing.T) {
	p := &policy{ports: []int{20336}}
	r := httptest.NewRequest("POST", "http://127.0.0.1:20336/", nil)
	r.Header.Add("Origin", "http://127.0.0.1:20336")
	r.Header.Add("Origin", "http://evil.example")
	if no := p.check(r, control); no == nil || no.status != http.StatusForbidden || !strings.Contains(no.reason, "evil.example") {
		t.Errorf("two origins, one foreign: %+v", no)
	}
}

func TestParseOrigin(t *testing.T) {
	for in, want := range map[string]string{
		"http://localhost:3000":     "http://localhost:3000",
		"HTTP://LocalHost:3000/":    "http://localhost:3000",
		"https://app.example:443":   "https://app.example",
		"http://app.example:80":     "http://app.example",
		"https://app.example:80":    "https://app.example:80",
		"http://[::1]:8080":         "http://[::1]:8080",
		"http://[::1]:80":           "http://[::1]",
		"localhost:3000":            "",
		"*":                         "",
		"null":                      "",
		"ftp://x.example":           "",
		"http://":                   "",
		"http://a.example/app":      "",
		"http://a.example?x=1":      "",
		"http://user@a.example":     "",
		"http://a.example#f":        "",
		strings.Repeat("h", 100000): "",
	} {
		got, err := ParseOrigin(in)
		if got != want || (want == "") != (err != nil) {
			t.Errorf("ParseOrigin(%.40q) = %q, %v; want %q", in, got, err, want)
		}
		if err != nil && len(err.Error()) > 300 {
			t.Errorf("ParseOrigin(%.40q): error of %d bytes", in, len(err.Error()))
		}
	}
}
