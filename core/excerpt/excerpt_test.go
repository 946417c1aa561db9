package excerpt

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestQuote(t *testing.T) {
	long := strings.Repeat("a", 70000)
	for i, tc := range []struct{ in, want string }{
		{"", `""`},
		{"did:elastos:x", `"did:elastos:x"`},
		{"tab\there", `"tab\there"`},
		{strings.Repeat("b", Max), `"` + strings.Repeat("b", Max) + `"`},
		{long, `"` + strings.Repeat("a", Max) + `"… (70000 bytes)`},
		// A cut never splits a character: é is two bytes, the 100th and 101st.
		{strings.Repeat("x", Max-1) + "é" + long, `"` + strings.Repeat("x", Max-1) + `"… (70101 bytes)`},
		// Escapes count: 100 bytes of \xff would quote to 400.
		{strings.Repeat("\xff", 30), `"` + strings.Repeat(`\xff`, 25) + `"… (30 bytes)`},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if got := Quote(tc.in); got != tc.want {
				t.Errorf("Quote(%.20q…) = %.130s, want %.130s", tc.in, got, tc.want)
			}
			if got := Bytes([]byte(tc.in)); got != Quote(tc.in) {
				t.Errorf("Bytes(%.20q…) = %.130s, want what Quote gives", tc.in, got)
			}
		})
	}
}

func TestCut(t *testing.T) {
	if got := Cut("$gt"); got != "$gt" {
		t.Errorf("Cut($gt) = %s", got)
	}
	long := strings.Repeat("$", 300)
	if got := Cut(long); got != Quote(long) {
		t.Errorf("Cut of 300 bytes = %s, want Quote's", got)
	}
}

func FuzzQuote(f *testing.F) {
	f.Add("did:elastos:" + strings.Repeat("é", 80))
	f.Add(strings.Repeat("\xff", 200))
	f.Add(strings.Repeat("a", Max+2))
	f.Fuzz(func(t *testing.T, s string) {
		q := Quote(s)
		if b := Bytes([]byte(s)); b != q {
			t.Fatalf("Bytes(%q) = %s, Quote = %s", s, b, q)
		}
		// At most Max bytes between the quotes, then the length note.
		if len(q) > Max+2+len("… ( bytes)")+20 {
			t.Fatalf("Quote of %d bytes is %d bytes long", len(s), len(q))
		}
		if !utf8.ValidString(q) {
			t.Fatalf("Quote(%q) = %q is not valid UTF-8", s, q)
		}
		head := q
		if strings.HasSuffix(q, " bytes)") {
			note := "… (" + strconv.Itoa(len(s)) + " bytes)"
			if !strings.HasSuffix(q, note) {
				t.Fatalf("Quote of %d bytes = %q lacks %q", len(s), q, note)
			}
			head = strings.TrimSuffix(q, note)
		}
		if u, err := strconv.Unquote(head); err != nil || !strings.HasPrefix(s, u) {
			t.Fatalf("Quote(%q) = %q: not a quoted prefix of the input (%v)", s, q, err)
		}
	})
}
