package did

import (
	"fmt"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/keys"
)

func TestParseDID(t *testing.T) {
	for i, tc := range []struct{ in, id, err string }{
		{in: "did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y", id: "iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y"},
		{in: "iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y", id: "iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y"},
		{in: "  did:elastos:foo.bar_baz-1\n", id: "foo.bar_baz-1"},
		{in: "foobar", id: "foobar"},
		{in: "", err: "empty method-specific id"},
		{in: "did:", err: "missing the method-specific id"},
		{in: "did:elastos:", err: "empty method-specific id"},
		{in: "did:ethr:0xabc", err: `method "ethr", want "elastos"`},
		{in: "DID:elastos:foo", err: `invalid character ':' at position 3`},
		{in: "did:elastos:foo:bar", err: `"did:elastos:foo:bar": invalid character ':' at position 3 of the id`},
		{in: "did:elastos:-foo", err: `invalid character '-' at position 0`},
		{in: "did:elastos:fo o", err: `invalid character ' ' at position 2`},
		{in: "did:elastos:foo#key", err: `invalid character '#'`},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			d, err := Parse(tc.in)
			switch {
			case tc.err != "":
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("Parse(%q) error %v, want one containing %q", tc.in, err, tc.err)
				}
			case err != nil:
				t.Errorf("Parse(%q): %v", tc.in, err)
			case d.ID() != tc.id || d.String() != "did:elastos:"+tc.id:
				t.Errorf("Parse(%q) = %q (id %q), want id %q", tc.in, d, d.ID(), tc.id)
			}
		})
	}
	if _, err := parseFull("foobar"); err == nil {
		t.Error("parseFull accepted a bare id; documents must use the full form")
	}
}

func TestCustomizedAndKey(t *testing.T) {
	for i, tc := range []struct {
		id         string
		customized bool
		key        string
	}{
		{"iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y", false, "iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y"},
		{"FooBar", true, "foobar"},
		{"iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58Y", true, "ixcrhyb38gmt1phi5jxjmjexl2tl8cg58y"}, // bad checksum: not an address
		{"EPZ8UktXmvKHhB4Uu8ViH3kLfZqNq9PtMx", true, "epz8uktxmvkhhb4uu8vih3klfzqnq9ptmx"}, // a wallet address, prefix 0x21
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			d := DID{id: tc.id}
			if d.IsCustomized() != tc.customized || d.Key() != tc.key {
				t.Errorf("%s: IsCustomized %v, Key %q; want %v, %q", tc.id, d.IsCustomized(), d.Key(), tc.customized, tc.key)
			}
		})
	}
}

// The derivations DESIGN.md records: a key derives its DID with the 0xAD
// script suffix, and the oldest DIDs with 0xAC.
func TestDerivation(t *testing.T) {
	for i, tc := range []struct {
		key, did string
		want     Derivation
	}{
		{"vMYSz32qbWsNeDJpKsuuMaFsiApuZMz9XVy9DmEwysWg", "iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y", Derived},
		{"zxt6NyoorFUFMXA8mDBULjnuH3v6iNdZm42PyG4c1YdC", "ifawgWFmZRLXN1JVmqpXcNRurhB1zyHNcf", DerivedLegacy},
		{"vMYSz32qbWsNeDJpKsuuMaFsiApuZMz9XVy9DmEwysWg", "ifawgWFmZRLXN1JVmqpXcNRurhB1zyHNcf", NotDerived},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			pub, err := keys.ParsePublicKeyBase58(tc.key)
			if err != nil {
				t.Fatal(err)
			}
			if got := (DID{id: tc.did}).DerivedFrom(pub); got != tc.want {
				t.Errorf("%s derives %s: %v, want %v", tc.key, tc.did, got, tc.want)
			}
			if tc.want == Derived {
				if got := FromKey(pub).ID(); got != tc.did {
					t.Errorf("FromKey(%s) = %s, want %s", tc.key, got, tc.did)
				}
			}
		})
	}
}

