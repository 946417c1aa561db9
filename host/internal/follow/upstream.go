package follow

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// apiPath is the path of the REST API under a node's base address.
const apiPath = "/api/v1"

// ParseUpstream checks the address of an upstream node's REST API and
// returns its base URL, ending in /api/v1: http or https, a host, and no
// path but / or /api/v1 (with or without a final slash), no query, no
// fragment, no user.
func ParseUpstream(s string) (string, error) {
	hint := "want http://host:port/api/v1 (the upstream's REST API, port 20334 by default)"
	if !strings.Contains(s, "://") {
		return "", fmt.Errorf("follow: upstream %q has no scheme: %s", s, hint)
	}
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil {
		return "", fmt.Errorf("follow: upstream %q is not a URL: %v", s, err)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("follow: upstream %q: scheme %q: %s", s, u.Scheme, hint)
	case u.Host == "" || u.Hostname() == "":
		return "", fmt.Errorf("follow: upstream %q has no host: %s", s, hint)
	case u.User != nil:
		return "", fmt.Errorf("follow: upstream %q carries a user name or password; the REST API takes none", s)
	case u.RawQuery != "" || u.Fragment != "" || u.ForceQuery:
		return "", fmt.Errorf("follow: upstream %q has a query or fragment: %s", s, hint)
	}
	switch strings.TrimSuffix(u.Path, "/") {
	case "", apiPath:
	default:
		return "", fmt.Errorf("follow: upstream %q: path %q is not the REST API's base: %s", s, u.Path, hint)
	}
	return u.Scheme + "://" + u.Host + apiPath, nil
}

// hostPort returns the host:port of a base URL, with the scheme's default
// port when it names none.
func hostPort(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return ""
	}
	if u.Port() != "" {
		return u.Host
	}
	port := "80"
	if u.Scheme == "https" {
		port = "443"
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// rpcURL returns the JSON-RPC URL of the node whose REST base URL is base,
// from the port its node state reports.
func rpcURL(base string, port int) (string, error) {
	u, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	if port <= 0 || port > 65535 {
		return "", fmt.Errorf("follow: the upstream's node state reports JSON-RPC port %d", port)
	}
	return u.Scheme + "://" + net.JoinHostPort(u.Hostname(), fmt.Sprint(port)) + "/", nil
}
