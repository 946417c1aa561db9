package api

import (
	"net/http"
	"net/netip"
	"strings"
	"testing"
)

// FuzzIfNoneMatch feeds If-None-Match lists to etagListed: it never
// panics, and a list that names the tag, weak or strong, among others
// always matches it.
func FuzzIfNoneMatch(f *testing.F) {
	for _, s := range []string{`W/"abc"`, `"abc", W/"def"`, `*`, ``, `,,`, `W/`, `"a" ,W/"b"`} {
		f.Add(s)
	}
	const tag = `W/"0123456789abcdef"`
	f.Fuzz(func(t *testing.T, list string) {
		etagListed(list, tag)
		for _, with := range []string{list + "," + tag, tag + ", " + list, list + `, "0123456789abcdef"`} {
			if !etagListed(with, tag) {
				t.Errorf("%q does not match %s", with, tag)
			}
		}
	})
}

// FuzzForwardedFor feeds X-Forwarded-For headers from a trusted proxy to
// the rate limit: it never panics, and the client it counts is never a
// trusted proxy's address when the header names another.
func FuzzForwardedFor(f *testing.F) {
	for _, s := range []string{"203.0.113.1", "203.0.113.1, 10.0.0.2", "2001:db8::1", "::ffff:203.0.113.1", "junk, 10.0.0.2", ",", ""} {
		f.Add(s)
	}
	l := newLimiter(RateLimit{PerSecond: 1, Burst: 1, TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}})
	f.Fuzz(func(t *testing.T, header string) {
		r := &http.Request{RemoteAddr: "10.0.0.1:5000", Header: http.Header{"X-Forwarded-For": {header}}}
		a, ok := l.client(r)
		if !ok {
			return
		}
		if l.trusted(a) && strings.ContainsFunc(header, func(c rune) bool { return c != ' ' && c != ',' }) && !allTrusted(l, header) {
			t.Errorf("%q: counted the proxy %s", header, a)
		}
	})
}

// allTrusted reports whether some hop of header, read from the right, is
// not an address, or all are trusted proxies': then the proxy is counted.
func allTrusted(l *limiter, header string) bool {
	hops := strings.Split(header, ",")
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return true
		}
		if !l.trusted(a.Unmap()) {
			return false
		}
	}
	return true
}
