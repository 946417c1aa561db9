package did

import (
	"bytes"
	"errors"
	"testing"

	"github.com/didlight/didlight/core/internal/vectors"
)

func FuzzParseDID(f *testing.F) {
	for _, s := range []string{"did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y", "foobar", "did:elastos:a.b-c_d", "did:x:y", " did:elastos:z "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := Parse(s)
		if err != nil {
			return
		}
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
	base := DID{id: "base"}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := ParseURL(s, base)
		if err != nil {
			return
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
