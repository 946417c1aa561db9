package jsonrpc

import (
	"encoding/json"
	"fmt"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/didlight/didlight/core/jsontext"
)

func TestFlatMembers(t *testing.T) {
	for i, c := range []struct {
		in   string
		want []member // nil: not flat
		flat bool
	}{
		{`{}`, nil, true},
		{` { "did" : "did:elastos:iA" , "all":true,"skip":-0,"limit":10 } `, []member{
			{[]byte("did"), json.RawMessage(`"did:elastos:iA"`)}, {[]byte("all"), json.RawMessage(`true`)},
			{[]byte("skip"), json.RawMessage(`-0`)}, {[]byte("limit"), json.RawMessage(`10`)}}, true},
		{`{"a\u00e9":"\"\\\/\b\f\n\r\t\u12aF","b":false}`, []member{
			{[]byte("aé"), json.RawMessage(`"\"\\\/\b\f\n\r\t\u12aF"`)}, {[]byte("b"), json.RawMessage(`false`)}}, true},
		{"{\"\xff\":\"\xfe\"}", []member{{[]byte("\ufffd"), json.RawMessage("\"\xfe\"")}}, true},
		// Not flat: other values, or not JSON.
		{`{"a":1.5}`, nil, false},
		{`{"a":1e3}`, nil, false},
		{`{"a":01}`, nil, false},
		{`{"a":-}`, nil, false},
		{`{"a":null}`, nil, false},
		{`{"a":{}}`, nil, false},
		{`{"a":[1]}`, nil, false},
		{`{"a":tru}`, nil, false},
		{`{"a":"\x"}`, nil, false},
		{`{"a":"\u12g4"}`, nil, false},
		{"{\"a\":\"\n\"}", nil, false},
		{`{"a":"x}`, nil, false},
		{`{"a" "x"}`, nil, false},
		{`{"a":"x",}`, nil, false},
		{`{"a":"x"} x`, nil, false},
		{`{"a":"x"`, nil, false},
		{`{a:"x"}`, nil, false},
		{`["a"]`, nil, false},
		{``, nil, false},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			got, flat := flatMembers(nil, []byte(c.in))
			if flat != c.flat || flat && json.Valid([]byte(c.in)) != true {
				t.Errorf("flatMembers(%q) flat = %v, want %v", c.in, flat, c.flat)
			}
			if diff := cmp.Diff(c.want, got, cmp.AllowUnexported(member{})); diff != "" {
				t.Errorf("flatMembers(%q) (-want +got):\n%s", c.in, diff)
			}
		})
	}
}

// flatValue is a value flatMembers takes: a string, true, false or an
// integer.
var flatValue = regexp.MustCompile(`^("(?s:.*)"|true|false|-?(0|[1-9][0-9]*))$`)

// flatMembers takes exactly the valid JSON objects whose values are
// strings, booleans and integers, and splits them as members does.
func FuzzFlatMembers(f *testing.F) {
	for _, s := range []string{`{"did":"x","all":true,"limit":10}`, `{"a":1.5}`, `{"a":"\u00e9\ud800"}`, "{\"\xff\":1}",
		`{"a":-0,"b":01}`, `{"a":"\q"}`, `{"a":[]}`, ` {} `, `{"a":1}x`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		got, flat := flatMembers(nil, in)
		valid := json.Valid(in)
		if flat && !valid {
			t.Fatalf("flatMembers took %q, which is not JSON", in)
		}
		if !valid || in[jsontext.SkipSpace(in, 0)] != '{' {
			return
		}
		want := members(nil, in)
		allFlat := true
		for _, m := range want {
			allFlat = allFlat && flatValue.Match(m.value)
		}
		if flat != allFlat {
			t.Fatalf("flatMembers(%q) flat = %v, want %v", in, flat, allFlat)
		}
		if flat {
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(member{})); diff != "" {
				t.Fatalf("flatMembers(%q) (-members +flat):\n%s", in, diff)
			}
		}
	})
}