func TestParseURL(t *testing.T) {
	base := DID{id: "foo"}
	for i, tc := range []struct {
		in   string
		base DID
		want URL
		str  string
	}{
		{"#primary", base, URL{DID: base, Fragment: "primary"}, "did:elastos:foo#primary"},
		{"primary", base, URL{DID: base, Fragment: "primary"}, "did:elastos:foo#primary"},
		{"did:elastos:bar#key-2", base, URL{DID: DID{id: "bar"}, Fragment: "key-2"}, "did:elastos:bar#key-2"},
		{"did:elastos:bar", base, URL{DID: DID{id: "bar"}}, "did:elastos:bar"},
		{"#k", DID{}, URL{Fragment: "k"}, "#k"},
		{"did:elastos:foo/a/b%20c/?x=1&y#f", DID{}, URL{DID: base, Path: "/a/b%20c/", Query: "x=1&y", Fragment: "f"}, "did:elastos:foo/a/b%20c/?x=1&y#f"},
		{"?a=1&b=2&a=3&c=4=5", base, URL{DID: base, Query: "a=3&b=2&c"}, "did:elastos:foo?a=3&b=2&c"},
		// An empty value may stand anywhere, as the canonical form may move
		// it from the end (FuzzParseURL found "?x&a&y&a=").
		{"?x&a&y&a=", base, URL{DID: base, Query: "x&a=&y"}, "did:elastos:foo?x&a=&y"},
		{"?a=&b=1", base, URL{DID: base, Query: "a=&b=1"}, "did:elastos:foo?a=&b=1"},
		{"/path", base, URL{DID: base, Path: "/path"}, "did:elastos:foo/path"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			u, err := ParseURL(tc.in, tc.base)
			if err != nil {
				t.Errorf("ParseURL(%q): %v", tc.in, err)
				return
			}
			if u != tc.want || u.String() != tc.str {
				t.Errorf("ParseURL(%q) = %#v (%s), want %#v (%s)", tc.in, u, u, tc.want, tc.str)
			}
		})
	}
	for i, tc := range []struct{ in, err string }{
		{"", "empty DID URL"},
		{"#", ""},
		{"#_key", `invalid character '_' at position 0`},
		{"#ke y", `fragment: invalid character ' '`},
		{"#a#b", `invalid character '#'`},
		{"did:elastos:foo//x", `path: empty token before '/'`},
		{"did:elastos:foo?&a", `query: empty token before '&'`},
		{"did:elastos:foo?a&&b", `query: empty token before '&'`},
		{"did:elastos:foo?=a", `query: empty token before '='`},
		{"did:elastos:foo?a==b", `query: empty token before '='`},
		{"did:elastos:foo#%4", `invalid %-escape`},
		{"did:elastos:foo#%zz", `invalid %-escape`},
		{"did:other:foo#k", `method "other"`},
		{"did:elastos:foo bar", `"did:elastos:foo bar": invalid character ' ' at position 3 of the id`},
		{"did:elastos:foo:bar#k", `invalid character ':'`},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			_, err := ParseURL(tc.in, base)
			if tc.err == "" {
				if err != nil {
					t.Errorf("ParseURL(%q): %v", tc.in, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseURL(%q) error %v, want one containing %q", tc.in, err, tc.err)
			}
		})
	}
}

func TestRelativeAndCompare(t *testing.T) {
	foo, bar := DID{id: "foo"}, DID{id: "bar"}
	u := URL{DID: foo, Fragment: "k"}
	if got := u.Relative(foo); got != "#k" {
		t.Errorf("Relative(own DID) = %q, want #k", got)
	}
	if got := u.Relative(bar); got != "did:elastos:foo#k" {
		t.Errorf("Relative(other DID) = %q", got)
	}
	ordered := []URL{
		{DID: bar, Fragment: "z"},
		{DID: foo},
		{DID: foo, Path: "/p"},
		{DID: foo, Query: "q"},
		{DID: foo, Fragment: "a"},
		{DID: foo, Fragment: "ab"},
		{DID: DID{id: "foo1"}, Fragment: "a"},
	}
	for i := range ordered {
		for j := range ordered {
			got := sign(compareURL(ordered[i], ordered[j]))
			want := sign(strings.Compare(ordered[i].String(), ordered[j].String()))
			if got != want {
				t.Errorf("compareURL(%s, %s) = %d, want %d", ordered[i], ordered[j], got, want)
			}
		}
	}
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}
