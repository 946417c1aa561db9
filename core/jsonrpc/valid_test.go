package jsonrpc

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestValid(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, c := range []struct {
		in   string
		want bool
	}{
		{`{"jsonrpc":"2.0","method":"resolvedid","params":{"did":"x","all":false},"id":1}`, true},
		{` [1, -0.5e+3, 2E-2, "a\"\u00e9", true, false, null, {}, [], {"a":{"b":[{}]}}] `, true},
		{`0`, true},
		{`-`, false},
		{`01`, false},
		{`1.`, false},
		{`.5`, false},
		{`1e`, false},
		{`1e+`, false},
		{`+1`, false},
		{`tru`, false},
		{`nul`, false},
		{`truex`, false},
		{`{"a":1,}`, false},
		{`[1,]`, false},
		{`{"a" 1}`, false},
		{`{1:1}`, false},
		{`[1 2]`, false},
		{`"\x"`, false},
		{"\"a\tb\"", false},
		{`{"a":1}}`, false},
		{``, false},
		{`  `, false},
		{deep(maxDepth), true},
		{deep(maxDepth + 1), false},
		{`{"a":` + deep(maxDepth-1) + `}`, true},
		{`{"a":` + deep(maxDepth) + `}`, false},
	} {
		if got := valid([]byte(c.in)); got != c.want || json.Valid([]byte(c.in)) != c.want {
			t.Errorf("valid(%.60q) = %v, json.Valid %v; want %v", c.in, got, json.Valid([]byte(c.in)), c.want)
		}
	}
}

// valid answers as json.Valid does.
func FuzzValid(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","method":"m","params":[{"a":[1,2.5e-3,null]}],"id":"x"}`, `[01]`, `1.e5`, `"\ud800"`,
		"\"\xff\"", `{"a":tru}`, ` -0 `, `[[[]]]`, `{"":{}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if got, want := valid(in), json.Valid(in); got != want {
			t.Fatalf("valid(%q) = %v, json.Valid %v", in, got, want)
		}
	})
}
