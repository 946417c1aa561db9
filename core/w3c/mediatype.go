package w3c

import (
	"strings"
)

// The media types answers come in. The result forms are the DID Resolution
// draft's (§DID Resolution Result, §DID URL Dereferencing Result), each
// also under its older name, application/ld+json with a profile, which the
// Universal Resolver still accepts (ResolveResult.LEGACY_MEDIA_TYPE). The
// document forms are DID Core 1.0's two representations (§6.2, §6.3) and
// the draft's application/did.
const (
	MediaResolution        = "application/did-resolution"
	MediaResolutionLD      = `application/ld+json;profile="https://w3id.org/did-resolution"`
	MediaDereferencing     = "application/did-url-dereferencing"
	MediaDereferencingLD   = `application/ld+json;profile="https://w3id.org/did-url-dereferencing"`
	MediaDIDLD             = "application/did+ld+json"
	MediaDIDJSON           = "application/did+json"
	MediaDID               = "application/did"
	MediaURIList           = "text/uri-list"
	resolutionProfile      = "https://w3id.org/did-resolution"
	dereferencingProfile   = "https://w3id.org/did-url-dereferencing"
	maxAcceptRanges        = 64
	qScale                 = 1000
	specificityAny         = 0 // */*
	specificityType        = 1 // type/*
	specificitySubtype     = 2 // type/subtype
	specificityWithProfile = 3 // type/subtype;profile=…
)

// form is what an answer holds and how it is written.
type form uint8

const (
	formNone          form = iota // not negotiated (a request refused before)
	formResolution                // the resolution result
	formDereferencing             // the dereferencing result
	formDIDLD                     // the content alone, as JSON-LD (with @context)
	formDIDJSON                   // the content alone, as plain JSON (no @context)
	formURIList                   // the selected service endpoints: a 303 to the first
)

// mediaType is a media type an answer can be written in.
type mediaType struct {
	name              string // as Content-Type writes it
	typ, sub, profile string
	form              form
}

// mediaTypes lists every media type answered, in the order that breaks
// ties between equally acceptable types of one form.
var mediaTypes = [...]mediaType{
	{MediaResolution, "application", "did-resolution", "", formResolution},
	{MediaResolutionLD, "application", "ld+json", resolutionProfile, formResolution},
	{MediaDereferencing, "application", "did-url-dereferencing", "", formDereferencing},
	{MediaDereferencingLD, "application", "ld+json", dereferencingProfile, formDereferencing},
	{MediaDIDLD, "application", "did+ld+json", "", formDIDLD},
	{MediaDID, "application", "did", "", formDIDLD},
	{MediaDIDJSON, "application", "did+json", "", formDIDJSON},
	{MediaURIList, "text", "uri-list", "", formURIList},
}

// candidatesOf returns the media types of the forms allowed, in order.
func candidatesOf(allowed []form) []mediaType {
	var out []mediaType
	for _, f := range allowed {
		for _, mt := range mediaTypes {
			if mt.form == f {
				out = append(out, mt)
			}
		}
	}
	return out
}

// acceptRange is one media range of an Accept header (RFC 9110 §12.5.1).
type acceptRange struct {
	typ, sub   string // lower case; "*" for a wildcard
	profile    string
	hasProfile bool
	q          int // quality in thousandths
	pos        int // its place in the header
}

// negotiate picks the media type an answer is written in: among the
// candidates (the first one being the default, for an empty Accept
// header), the one the header gives the highest quality, then the one
// named most specifically, then the one named first; the candidates'
// order breaks what ties remain, so that */* gives the default.
func negotiate(accept string, candidates []mediaType) (mediaType, *Error) {
	if strings.TrimSpace(accept) == "" {
		return candidates[0], nil
	}
	ranges := parseAccept(accept)
	best, bestRank := -1, preference{}
	for i, mt := range candidates {
		p, ok := rank(ranges, mt)
		if ok && p.q > 0 && (best < 0 || p.before(bestRank)) {
			best, bestRank = i, p
		}
	}
	if best < 0 {
		names := make([]string, len(candidates))
		for i, mt := range candidates {
			names[i] = mt.name
		}
		return mediaType{}, fail(RepresentationNotSupported, "Accept "+echo(accept)+" allows none of the media types this answer comes in: "+strings.Join(names, ", "))
	}
	return candidates[best], nil
}

