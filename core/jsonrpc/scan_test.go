package jsonrpc

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/didlight/didlight/core/jsontext"
)

func TestMembers(t *testing.T) {
	for i, c := range []struct {
		in   string
		want []member
	}{
		{`{}`, nil},
		{` { } `, nil},
		{`{"a":1}`, []member{{[]byte("a"), json.RawMessage(`1`)}}},
		{"{ \"a\" :\t[1, {\"b\":\"]}\"}] ,\n\"c\":\"x\\\"y\" , \"d\":null,\"e\":-1.5e3}",
			[]member{{[]byte("a"), json.RawMessage(`[1, {"b":"]}"}]`)}, {[]byte("c"), json.RawMessage(`"x\"y"`)}, {[]byte("d"), json.RawMessage(`null`)}, {[]byte("e"), json.RawMessage(`-1.5e3`)}}},
		{`{"m\u0065thod":"x","\"":true}`, []member{{[]byte("method"), json.RawMessage(`"x"`)}, {[]byte(`"`), json.RawMessage(`true`)}}},
		{`{"a":1,"a":{"z":[]}}`, []member{{[]byte("a"), json.RawMessage(`1`)}, {[]byte("a"), json.RawMessage(`{"z":[]}`)}}},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			got := members(nil, []byte(c.in))
			if diff := cmp.Diff(c.want, got, cmp.AllowUnexported(member{})); diff != "" {
				t.Errorf("members(%s) (-want +got):\n%s", c.in, diff)
			}
		})
	}
	if v, ok := lastMember(members(nil, []byte(`{"a":1,"b":2,"a":3}`)), "a"); !ok || string(v) != "3" {
		t.Errorf("lastMember a = %s, %v; want 3 (encoding/json keeps the last)", v, ok)
	}
	if _, ok := lastMember(members(nil, []byte(`{"a":1}`)), "A"); ok {
		t.Error("lastMember matched a name in another case")
	}
}

func TestCheckedElements(t *testing.T) {
	for i, c := range []struct {
		in   string
		want []json.RawMessage
	}{
		{`[]`, nil},
		{` [ ] `, nil},
		{`[1]`, []json.RawMessage{json.RawMessage(`1`)}},
		{"[ {\"a\":[\"[\"]} ,\n true,\"\\\\\",[[]] ]", []json.RawMessage{json.RawMessage(`{"a":["["]}`), json.RawMessage(`true`), json.RawMessage(`"\\"`), json.RawMessage(`[[]]`)}},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			got, n, ok := checkedElements(nil, []byte(c.in), 10)
			if diff := cmp.Diff(c.want, got); diff != "" || n != len(c.want) || !ok {
				t.Errorf("checkedElements(%s) = %d, %v (-want +got):\n%s", c.in, n, ok, diff)
			}
			if _, n, _ := checkedElements(nil, []byte(c.in), 0); n != len(c.want) {
				t.Errorf("checkedElements(%s) keeping none counts %d", c.in, n)
			}
		})
	}
}

// The scanner splits valid JSON exactly as encoding/json does: an object
// into the members its map holds (the last of a repeated name), an array
// into its elements.
func FuzzMembers(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","method":"resolvedid","params":{"did":"x","all":false},"id":1}`,
		`[{"a":"]"},"\"",1e5,null]`, `{"a\u00e9\ud800":1,"a":2}`, "{\"\xff\":1}", `null`, ` [ ] `,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if !json.Valid(in) {
			return
		}
		switch in[jsontext.SkipSpace(in, 0)] {
		case '{':
			var obj map[string]json.RawMessage
			json.Unmarshal(in, &obj) // cannot fail: valid
			got := map[string]json.RawMessage{}
			for _, m := range members(nil, in) {
				got[string(m.name)] = m.value
			}
			if diff := cmp.Diff(obj, got); diff != "" {
				t.Fatalf("members(%q) (-encoding/json +scanner):\n%s", in, diff)
			}
			checked, ok := checkedMembers(nil, in, false)
			if diff := cmp.Diff(members(nil, in), checked, cmp.AllowUnexported(member{})); diff != "" || !ok {
				t.Fatalf("checkedMembers(%q) = %v (-members +checkedMembers):\n%s", in, ok, diff)
			}
		case '[':
			var arr []json.RawMessage
			json.Unmarshal(in, &arr) // cannot fail: valid
			got, n, ok := checkedElements(nil, in, len(in))
			if diff := cmp.Diff(arr, got, cmpEmpty); diff != "" || n != len(arr) || !ok {
				t.Fatalf("checkedElements(%q) = %d, %v (-encoding/json +scanner):\n%s", in, n, ok, diff)
			}
		}
	})
}

// cmpEmpty takes an empty slice and nil as equal.
var cmpEmpty = cmp.FilterValues(func(a, b []json.RawMessage) bool { return len(a) == 0 && len(b) == 0 }, cmp.Ignore())
