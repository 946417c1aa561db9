package w3c

import (
	"strings"

	"github.com/didlight/didlight/core/did"
)

// selects reports whether the request's service and serviceType select s,
// a service of subject's document. service is the id's fragment ("hive" or
// "#hive") or the whole id (DID URL); both conditions must hold when both
// are given.
func (r *Request) selects(s did.Service, subject did.DID) bool {
	if r.hasServiceType && s.Type != r.serviceType {
		return false
	}
	if !r.hasService {
		return true
	}
	want, err := did.ParseURL(r.service, subject)
	if err != nil || want.Path != "" || want.Query != "" {
		return false
	}
	return s.ID.Fragment == want.Fragment && s.ID.DID.Key() == want.DID.Key()
}

// serviceURLs returns the URLs the selected services give the request, in
// the document's order.
func (r *Request) serviceURLs(services []did.Service) ([]string, *Error) {
	urls := make([]string, len(services))
	for i, s := range services {
		u, err := r.serviceURL(s)
		if err != nil {
			return nil, err
		}
		urls[i] = u
	}
	return urls, nil
}

// serviceURL returns the URL a selected service's endpoint gives the
// request: the endpoint, with relativeRef's path appended to its path and
// relativeRef's query to its query, and the DID URL's fragment (DID
// Resolution §Dereferencing the Resource and §Dereferencing the Fragment:
// the draft's example appends the reference to the endpoint's path, which
// this follows; relativeRef holds no dot segments, so the result stays
// under the endpoint's path, as §Path Traversal via relativeRef asks).
// Bytes an endpoint may not hold in a URI are percent-encoded.
func (r *Request) serviceURL(s did.Service) (string, *Error) {
	ep := escapeURI(s.Endpoint)
	rest, frag, hasFrag := strings.Cut(ep, "#")
	path, query, hasQuery := strings.Cut(rest, "?")
	if r.hasRelativeRef {
		if !isAbsoluteURI(path) {
			return "", fail(NotFound, "the endpoint "+echo(s.Endpoint)+" of service "+s.ID.String()+" is not an absolute URL that relativeRef could be resolved against")
		}
		ref, refFrag, hasRefFrag := strings.Cut(r.relativeRef, "#")
		refPath, refQuery, hasRefQuery := strings.Cut(ref, "?")
		if refPath != "" {
			path = strings.TrimSuffix(path, "/") + "/" + strings.TrimPrefix(refPath, "/")
		}
		if hasRefQuery {
			switch {
			case query == "":
				query = refQuery
			case refQuery != "":
				query += "&" + refQuery
			}
			hasQuery = true
		}
		if hasRefFrag {
			frag, hasFrag = refFrag, true
		}
	}
	if r.hasFragment {
		if hasFrag {
			return "", fail(InvalidDIDURL, "the URL of service "+s.ID.String()+" has a fragment already; the DID URL's fragment cannot be added to it")
		}
		frag, hasFrag = r.fragment, true
	}
	out := path
	if hasQuery {
		out += "?" + query
	}
	if hasFrag {
		out += "#" + frag
	}
	return out, nil
}

// checkRelativeRef checks that ref is a relative reference (RFC 3986
// §4.2) that stays under the path it is appended to: URI characters only,
// no scheme, no authority ("//host") and no "." or ".." segment, even
// percent-encoded or with '\' for '/'. It returns what is wrong, or "".
func checkRelativeRef(ref string) string {
	rest, frag, _ := strings.Cut(ref, "#")
	if checkChars(rest, "/?") != "" || checkChars(frag, "/?") != "" {
		return "is not a URI reference (characters outside RFC 3986 must be percent-encoded)"
	}
	path, _, _ := strings.Cut(rest, "?")
	switch {
	case strings.HasPrefix(path, "//"):
		return "names another host: a relative reference starts with a path"
	case strings.Contains(path[:strings.IndexAny(path+"/", "/")], ":"):
		return "has a scheme: it must be a relative reference"
	}
	decoded, _ := percentDecode(path, false)
	for seg := range strings.FieldsFuncSeq(decoded, func(c rune) bool { return c == '/' || c == '\\' }) {
		if seg == "." || seg == ".." {
			return "holds a \".\" or \"..\" segment: it may not leave the service endpoint's path"
		}
	}
	return ""
}

// isAbsoluteURI reports whether s starts with a scheme and ':'.
func isAbsoluteURI(s string) bool {
	i := strings.IndexByte(s, ':')
	if i <= 0 || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for j := 1; j < i; j++ {
		if c := s[j]; !isAlnum(c) && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

// escapeURI percent-encodes the bytes of s that a URI may not hold as they
// are (spaces, controls, non-ASCII as UTF-8, and "<>\"{}|\\^`"), and a '%'
// that starts no escape, as RFC 3987 §3.1 maps an IRI to a URI.
func escapeURI(s string) string {
	const hex = "0123456789ABCDEF"
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		keep := isPchar(c) || strings.IndexByte("/?#[]", c) >= 0 ||
			c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2])
		if keep {
			if b != nil {
				b = append(b, c)
			}
			continue
		}
		if b == nil {
			b = append(make([]byte, 0, len(s)+16), s[:i]...)
		}
		b = append(b, '%', hex[c>>4], hex[c&15])
	}
	if b == nil {
		return s
	}
	return string(b)
}
