package api

import (
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/didlight/didlight/core/excerpt"
)

// access is what a route or a JSON-RPC method may do to the node. It
// decides who may call it from a browser (policy.check). The zero value is
// read, so that a route or method registered without saying more is open
// to every origin; one that changes the chain or controls the node must be
// registered as control, and the tests that walk the router hold every
// route and method to what its class promises.
type access uint8

const (
	// read answers from the chain without changing it: open to every
	// origin, with CORS, as public resolvers are read by other sites'
	// pages.
	read access = iota
	// broadcast publishes a transaction its sender signed, spending
	// nothing of the node's: open to every origin too. A notification of
	// one is still done (see answer).
	broadcast
	// control changes the chain or the node on the node's authority:
	// resets, mining, the chain clock, spending the dev account, restarts.
	// Refused when a browser marks the request as coming from another site,
	// and never taken as a form.
	control
)

func (a access) String() string {
	switch a {
	case broadcast:
		return "broadcast"
	case control:
		return "control"
	}
	return "read"
}

// policy is the browser policy of both listeners (docs/security.md). A
// browser tells a server where a request comes from: Origin, on every
// cross-origin request and every POST, and Sec-Fetch-Site, on every request
// of current browsers (an <img> GET carries it but no Origin). Tools (curl,
// the SDKs in Node, ela-cli) send neither and are served.
type policy struct {
	origins []string // origins allowed to call controls (--cors-origin), as ParseOrigin writes them
	ports   []int    // the node's own listeners' ports, whose pages are its own
}

// refusal is a request the policy (or the rate limit) refuses: the HTTP
// status to answer and why, for the error body.
type refusal struct {
	status     int
	reason     string
	retryAfter int // seconds, for a client over the rate limit (ratelimit.go); 0 for none
}

// check reports whether r may do what a allows: nil, or why not.
func (p *policy) check(r *http.Request, a access) *refusal {
	if a != control {
		return nil
	}
	if page, ok := p.foreign(r); ok {
		return &refusal{status: http.StatusForbidden, reason: "the browser marks this request as coming from another site (" + page + "); controls are served to the node's own pages, " +
			"to origins allowed with --cors-origin, and to clients that are not browsers"}
	}
	if isForm(r.Header.Get("Content-Type")) {
		return &refusal{status: http.StatusUnsupportedMediaType, reason: "controls do not take form bodies (which any web page can post): send the body as application/json or text/plain"}
	}
	return nil
}

// foreign reports whether a browser sent r from a page the policy does not
// trust with controls, and names that page.
func (p *policy) foreign(r *http.Request) (string, bool) {
	if origins := r.Header.Values("Origin"); len(origins) > 0 {
		for _, o := range origins {
			if !p.trusted(o, r.Host) {
				return "Origin " + excerpt.Quote(o), true
			}
		}
		return "", false
	}
	switch site := r.Header.Get("Sec-Fetch-Site"); site {
	case "cross-site", "same-site":
		return "Sec-Fetch-Site " + site, true
	case "same-origin": // a GET from a page on the request's own origin
		if !p.own(hostPort(r.Host), r.Host) {
			return "a page on " + excerpt.Quote(r.Host), true
		}
	}
	return "", false
}

// trusted reports whether a page on origin may call controls of the node
// the request was sent to (its Host): origin is one --cors-origin allows,
// or one of the node's own.
func (p *policy) trusted(origin, host string) bool {
	o, err := ParseOrigin(origin)
	if err != nil {
		return false // "null", and anything else that names no origin
	}
	if slices.Contains(p.origins, o) {
		return true
	}
	u, _ := url.Parse(o)
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return p.own(net.JoinHostPort(u.Hostname(), port), host)
}

// own reports whether a page served from hostport is one of the node's own
// for a request sent to host: served by one of its listeners, on the host
// the request went to (any loopback name for a loopback one). A page must
// be named by an IP address or localhost: any other name is its owner's to
// point anywhere, even at this node (DNS rebinding), so that pages under
// such names need --cors-origin.
func (p *policy) own(hostport, host string) bool {
	h, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return false
	}
	n, err := strconv.Atoi(port)
	if err != nil || !slices.Contains(p.ports, n) || net.ParseIP(h) == nil && !isLocalhost(h) {
		return false
	}
	to := hostname(host)
	return strings.EqualFold(h, to) || IsLoopback(h) && IsLoopback(to)
}

// isLocalhost reports whether name is localhost, which browsers resolve to
// the loopback interface whatever DNS says.
func isLocalhost(name string) bool {
	name = strings.ToLower(strings.TrimSuffix(name, "."))
	return name == "localhost" || strings.HasSuffix(name, ".localhost")
}

// IsLoopback reports whether the host name (no port) names this machine:
// localhost or a loopback address.
func IsLoopback(name string) bool {
	ip := net.ParseIP(name)
	return isLocalhost(name) || ip != nil && ip.IsLoopback()
}

// hostname returns the host of a Host header without its port.
func hostname(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		return h
	}
	return strings.Trim(host, "[]")
}

// hostPort returns a Host header with its port, 80 when it has none.
func hostPort(host string) string {
	if _, _, err := net.SplitHostPort(host); err == nil {
		return host
	}
	return net.JoinHostPort(strings.Trim(host, "[]"), "80")
}

// isForm reports whether a Content-Type is one an HTML form posts as, the
// bodies a page may send anywhere without asking the server first (text/
// plain is the third; a control must take it, as ela-cli sends it).
func isForm(contentType string) bool {
	t, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		t = strings.ToLower(strings.TrimSpace(strings.Split(contentType, ";")[0]))
	}
	return t == "application/x-www-form-urlencoded" || t == "multipart/form-data"
}

// ParseOrigin reads a web origin as --cors-origin takes it and browsers
// send it: http or https, a host and optionally a port, nothing else
// ("http://localhost:3000"). It returns the origin as browsers serialize it:
// lower case, without the scheme's default port.
func ParseOrigin(s string) (string, error) {
	u, err := url.Parse(s)
	switch {
	case err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || u.Hostname() == "":
		return "", fmt.Errorf("origin %s: want http:// or https:// and a host, such as http://localhost:3000", excerpt.Quote(s))
	case u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "":
		return "", fmt.Errorf("origin %s: an origin is a scheme, a host and a port, without a path", excerpt.Quote(s))
	}
	host := strings.ToLower(u.Host)
	if port := u.Port(); port == "80" && u.Scheme == "http" || port == "443" && u.Scheme == "https" {
		host = strings.ToLower(u.Hostname())
		if strings.Contains(host, ":") {
			host = "[" + host + "]"
		}
	}
	return u.Scheme + "://" + host, nil
}
