package jsonrpc

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestArgs(t *testing.T) {
	names := []string{"blockhash", "verbosity"}
	for i, tc := range []struct {
		params string
		want   map[string]string
		err    string
	}{
		{``, map[string]string{}, ""},
		{`null`, map[string]string{}, ""},
		{`{}`, map[string]string{}, ""},
		{`[]`, map[string]string{}, ""},
		{`{"blockhash":"ab","verbosity":2}`, map[string]string{"blockhash": `"ab"`, "verbosity": "2"}, ""},
		{`["ab", 2]`, map[string]string{"blockhash": `"ab"`, "verbosity": "2"}, ""},
		{` [ "ab" ] `, map[string]string{"blockhash": `"ab"`}, ""},
		{`["ab", null]`, map[string]string{"blockhash": `"ab"`}, ""},
		{`{"blockhash":"ab","verbosity":null}`, map[string]string{"blockhash": `"ab"`}, ""},
		{`[{"blockhash":"ab"}]`, map[string]string{"blockhash": `{"blockhash":"ab"}`}, ""}, // positional, as the Elastos nodes read it
		{`["ab", 2, true]`, nil, "params holds 3 values; the method takes at most 2: blockhash, verbosity"},
		{`{"blockhash":"ab","verbose":1}`, nil, `unknown parameter "verbose"; the method takes at most 2: blockhash, verbosity`},
		{`"ab"`, nil, "params is a string, want an object or an array"},
		{`7`, nil, "params is a number"},
		{`true`, nil, "params is a boolean"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			got, err := Args(json.RawMessage(tc.params), names...)
			if tc.err != "" {
				if err == nil || err.Code != CodeInvalidParams || !strings.Contains(fmt.Sprint(err.Data), tc.err) {
					t.Errorf("Args(%s) = %v, %v; want -32602 with %q", tc.params, got, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Errorf("Args(%s): %v", tc.params, err)
				return
			}
			raw := map[string]string{}
			for k, v := range got {
				raw[k] = string(v)
			}
			if diff := cmp.Diff(tc.want, raw); diff != "" {
				t.Errorf("Args(%s) (-want +got):\n%s", tc.params, diff)
			}
		})
	}
}

func TestArgsNone(t *testing.T) {
	for _, p := range []string{``, `null`, `{}`, `[]`} {
		if got, err := Args(json.RawMessage(p)); err != nil || len(got) != 0 {
			t.Errorf("Args(%s) with no names = %v, %v", p, got, err)
		}
	}
	for _, p := range []string{`{"a":1}`, `[1]`} {
		if _, err := Args(json.RawMessage(p)); err == nil || !strings.Contains(fmt.Sprint(err.Data), "the method takes none") {
			t.Errorf("Args(%s) with no names: error %v", p, err)
		}
	}
}

// A long unknown name is quoted briefly, not echoed whole.
func TestArgsBriefEcho(t *testing.T) {
	long := strings.Repeat("x", 10000)
	_, err := Args(json.RawMessage(`{"`+long+`":1}`), "a")
	if err == nil || len(fmt.Sprint(err.Data)) > 200 {
		t.Errorf("error data of %d bytes: %.80v", len(fmt.Sprint(err.Data)), err)
	}
}

func FuzzArgs(f *testing.F) {
	for _, s := range []string{`["ab",2]`, `{"blockhash":"ab","verbosity":null}`, `[null,null,null]`, `{"x":1}`, `"s"`, ``} {
		f.Add([]byte(s))
	}
	names := []string{"blockhash", "verbosity"}
	f.Fuzz(func(t *testing.T, params []byte) {
		if len(params) > 0 && !json.Valid(params) {
			return // bodies are checked for JSON before params are read
		}
		got, err := Args(params, names...)
		if err != nil {
			if err.Code != CodeInvalidParams || got != nil {
				t.Fatalf("error %v with %v", err, got)
			}
			return
		}
		for k, v := range got {
			if !slices.Contains(names, k) || !json.Valid(v) || string(v) == "null" {
				t.Fatalf("parameter %q = %s", k, v)
			}
		}
	})
}