// preference is how the Accept header ranks a media type: by the range
// that applies to it.
type preference struct{ q, specificity, pos int }

// before reports whether p ranks before o: higher quality, then named
// more specifically, then earlier in the header.
func (p preference) before(o preference) bool {
	switch {
	case p.q != o.q:
		return p.q > o.q
	case p.specificity != o.specificity:
		return p.specificity > o.specificity
	}
	return p.pos < o.pos
}

// rank returns how the header ranks mt: by the most specific range that
// matches it (the first of those); false when none does.
func rank(ranges []acceptRange, mt mediaType) (preference, bool) {
	found, best := -1, -1
	for i, r := range ranges {
		spec := -1
		switch {
		case r.typ == "*":
			spec = specificityAny
		case r.typ != mt.typ:
		case r.sub == "*":
			spec = specificityType
		case r.sub != mt.sub:
		case !r.hasProfile:
			spec = specificitySubtype
		case r.profile == mt.profile:
			spec = specificityWithProfile
		}
		if spec > best {
			found, best = i, spec
		}
	}
	if found < 0 {
		return preference{}, false
	}
	return preference{q: ranges[found].q, specificity: best, pos: ranges[found].pos}, true
}

// parseAccept reads the media ranges of an Accept header, leaving out
// those it cannot read (no type/subtype, a type wildcard with a subtype,
// a malformed quality) and keeping at most maxAcceptRanges.
func parseAccept(accept string) []acceptRange {
	var out []acceptRange
	for pos, elem := range splitQuoted(accept, ',') {
		if len(out) == maxAcceptRanges {
			break
		}
		parts := splitQuoted(elem, ';')
		typ, sub, ok := strings.Cut(strings.ToLower(strings.TrimSpace(parts[0])), "/")
		if !ok || !isToken(typ) || !isToken(sub) || typ == "*" && sub != "*" {
			continue
		}
		r := acceptRange{typ: typ, sub: sub, q: qScale, pos: pos}
		for _, p := range parts[1:] {
			name, value, _ := strings.Cut(strings.TrimSpace(p), "=")
			name, value = strings.ToLower(strings.TrimSpace(name)), unquote(strings.TrimSpace(value))
			switch name {
			case "q":
				if r.q, ok = parseQuality(value); !ok {
					r.typ = ""
				}
			case "profile":
				r.profile, r.hasProfile = value, true
			}
		}
		if r.typ != "" {
			out = append(out, r)
		}
	}
	return out
}

// splitQuoted splits s at each sep outside a quoted string.
func splitQuoted(s string, sep byte) []string {
	var out []string
	start, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && quoted:
			i++
		case c == '"':
			quoted = !quoted
		case c == sep && !quoted:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// unquote returns the content of a quoted string, escapes undone; anything
// else as it is.
func unquote(v string) string {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return v
	}
	var b strings.Builder
	for i := 1; i < len(v)-1; i++ {
		if v[i] == '\\' && i+1 < len(v)-1 {
			i++
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

// parseQuality reads a qvalue, "0" to "1" with up to three decimals, in
// thousandths.
func parseQuality(v string) (int, bool) {
	if v == "" || v[0] != '0' && v[0] != '1' {
		return 0, false
	}
	q := int(v[0]-'0') * qScale
	if len(v) == 1 {
		return q, true
	}
	if v[1] != '.' || len(v) > 5 {
		return 0, false
	}
	scale := qScale / 10
	for i := 2; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return 0, false
		}
		q += int(v[i]-'0') * scale
		scale /= 10
	}
	return q, q <= qScale
}

// isToken reports whether s is a non-empty HTTP token (RFC 9110 §5.6.2).
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}
