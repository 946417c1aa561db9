package w3c

import (
	"strconv"
	"strings"
)

// maxInput bounds a DID URL and the options given apart from it, in
// bytes: far more than any did:elastos DID URL needs, and checked before
// anything else is read.
const maxInput = 4096

// didURL is a DID URL as DID Core 1.0 writes it (§3.1, §3.2):
// did:method:id, then a path, a query and a fragment, each kept as written
// (percent-encoded).
type didURL struct {
	method, id  string
	path        string // "" or starting with '/'
	query       string
	hasQuery    bool
	fragment    string
	hasFragment bool
}

// isURL reports whether u is more than a DID.
func (u *didURL) isURL() bool { return u.path != "" || u.hasQuery || u.hasFragment }

// parseDIDURL reads s by DID Core's ABNF: did = "did:" method-name ":"
// method-specific-id, with method-char = %x61-7A / DIGIT and idchar = ALPHA
// / DIGIT / "." / "-" / "_" / pct-encoded; then path-abempty, "?" query and
// "#" fragment as RFC 3986 defines them. Errors are INVALID_DID, or
// INVALID_DID_URL when s is more than a DID.
func parseDIDURL(s string) (didURL, *Error) {
	invalid := InvalidDID
	if strings.ContainsAny(s, "/?#") {
		invalid = InvalidDIDURL
	}
	if len(s) > maxInput {
		return didURL{}, fail(invalid, "the identifier is "+strconv.Itoa(len(s))+" bytes long, more than "+strconv.Itoa(maxInput))
	}
	rest, ok := strings.CutPrefix(s, "did:")
	if !ok {
		return didURL{}, fail(invalid, echo(s)+" does not start with \"did:\"")
	}
	n := 0
	for n < len(rest) && (rest[n] >= 'a' && rest[n] <= 'z' || rest[n] >= '0' && rest[n] <= '9') {
		n++
	}
	if n == 0 || n == len(rest) || rest[n] != ':' {
		return didURL{}, fail(invalid, echo(s)+": the method name (lower-case letters and digits) must follow \"did:\" and end with ':'")
	}
	u := didURL{method: rest[:n]}
	rest = rest[n+1:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	u.id, rest = rest[:end], rest[end:]
	if err := checkID(u.id); err != "" {
		return didURL{}, fail(invalid, echo(s)+": the method-specific id "+err)
	}
	if strings.HasPrefix(rest, "/") {
		end = strings.IndexAny(rest, "?#")
		if end < 0 {
			end = len(rest)
		}
		u.path, rest = rest[:end], rest[end:]
		if err := checkChars(u.path, "/"); err != "" {
			return didURL{}, fail(invalid, echo(s)+": the path "+err)
		}
	}
	if q, ok := strings.CutPrefix(rest, "?"); ok {
		end = strings.IndexByte(q, '#')
		if end < 0 {
			end = len(q)
		}
		u.query, u.hasQuery, rest = q[:end], true, q[end:]
		if err := checkChars(u.query, "/?"); err != "" {
			return didURL{}, fail(invalid, echo(s)+": the query "+err)
		}
	}
	if f, ok := strings.CutPrefix(rest, "#"); ok {
		u.fragment, u.hasFragment = f, true
		if err := checkChars(f, "/?"); err != "" {
			return didURL{}, fail(invalid, echo(s)+": the fragment "+err)
		}
	}
	return u, nil
}

// checkID checks a method-specific id: idchars and colons, not empty and
// not ending with a colon. It returns what is wrong, or "".
func checkID(id string) string {
	if id == "" || id[len(id)-1] == ':' {
		return "is empty or ends with ':'"
	}
	for i := 0; i < len(id); i++ {
		switch c := id[i]; {
		case isAlnum(c) || c == '.' || c == '-' || c == '_' || c == ':':
		case c == '%' && i+2 < len(id) && isHex(id[i+1]) && isHex(id[i+2]):
			i += 2
		default:
			return "has " + strconv.QuoteRune(rune(c)) + " at byte " + strconv.Itoa(i)
		}
	}
	return ""
}

// checkChars checks that s holds only pchars (RFC 3986 §3.3: unreserved,
// pct-encoded, sub-delims, ':' and '@') and the bytes of extra. It returns
// what is wrong, or "".
func checkChars(s, extra string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isPchar(c) || strings.IndexByte(extra, c) >= 0:
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			i += 2
		default:
			return "has " + strconv.QuoteRune(rune(c)) + " at byte " + strconv.Itoa(i)
		}
	}
	return ""
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// isPchar reports whether c may stand for itself in a path segment:
// unreserved, sub-delims, ':' or '@'.
func isPchar(c byte) bool {
	return isAlnum(c) || strings.IndexByte("-._~!$&'()*+,;=:@", c) >= 0
}

// unhex is the value of a hex digit.
func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// percentDecode undoes %XX escapes, and with form also reads '+' as a
// space (the HTML form encoding of HTTP query strings). It reports false
// for a malformed escape.
func percentDecode(s string, form bool) (string, bool) {
	if !strings.ContainsAny(s, "%+") {
		return s, true
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return "", false
			}
			b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
		case c == '+' && form:
			b = append(b, ' ')
		default:
			b = append(b, c)
		}
	}
	return string(b), true
}

// param is a name=value pair of a query, decoded.
type param struct{ name, value string }

// splitQuery reads the name=value pairs of a query (a pair without '='
// has an empty value; empty pairs are skipped), decoding each part as
// percentDecode does. It reports the first part that does not decode.
func splitQuery(q string, form bool) ([]param, string, bool) {
	var out []param
	for pair := range strings.SplitSeq(q, "&") {
		if pair == "" {
			continue
		}
		rawName, rawValue, _ := strings.Cut(pair, "=")
		name, ok1 := percentDecode(rawName, form)
		value, ok2 := percentDecode(rawValue, form)
		if !ok1 || !ok2 {
			return nil, pair, false
		}
		out = append(out, param{name, value})
	}
	return out, "", true
}
