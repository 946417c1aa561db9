package did

import (
	"errors"
	"fmt"
	"strings"

	"github.com/didlight/didlight/core/ela"
)

// Method is the only DID method this package knows.
const Method = "elastos"

const prefix = "did:" + Method + ":"

// DID is an Elastos decentralized identifier. The zero value is not a DID.
// DIDs compare with ==, case-sensitively as the SDKs compare them; use Key
// for the case-insensitive identity of customized DIDs.
type DID struct {
	id string
}

// Parse reads a DID in full form (did:elastos:<id>) or as the bare
// method-specific id. Surrounding whitespace is ignored, as by the SDKs.
func Parse(s string) (DID, error) {
	t := trim(s)
	if strings.HasPrefix(t, "did:") {
		return parseFull(s)
	}
	if err := checkID(t); err != nil {
		return DID{}, fmt.Errorf("did: %q: %w", s, err)
	}
	return DID{id: t}, nil
}

// parseFull reads a DID in full form only, as documents write them.
func parseFull(s string) (DID, error) {
	t := trim(s)
	rest, ok := strings.CutPrefix(t, "did:")
	if !ok {
		return DID{}, fmt.Errorf("did: %q does not start with \"did:\"", s)
	}
	method, id, ok := strings.Cut(rest, ":")
	if !ok {
		return DID{}, fmt.Errorf("did: %q: missing the method-specific id", s)
	}
	if method != Method {
		return DID{}, fmt.Errorf("did: %q: method %q, want %q", s, method, Method)
	}
	if err := checkID(id); err != nil {
		return DID{}, fmt.Errorf("did: %q: %w", s, err)
	}
	return DID{id: id}, nil
}

// trim removes leading and trailing characters up to and including space,
// as the SDKs' parsers do.
func trim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
}

// checkID checks a method-specific id: letters and digits, and after the
// first character also '.', '_' and '-'.
func checkID(id string) error {
	if id == "" {
		return errors.New("empty method-specific id")
	}
	for i := 0; i < len(id); i++ {
		if !isTokenChar(id[i], i == 0) {
			return fmt.Errorf("invalid character %q at position %d of id %q", id[i], i, id)
		}
	}
	return nil
}

func isTokenChar(c byte, first bool) bool {
	if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
		return true
	}
	return !first && (c == '.' || c == '_' || c == '-')
}

// String returns the full form, did:elastos:<id>.
func (d DID) String() string {
	if d.id == "" {
		return ""
	}
	return prefix + d.id
}

// ID returns the method-specific id.
func (d DID) ID() string { return d.id }

// IsZero reports whether d is the zero value.
func (d DID) IsZero() bool { return d.id == "" }

// IsCustomized reports whether d is a customized DID, that is, whether its
// id is anything but an identity address (base58check, prefix 0x67).
func (d DID) IsCustomized() bool {
	h, err := ela.ParseAddress(d.id)
	return err != nil || h.Prefix() != ela.PrefixIdentity
}

// Key returns the identity of d for lookups: the id as is for a standard DID
// (base58 is case-sensitive) and in lower case for a customized DID, which
// the chain treats case-insensitively.
func (d DID) Key() string {
	if d.IsCustomized() {
		return strings.ToLower(d.id)
	}
	return d.id
}

func (d DID) appendTo(dst []byte) []byte {
	return append(append(dst, prefix...), d.id...)
}
