package did

import (
	"fmt"
	"strings"
)

// URL is a DID URL: a DID and optionally a path, a query and a fragment,
// such as did:elastos:foo#primary. Its parts are stored without their
// delimiters except Path, which keeps its leading '/'. URLs compare with ==.
type URL struct {
	DID      DID
	Path     string
	Query    string
	Fragment string
}

// ParseURL reads a DID URL. A reference without a DID ("#key2", or "key2" as
// v1 documents write it) is resolved against base; with a zero base it
// stays without a DID. Each path segment, query name and value and the
// fragment is a token of letters, digits, '.', '_', '-' and %XX escapes that
// starts with a letter, digit or escape, as the SDKs require.
func ParseURL(s string, base DID) (URL, error) {
	t := trim(s)
	if t == "" {
		return URL{}, fmt.Errorf("did: empty DID URL")
	}
	u := URL{DID: base}
	pos := 0
	if strings.HasPrefix(t, "did:") {
		pos = indexAnyFrom(t, 0, "/?#")
		d, err := parseFull(t[:pos])
		if err != nil {
			return URL{}, fmt.Errorf("did: DID URL %q: %w", s, err)
		}
		u.DID = d
	}
	if pos < len(t) && t[pos] == '/' {
		end := indexAnyFrom(t, pos+1, "?#")
		if err := checkTokens(t[pos+1:end], "/"); err != nil {
			return URL{}, fmt.Errorf("did: DID URL %q: path: %w", s, err)
		}
		u.Path, pos = t[pos:end], end
	}
	if pos < len(t) && t[pos] == '?' {
		end := indexAnyFrom(t, pos+1, "#")
		q := t[pos+1 : end]
		if err := checkTokens(q, "&="); err != nil {
			return URL{}, fmt.Errorf("did: DID URL %q: query: %w", s, err)
		}
		u.Query, pos = canonicalQuery(q), end
	}
	if pos < len(t) && t[pos] == '#' || pos == 0 {
		if t[pos] == '#' {
			pos++
		}
		if err := checkTokens(t[pos:], ""); err != nil {
			return URL{}, fmt.Errorf("did: DID URL %q: fragment: %w", s, err)
		}
		u.Fragment, pos = t[pos:], len(t)
	}
	if pos < len(t) {
		return URL{}, fmt.Errorf("did: DID URL %q: unexpected %q", s, t[pos:])
	}
	return u, nil
}

// indexAnyFrom returns the index of the first of chars in s[from:], or len(s).
func indexAnyFrom(s string, from int, chars string) int {
	for i := from; i < len(s); i++ {
		for j := 0; j < len(chars); j++ {
			if s[i] == chars[j] {
				return i
			}
		}
	}
	return len(s)
}

// checkTokens checks tokens separated by any of seps. An empty token is
// allowed only at the end.
func checkTokens(s, seps string) error {
	start := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isSep(c, seps):
			if start {
				return fmt.Errorf("empty token before %q at position %d of %q", c, i, s)
			}
			start = true
			continue
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return fmt.Errorf("invalid %%-escape at position %d of %q", i, s)
			}
			i += 2
		case !isTokenChar(c, start):
			return fmt.Errorf("invalid character %q at position %d of %q", c, i, s)
		}
		start = false
	}
	return nil
}

func isSep(c byte, seps string) bool {
	for i := 0; i < len(seps); i++ {
		if c == seps[i] {
			return true
		}
	}
	return false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// canonicalQuery rewrites a query as the SDKs keep it, in a map: a repeated
// name keeps its first place and its last value, and a pair with more than
// one '=' keeps only its name.
func canonicalQuery(q string) string {
	if !strings.Contains(q, "&") {
		if strings.Count(q, "=") > 1 {
			q, _, _ = strings.Cut(q, "=")
		}
		return q
	}
	type pair struct{ name, value string }
	var pairs []pair
	for p := range strings.SplitSeq(q, "&") {
		if p == "" {
			continue
		}
		parts := strings.Split(p, "=")
		v := pair{name: parts[0], value: "\x00"}
		if len(parts) == 2 {
			v.value = parts[1]
		}
		replaced := false
		for i := range pairs {
			if pairs[i].name == v.name {
				pairs[i].value, replaced = v.value, true
			}
		}
		if !replaced {
			pairs = append(pairs, v)
		}
	}
	var b strings.Builder
	for i, p := range pairs {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(p.name)
		if p.value != "\x00" {
			b.WriteString("=" + p.value)
		}
	}
	return b.String()
}

// String returns the full form of u.
func (u URL) String() string { return string(u.appendTo(nil, DID{})) }

// Relative returns u as compact documents write it: without its DID when
// that DID is base.
func (u URL) Relative(base DID) string { return string(u.appendTo(nil, base)) }

// IsZero reports whether u is the zero value.
func (u URL) IsZero() bool { return u == URL{} }

// Key returns the identity of u for lookups, such as a credential's on the
// chain: its full form with the DID part as DID.Key writes it (a customized
// DID in lower case), the rest as it is.
func (u URL) Key() string {
	u.DID = DID{id: u.DID.Key()}
	return u.String()
}

func (u URL) appendTo(dst []byte, base DID) []byte {
	if !u.DID.IsZero() && u.DID != base {
		dst = u.DID.appendTo(dst)
	}
	dst = append(dst, u.Path...)
	if u.Query != "" {
		dst = append(append(dst, '?'), u.Query...)
	}
	if u.Fragment != "" {
		dst = append(append(dst, '#'), u.Fragment...)
	}
	return dst
}

// parseRef reads the id of a key, service, credential or proof creator in a
// document: a DID URL that must have a fragment.
func parseRef(s string, base DID) (URL, error) {
	u, err := ParseURL(s, base)
	if err == nil && u.Fragment == "" {
		err = fmt.Errorf("did: %q has no fragment", s)
	}
	return u, err
}
