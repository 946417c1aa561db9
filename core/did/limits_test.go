package did

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// Identifiers over their limits are refused before they are read, with an
// error that quotes only their start; at the limit they are read as usual.
func TestIdentifierLimits(t *testing.T) {
	id := func(n int) string { return "i" + strings.Repeat("x", n-1) }
	full := func(n int) string { return prefix + id(n-len(prefix)) }
	for _, tc := range []struct {
		name  string
		parse func(string) error
		ok    string // the longest input accepted
		long  []string
	}{
		{"Parse", func(s string) error { _, err := Parse(s); return err },
			full(MaxDIDLength), []string{full(MaxDIDLength + 1), id(MaxDIDLength + 1), full(512 << 10), " " + full(MaxDIDLength)}},
		// A bare id is measured in its full form: what Parse returns must
		// read back from its String.
		{"Parse bare", func(s string) error { _, err := Parse(s); return err },
			id(MaxDIDLength - len(prefix)), []string{id(MaxDIDLength - len(prefix) + 1)}},
		{"parseFull", func(s string) error { _, err := parseFull(s); return err },
			full(MaxDIDLength), []string{full(MaxDIDLength + 1)}},
		{"ParseURL", func(s string) error { _, err := ParseURL(s, DID{}); return err },
			full(MaxDIDLength) + "#" + id(MaxURLLength-MaxDIDLength-1), []string{full(MaxDIDLength) + "#" + id(MaxURLLength-MaxDIDLength), "#" + id(512<<10)}},
		// A reference is measured in its full form, resolved against the base:
		// what ParseURL returns must read back from its String.
		{"ParseURL relative", func(s string) error { _, err := ParseURL(s, DID{id: "base"}); return err },
			"#" + id(MaxURLLength-len(prefix+"base#")), []string{"#" + id(MaxURLLength-len(prefix+"base")), id(MaxURLLength - len(prefix+"base"))}},
		{"ParseCredentialID", func(s string) error { _, err := ParseCredentialID(s); return err },
			full(100) + "#" + id(MaxURLLength-101), []string{full(100) + "#" + id(MaxURLLength-100)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.parse(tc.ok); err != nil {
				t.Errorf("%s of %d bytes: %v", tc.name, len(tc.ok), err)
			}
			for _, s := range tc.long {
				err := tc.parse(s)
				if !errors.Is(err, ErrTooLong) {
					t.Errorf("%s of %d bytes: error %v, want ErrTooLong", tc.name, len(s), err)
				} else if len(err.Error()) > 200 {
					t.Errorf("%s of %d bytes: error of %d bytes, want it to quote only the start", tc.name, len(s), len(err.Error()))
				}
			}
		})
	}
}

// Errors about identifiers within the limits quote them bounded too: a
// 500-byte DID URL with a bad character at its end.
func TestIdentifierErrorsBounded(t *testing.T) {
	for _, s := range []string{
		prefix + strings.Repeat("a", 200) + "!",
		prefix + "x#" + strings.Repeat("a", 400) + "!",
		prefix + "x?" + strings.Repeat("a=b&", 100) + "&",
	} {
		_, err := ParseURL(s, DID{})
		if err == nil || len(err.Error()) > 400 {
			t.Errorf("ParseURL of %d bytes: error %q, want one of at most 400 bytes", len(s), err)
		}
	}
}

func TestParseCredentialID(t *testing.T) {
	u, err := ParseCredentialID(" did:elastos:foo#email ")
	if err != nil || u.String() != "did:elastos:foo#email" {
		t.Errorf("ParseCredentialID = %v, %v", u, err)
	}
	for _, s := range []string{"#email", "did:elastos:foo", "did:elastos:foo?x=1", "email", "did:web:x#a"} {
		if _, err := ParseCredentialID(s); err == nil {
			t.Errorf("ParseCredentialID(%q) accepted it; a credential id is a DID URL in full form with a fragment", s)
		}
	}
}

// The query of a DID URL is rewritten in one pass: a name repeated many
// times keeps its first place and its last value.
func TestCanonicalQueryRepeats(t *testing.T) {
	var q strings.Builder
	for i := range 100 {
		q.WriteString("a=" + strings.Repeat("v", i%3+1) + "&b" + string(rune('0'+i%10)) + "=1&")
	}
	got := canonicalQuery(q.String())
	want := "a=v&b0=1&b1=1&b2=1&b3=1&b4=1&b5=1&b6=1&b7=1&b8=1&b9=1"
	if got != want {
		t.Errorf("canonicalQuery = %q, want %q", got, want)
	}
}

// A document's errors quote its values briefly, whatever their length: a
// member name, a path, a number, a string that is not a date.
func TestDocumentErrorsBounded(t *testing.T) {
	long := strings.Repeat("k", 100000)
	for _, doc := range []string{
		`{"` + long + `" 1}`,
		`{"service":[{"` + long + `":{"x":-}}]}`,
		`{"id":"did:elastos:foo","expires":"` + long + `"}`,
		`{"id":"did:elastos:foo","multisig":"` + long + `","controller":["did:elastos:a","did:elastos:b"]}`,
		`{"a":1` + strings.Repeat("0", 100000) + `x}`,
	} {
		_, err := ParseDocument([]byte(doc))
		if err == nil || len(err.Error()) > 600 {
			t.Errorf("ParseDocument of %d bytes: error of %d bytes: %.300v", len(doc), len(fmt.Sprint(err)), err)
		}
	}
}
