package api

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzEIDArg checks eidArg, the reader of a did_* method's params, against
// encoding/json: it takes the params exactly when they are an object, or
// an array of one element that decodes into a map (null giving the nil
// map), and gives that map.
func FuzzEIDArg(f *testing.F) {
	for _, s := range []string{``, `null`, `[]`, `[null]`, `[{}]`, `[{"did":"x","all":true}]`, `[{},{}]`, `{"did":"x"}`,
		`"x"`, `[7]`, `[{"did":12}]`, ` [ {"a":[1,{"b":null}]} ] `, `[{"did":"x"}]x`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, params []byte) {
		if !json.Valid(params) && len(params) > 0 {
			return // the envelope's decoder refuses it before
		}
		arg, err := eidArg(params)
		var list []map[string]any
		want := json.Unmarshal(params, &list) == nil && len(list) == 1
		var object map[string]any
		if json.Unmarshal(params, &object) == nil && object != nil {
			list, want = []map[string]any{object}, true
		}
		if (err == nil) != want {
			t.Fatalf("eidArg(%q) = %v, %v; encoding/json reads %v", params, arg, err, list)
		}
		if err == nil && !reflect.DeepEqual(arg, list[0]) {
			t.Fatalf("eidArg(%q) = %v, want %v", params, arg, list[0])
		}
	})
}

// FuzzStatusOf checks statusOf against encoding/json on objects.
func FuzzStatusOf(f *testing.F) {
	for _, s := range []string{`{"did":"x","status":3}`, `{"status":0,"transaction":[]}`, `{}`, `[]`, `{"a":{"status":1},"status":2}`, `{"status":"3"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, result []byte) {
		var r struct{ Status *int }
		if json.Unmarshal(result, &r) != nil || r.Status == nil {
			return // not a result object with a status: nothing to compare
		}
		var m map[string]json.RawMessage
		json.Unmarshal(result, &m)
		if _, exact := m["status"]; !exact {
			return // encoding/json matched another case of the name
		}
		if got := statusOf(result); got != *r.Status {
			t.Fatalf("statusOf(%s) = %d, want %d", result, got, *r.Status)
		}
	})
}
