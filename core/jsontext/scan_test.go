package jsontext

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestValid(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, c := range []struct {
		name, in string
		want     bool
	}{
		{"request", `{"jsonrpc":"2.0","method":"resolvedid","params":{"did":"x","all":false},"id":1}`, true},
		{"every kind", ` [1, -0.5e+3, 2E-2, "a\"\u00e9", true, false, null, {}, [], {"a":{"b":[{}]}}] `, true},
		{"zero", `0`, true},
		{"minus alone", `-`, false},
		{"leading zero", `01`, false},
		{"no fraction digits", `1.`, false},
		{"no integer part", `.5`, false},
		{"no exponent digits", `1e`, false},
		{"signed empty exponent", `1e+`, false},
		{"plus sign", `+1`, false},
		{"short true", `tru`, false},
		{"short null", `nul`, false},
		{"long true", `truex`, false},
		{"trailing comma in object", `{"a":1,}`, false},
		{"trailing comma in array", `[1,]`, false},
		{"no colon", `{"a" 1}`, false},
		{"number key", `{1:1}`, false},
		{"no comma", `[1 2]`, false},
		{"bad escape", `"\x"`, false},
		{"control character", "\"a\tb\"", false},
		{"extra close", `{"a":1}}`, false},
		{"empty", ``, false},
		{"white space", `  `, false},
		{"max depth", deep(MaxDepth), true},
		{"too deep", deep(MaxDepth + 1), false},
		{"max depth in object", `{"a":` + deep(MaxDepth-1) + `}`, true},
		{"too deep in object", `{"a":` + deep(MaxDepth) + `}`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Valid([]byte(c.in)); got != c.want || json.Valid([]byte(c.in)) != c.want {
				t.Errorf("Valid(%.60q) = %v, json.Valid %v; want %v", c.in, got, json.Valid([]byte(c.in)), c.want)
			}
		})
	}
}

// Valid answers as json.Valid does.
func FuzzValid(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","method":"m","params":[{"a":[1,2.5e-3,null]}],"id":"x"}`, `[01]`, `1.e5`, `"\ud800"`,
		"\"\xff\"", `{"a":tru}`, ` -0 `, `[[[]]]`, `{"":{}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if got, want := Valid(in), json.Valid(in); got != want {
			t.Fatalf("Valid(%q) = %v, json.Valid %v", in, got, want)
		}
	})
}

// decodeError is the error encoding/json's Decoder gives for the first
// value of in, or nil.
func decodeError(in []byte) error {
	var v json.RawMessage
	return json.NewDecoder(bytes.NewReader(in)).Decode(&v)
}

// Scan words its errors as encoding/json's Decoder does, for objects and
// arrays (whose end the Decoder finds without reading further).
func FuzzScanErrorsAreEncodingJSONs(f *testing.F) {
	for _, s := range []string{``, ` `, `{`, `[`, `{"a"`, `{"a":`, `{"a":1`, `{"a":1,`, `[1,`, `{"a" 1}`, `[1 2]`, `{1:1}`,
		`["\x"]`, `["\u12x4"]`, "[\"a\tb\"]", `[-]`, `[01]`, `[1.]`, `[1e+]`, `[tru]`, `[nulx]`, `[fals]`, `[+1]`, `{"a":{"b":[]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if i := SkipSpace(in, 0); i < len(in) && in[i] != '{' && in[i] != '[' {
			return
		}
		_, err := Scan(in)
		want := decodeError(in)
		if (err == nil) != (want == nil) || err != nil && err.Error() != want.Error() {
			t.Fatalf("Scan(%q): %v, encoding/json %v", in, err, want)
		}
	})
}

// ValidValue walks one value at an offset, and fails on anything else.
func TestValidValue(t *testing.T) {
	for _, c := range []struct {
		in   string
		i    int
		end  int
		want bool
	}{
		{`x:"a\"b",`, 2, 8, true},
		{`x: -12}`, 2, 6, true},
		{`[true]`, 1, 5, true},
		{`"a`, 0, 2, false},
		{`x`, 0, 0, false},
		{`"\u00zz"`, 0, 4, false},
	} {
		t.Run(c.in, func(t *testing.T) {
			end, ok := ValidValue([]byte(c.in), c.i)
			if ok != c.want || ok && end != c.end {
				t.Errorf("ValidValue(%q, %d) = %d, %v; want %d, %v", c.in, c.i, end, ok, c.end, c.want)
			}
		})
	}
}
