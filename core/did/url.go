package did

import (
	"fmt"
	"strings"

	"github.com/didlight/didlight/core/excerpt"
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
// starts with a letter, digit or escape, as the SDKs require. A DID URL
// over [MaxURLLength] bytes is refused before it is read, and so is a
// reference whose full form, resolved against base, would be: a URL this
// returns always reads back from its String.
func ParseURL(s string, base DID) (URL, error) {
	if err := tooLong("DID URL", s, MaxURLLength); err != nil {
		return URL{}, err
	}
	t := trim(s)
	if t == "" {
		return URL{}, fmt.Errorf("did: empty DID URL")
	}
	u := URL{DID: base}
	pos := 0
	if strings.HasPrefix(t, "did:") {
		pos = indexAnyFrom(t, 0, "/?#")
		d, err := readDID(t[:pos], false)
		if err != nil {
			return URL{}, fmt.Errorf("did: DID URL %s: %w", excerpt.Quote(s), err)
		}
		u.DID = d
	}
	if pos < len(t) && t[pos] == '/' {
		end := indexAnyFrom(t, pos+1, "?#")
		if err := checkTokens(t[pos+1:end], "/"); err != nil {
			return URL{}, fmt.Errorf("did: DID URL %s: path: %w", excerpt.Quote(s), err)
		}
		u.Path, pos = t[pos:end], end
	}
	if pos < len(t) && t[pos] == '?' {
		end := indexAnyFrom(t, pos+1, "#")
		q := t[pos+1 : end]
		if err := checkTokens(q, "&="); err != nil {
			return URL{}, fmt.Errorf("did: DID URL %s: query: %w", excerpt.Quote(s), err)
		}
		u.Query, pos = canonicalQuery(q), end
	}
	if pos < len(t) && t[pos] == '#' || pos == 0 {
		if t[pos] == '#' {
			pos++
		}
		if err := checkTokens(t[pos:], ""); err != nil {
			return URL{}, fmt.Errorf("did: DID URL %s: fragment: %w", excerpt.Quote(s), err)
		}
		u.Fragment, pos = t[pos:], len(t)
	}
	if pos < len(t) {
		return URL{}, fmt.Errorf("did: DID URL %s: unexpected %s", excerpt.Quote(s), excerpt.Quote(t[pos:]))
	}
	if n := u.length(); n > MaxURLLength {
		return URL{}, fmt.Errorf("did: DID URL %s is %d bytes in full form: %w (at most %d)", excerpt.Quote(s), n, ErrTooLong, MaxURLLength)
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
// allowed at the end, and as a query's empty value ("a=&b"), which a
// query's canonical form may put anywhere.
func checkTokens(s, seps string) error {
	start := true
	var prev byte // the separator before the current token
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isSep(c, seps):
			if start && !(prev == '=' && c == '&') {
				return fmt.Errorf("empty token before %q at position %d of %s", c, i, excerpt.Quote(s))
			}
			start, prev = true, c
			continue
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return fmt.Errorf("invalid %%-escape at position %d of %s", i, excerpt.Quote(s))
			}
			i += 2
		case !isTokenChar(c, start):
			return fmt.Errorf("invalid character %q at position %d of %s", c, i, excerpt.Quote(s))
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
	at := map[string]int{} // index in pairs of each name
	for p := range strings.SplitSeq(q, "&") {
		if p == "" {
			continue
		}
		name, value, ok := strings.Cut(p, "=")
		if !ok || strings.Contains(value, "=") {
			value = "\x00"
		}
		if i, seen := at[name]; seen {
			pairs[i].value = value
			continue
		}
		at[name] = len(pairs)
		pairs = append(pairs, pair{name, value})
	}
	var b strings.Builder
	b.Grow(len(q))
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
func (u URL) String() string { return u.text(DID{}) }

// Relative returns u as compact documents write it: without its DID when
// that DID is base.
func (u URL) Relative(base DID) string { return u.text(base) }

// text returns u relative to base, written on the stack when it fits: one
// allocation, the string's.
func (u URL) text(base DID) string {
	var buf [128]byte
	return string(u.appendTo(buf[:0], base))
}

// IsZero reports whether u is the zero value.
func (u URL) IsZero() bool { return u == URL{} }

// Key returns the identity of u for lookups, such as a credential's on the
// chain: its full form with the DID part as DID.Key writes it (a customized
// DID in lower case), the rest as it is.
func (u URL) Key() string {
	u.DID = DID{id: u.DID.Key()}
	return u.String()
}

// length is the length of u's full form, as String writes it.
func (u URL) length() int {
	n := len(u.Path)
	if !u.DID.IsZero() {
		n += len(prefix) + len(u.DID.id)
	}
	if u.Query != "" {
		n += 1 + len(u.Query)
	}
	if u.Fragment != "" {
		n += 1 + len(u.Fragment)
	}
	return n
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

// ParseCredentialID reads the id of a credential: a DID URL in full form
// with a fragment, such as did:elastos:foo#email.
func ParseCredentialID(s string) (URL, error) {
	u, err := ParseURL(s, DID{})
	if err == nil && (u.DID.IsZero() || u.Fragment == "") {
		err = fmt.Errorf("did: %s is not a credential id (a DID URL in full form with a fragment, such as did:elastos:…#name)", excerpt.Quote(s))
	}
	return u, err
}

// parseRef reads the id of a key, service, credential or proof creator in a
// document: a DID URL that must have a fragment.
func parseRef(s string, base DID) (URL, error) {
	u, err := ParseURL(s, base)
	if err == nil && u.Fragment == "" {
		err = fmt.Errorf("did: %s has no fragment", excerpt.Quote(s))
	}
	return u, err
}
