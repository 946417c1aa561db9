package jsontext

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// items lists what Items yields from s as key=value, key quoted.
func items[T string | []byte](s T) []string {
	var out []string
	for it := NewItems(s, SkipSpace(s, 0)); ; {
		key, value, ok := it.Next()
		if !ok {
			return out
		}
		out = append(out, string(key)+"="+string(value))
	}
}

// checked lists what Checked yields from b as items does, and its end.
func checked(b []byte) ([]string, int, error) {
	var out []string
	for it := NewChecked(b, 0); ; {
		key, value, ok := it.Next()
		if !ok {
			end, err := it.End()
			return out, end, err
		}
		out = append(out, string(key)+"="+string(value))
	}
}

func TestItems(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     []string
	}{
		{"empty object", ` { } `, nil},
		{"empty array", `[ ]`, nil},
		{"members", `{"a":1, "b" : "x,y", "a":{"c":[1,2]}}`, []string{`"a"=1`, `"b"="x,y"`, `"a"={"c":[1,2]}`}},
		{"escaped name", `{"a\"b\\":null,"` + strings.Repeat("n", 40) + `":true}`, []string{`"a\"b\\"=null`, `"` + strings.Repeat("n", 40) + `"=true`}},
		{"elements", "[1,\n\"]\",[],{}\t,-2.5e3]", []string{`=1`, `="]"`, `=[]`, `={}`, `=-2.5e3`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if diff := cmp.Diff(c.want, items(c.in)); diff != "" {
				t.Errorf("Items of a string (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.want, items([]byte(c.in))); diff != "" {
				t.Errorf("Items of bytes (-want +got):\n%s", diff)
			}
			got, end, err := checked([]byte(c.in))
			if diff := cmp.Diff(c.want, got); diff != "" || err != nil || end != len(strings.TrimRight(c.in, " ")) {
				t.Errorf("Checked = %d, %v (-want +got):\n%s", end, err, diff)
			}
		})
	}
}

// Escaped tells the keys that hold an escape from those that do not.
func TestItemsEscaped(t *testing.T) {
	var got []bool
	for it := NewItems(`{"a":1,"\u0062":[2],"c\"":3,"d":4}`, 0); ; {
		if _, _, ok := it.Next(); !ok {
			break
		}
		got = append(got, it.Escaped())
	}
	if want := []bool{false, true, true, false}; !slices.Equal(got, want) {
		t.Errorf("Escaped = %v, want %v", got, want)
	}
}

// Text that is not JSON ends Items without a panic.
func TestItemsNeverPanic(t *testing.T) {
	for _, s := range []string{``, `{`, `[`, `{"`, `{"a"`, `{"a":`, `{"a" 1}`, `{1:2}`, `[1 2]`, `["\`, `]`, `x`} {
		t.Run(s, func(t *testing.T) {
			if n := len(items(s)); n > len(s) {
				t.Errorf("Items of %q yields %d items", s, n)
			}
		})
	}
}

func TestCheckedErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`[1,]`, `invalid character ']' looking for beginning of value`},
		{`{"a":1,}`, `invalid character '}' looking for beginning of object key string`},
		{`{"a" 1}`, `invalid character '1' after object key`},
		{`[1 2]`, `invalid character '2' after array element`},
		{`{"a":1 "b":2}`, `invalid character '"' after object key:value pair`},
		{`[1,`, `unexpected EOF`},
		{`1`, `invalid character '1' looking for beginning of object or array`},
	} {
		t.Run(c.in, func(t *testing.T) {
			if _, _, err := checked([]byte(c.in)); err == nil || err.Error() != c.want {
				t.Errorf("Checked(%s) = %v, want %s", c.in, err, c.want)
			}
		})
	}
}

// On an object or array, Checked accepts what Scan accepts, with its error,
// and on valid JSON it yields what Items yields.
func FuzzItems(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":[2,{"c":"\""}]}`, `[1,"x",null,true,{}]`, ` [ ] `, `{"a":1,}`, `[1 2]`, `{"\u00e9":"` + strings.Repeat("y", 30) + `"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if i := SkipSpace(in, 0); i == len(in) || in[i] != '{' && in[i] != '[' {
			return
		}
		wantEnd, wantErr := Scan(in)
		got, end, err := checked(in)
		if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Fatalf("Checked(%q): %v; Scan: %v", in, err, wantErr)
		}
		if err != nil {
			return
		}
		if end != wantEnd {
			t.Fatalf("Checked(%q) ends at %d, Scan at %d", in, end, wantEnd)
		}
		if diff := cmp.Diff(got, items(in)); diff != "" {
			t.Fatalf("Items(%q) (-Checked +Items):\n%s", in, diff)
		}
		if diff := cmp.Diff(got, items(string(in))); diff != "" {
			t.Fatalf("Items of a string (%q) (-Checked +Items):\n%s", in, diff)
		}
	})
}
