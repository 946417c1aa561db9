package did

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/internal/vectors"
)

func FuzzParseDID(f *testing.F) {
	for _, s := range []string{"did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y", "foobar", "did:elastos:a.b-c_d", "did:x:y", " did:elastos:z ",
		"did:elastos:" + strings.Repeat("x", MaxDIDLength)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := Parse(s)
		if err != nil {
			checkBounded(t, s, err)
			return
		}
		if len(s) > MaxDIDLength {
			t.Fatalf("Parse accepted %d bytes, over MaxDIDLength", len(s))
		}
		d.Key() // costs no more than the id's length
		again, err := Parse(d.String())
		if err != nil || again != d {
			t.Fatalf("Parse(%q) = %v, but Parse(%q) = %v, %v", s, d, d.String(), again, err)
		}
		if bare, err := Parse(d.ID()); err != nil || bare != d {
			t.Fatalf("the bare id %q of %q does not parse back: %v, %v", d.ID(), s, bare, err)
		}
	})
}

func FuzzParseURL(f *testing.F) {
	for _, s := range []string{"#primary", "key2", "did:elastos:foo/a/b?x=1&y=2#f", "did:elastos:foo?a=1&a=2", "#%41b"} {
		f.Add(s)
	}
	f.Add("did:elastos:foo?" + strings.Repeat("a=1&", 200))
	base := DID{id: "base"}
	f.Fuzz(func(t *testing.T, s string) {
		if id, err := ParseCredentialID(s); err == nil && (id.DID.IsZero() || id.Fragment == "") {
			t.Fatalf("ParseCredentialID(%q) = %#v, which is not a credential id", s, id)
		} else if err != nil {
			checkBounded(t, s, err)
		}
		u, err := ParseURL(s, base)
		if err != nil {
			checkBounded(t, s, err)
			return
		}
		if len(s) > MaxURLLength {
			t.Fatalf("ParseURL accepted %d bytes, over MaxURLLength", len(s))
		}
		for _, o := range []URL{{DID: base, Fragment: "key"}, {DID: base, Query: "a=1", Fragment: "k"}, {DID: DID{id: "bas"}, Path: "/e"}, {Fragment: "x"}} {
			if got, want := sign(compareURL(u, o)), sign(strings.Compare(u.String(), o.String())); got != want {
				t.Fatalf("compareURL(%s, %s) = %d, want %d as their strings compare", u, o, got, want)
			}
		}
		again, err := ParseURL(u.String(), DID{})
		if err != nil || again != u {
			t.Fatalf("ParseURL(%q) = %#v, but its string %q parses to %#v, %v", s, u, u.String(), again, err)
		}
		if u.Relative(base) == "" {
			return // the DID itself, which has no relative form
		}
		if rel, err := ParseURL(u.Relative(base), base); err != nil || rel != u {
			t.Fatalf("relative form %q of %q parses to %#v, %v", u.Relative(base), s, rel, err)
		}
	})
}

// FuzzParseDocument checks that parsing never panics and that what parses
// normalizes to a fixed point, with the compact form meaning the same.
func FuzzParseDocument(f *testing.F) {
	for _, n := range vectors.Glob("elastos-did-sdk/*/*id*.json") {
		f.Add(vectors.Read(n))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkFixedPoint(t, b, ParseDocument) })
}

func FuzzParseCredential(f *testing.F) {
	for _, n := range vectors.Glob("elastos-did-sdk/*/*.vc.*.json") {
		f.Add(vectors.Read(n))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkFixedPoint(t, b, ParseCredential) })
}

// FuzzParseTransferTicket checks that parsing never panics and that what
// parses normalizes to a fixed point.
func FuzzParseTransferTicket(f *testing.F) {
	for _, n := range vectors.Glob("elastos-did-sdk/*/*.tt.json") {
		f.Add(vectors.Read(n))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		tt, err := ParseTransferTicket(b)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error of another kind: %v", err)
			}
			return
		}
		norm := tt.Normalized()
		again, err := ParseTransferTicket(norm)
		if err != nil {
			t.Fatalf("%s does not parse: %v", norm, err)
		}
		if got := again.Normalized(); !bytes.Equal(got, norm) {
			t.Fatalf("%s\nnormalizes to\n%s", norm, got)
		}
	})
}

// checkFixedPoint checks that if b parses, its normalized form parses back
// to the same normalized form, and so does its compact form.
func checkFixedPoint[T sdkObject](t *testing.T, b []byte, parse func([]byte) (T, error)) {
	obj, err := parse(b)
	if err != nil {
		return
	}
	norm := obj.Normalized()
	for _, form := range [][]byte{norm, obj.Compact()} {
		again, err := parse(form)
		if err != nil {
			t.Fatalf("%s does not parse: %v", form, err)
		}
		if got := again.Normalized(); !bytes.Equal(got, norm) {
			t.Fatalf("%s\nnormalizes to\n%s\nnot\n%s", form, got, norm)
		}
	}
}

// checkBounded fails when an error quotes more of its input than package
// excerpt lets it: a few quotes of at most 100 bytes each, escaped.
func checkBounded(t *testing.T, in string, err error) {
	t.Helper()
	if n := len(err.Error()); n > 1500 {
		t.Fatalf("error for %d bytes of input is %d bytes long: %.200s", len(in), n, err)
	}
}
