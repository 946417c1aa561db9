package did

import (
	"errors"
	"fmt"
	"strings"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/excerpt"
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

// Limits on the length of identifiers as given (surrounding white space
// included), checked before anything else is done with them. They are the
// protocol's sizes with room to spare: the Elastos DID Native SDK holds a
// method-specific id in 48 bytes, a DID's text in 128 and a DID URL's in
// 256 (Elastos.DID.Native.SDK src/did.h and include/ela_did.h,
// ELA_MAX_DID_LEN, ELA_MAX_DIDURL_LEN), and a standard DID's id is 34.
const (
	MaxDIDLength = 256 // a DID in full form (a bare id is measured as such)
	MaxURLLength = 512 // a DID URL, such as a key or credential id
)

// ErrTooLong is wrapped by the error for an identifier over its limit.
var ErrTooLong = errors.New("too long")

// tooLong checks s, a what, against limit.
func tooLong(what, s string, limit int) error {
	if len(s) <= limit {
		return nil
	}
	return fmt.Errorf("did: %s %s is %d bytes long: %w (at most %d)", what, excerpt.Quote(s), len(s), ErrTooLong, limit)
}

// Parse reads a DID in full form (did:elastos:<id>) or as the bare
// method-specific id. Surrounding whitespace is ignored, as by the SDKs.
// A DID over [MaxDIDLength] bytes is refused before it is read, and so is a
// bare id whose full form would be.
func Parse(s string) (DID, error) { return parseDID(s, true) }

// parseFull reads a DID in full form only, as documents write them.
func parseFull(s string) (DID, error) { return parseDID(s, false) }

// parseDID reads a DID, refusing it over [MaxDIDLength] first; bare says
// whether the bare method-specific id is accepted. Its errors quote s once.
func parseDID(s string, bare bool) (DID, error) {
	if err := tooLong("DID", s, MaxDIDLength); err != nil {
		return DID{}, err
	}
	d, err := readDID(trim(s), bare)
	if err != nil {
		return DID{}, fmt.Errorf("did: %s: %w", excerpt.Quote(s), err)
	}
	// A bare id is measured in its full form: what Parse returns must read
	// back from its String.
	if n := len(prefix) + len(d.id); n > MaxDIDLength {
		return DID{}, fmt.Errorf("did: DID %s is %d bytes in full form: %w (at most %d)", excerpt.Quote(s), n, ErrTooLong, MaxDIDLength)
	}
	return d, nil
}

// readDID reads a DID without surrounding white space. Its errors say what
// is wrong without quoting t.
func readDID(t string, bare bool) (DID, error) {
	rest, full := strings.CutPrefix(t, "did:")
	if !full && !bare {
		return DID{}, errors.New(`does not start with "did:"`)
	}
	id := t
	if full {
		var method string
		var ok bool
		if method, id, ok = strings.Cut(rest, ":"); !ok {
			return DID{}, errors.New("missing the method-specific id")
		}
		if method != Method {
			return DID{}, fmt.Errorf("method %s, want %q", excerpt.Quote(method), Method)
		}
	}
	if err := checkID(id); err != nil {
		return DID{}, err
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
			return fmt.Errorf("invalid character %q at position %d of the id", id[i], i)
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
