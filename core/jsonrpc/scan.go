package jsonrpc

import (
	"encoding/json"

	"github.com/didlight/didlight/core/jsontext"
)

// A request body is checked and split in one pass by [jsontext.Checked]
// (checkedMembers, checkedElements), whose errors are encoding/json's;
// the calls of a batch, checked with it, are then split by
// [jsontext.Items]. Both leave values raw, as json.RawMessage does, and
// build no map and no copy. A server reads every body this way, so it
// matters (docs/benchmarks.md). FuzzMembers holds them to encoding/json's
// answers.

// members appends to dst the members of obj, a valid JSON object, in
// order: each name as encoding/json unescapes it, and its value's raw JSON
// (both parts of obj, not copies, but for a name with escapes). Names may
// repeat; encoding/json keeps the last. A caller passes an array of its
// own (a request has four members, a resolve's params two) so that the
// common case allocates nothing.
func members(dst []member, obj []byte) []member {
	for it := jsontext.NewItems(obj, jsontext.SkipSpace(obj, 0)); ; {
		name, value, ok := it.Next()
		if !ok {
			return dst
		}
		dst = append(dst, member{unquote(name), value})
	}
}

// member is a member of a JSON object: its name and its raw value.
type member struct {
	name  []byte
	value json.RawMessage
}

// lastMember returns the value of the last member named name, as
// encoding/json's map would hold it, and whether there is one.
func lastMember(ms []member, name string) (json.RawMessage, bool) {
	for i := len(ms) - 1; i >= 0; i-- {
		if string(ms[i].name) == name {
			return ms[i].value, true
		}
	}
	return nil, false
}

// checkedMembers appends to dst the members of b and reports true when b
// is one JSON object, checking and splitting it in one pass; with
// flatOnly, also only when its values are all flat.
func checkedMembers(dst []member, b []byte, flatOnly bool) ([]member, bool) {
	i := jsontext.SkipSpace(b, 0)
	if i == len(b) || b[i] != '{' {
		return nil, false
	}
	for it := jsontext.NewChecked(b, i); ; {
		name, value, ok := it.Next()
		if !ok {
			end, err := it.End()
			if err != nil || jsontext.SkipSpace(b, end) != len(b) {
				return nil, false
			}
			return dst, true
		}
		if flatOnly && !flat(value) {
			return nil, false
		}
		dst = append(dst, member{unquote(name), value})
	}
}

// checkedElements appends to dst the first keep elements of arr and
// returns how many arr holds, counting the rest without keeping them, and
// whether arr is one JSON array with nothing after it: it checks and
// splits in one pass.
func checkedElements(dst []json.RawMessage, arr []byte, keep int) (_ []json.RawMessage, n int, ok bool) {
	for it := jsontext.NewChecked(arr, 0); ; n++ {
		_, value, more := it.Next()
		if !more {
			end, err := it.End()
			return dst, n, err == nil && jsontext.SkipSpace(arr, end) == len(arr)
		}
		if n < keep {
			dst = append(dst, value)
		}
	}
}

// unquote returns the string a valid JSON string literal s holds. Plain
// ASCII without escapes is the common case and is cut out of s directly;
// the rest is left to encoding/json, which also replaces invalid UTF-8.
func unquote(s []byte) []byte {
	plain := true
	for _, c := range s[1 : len(s)-1] {
		if c == '\\' || c >= 0x80 {
			plain = false
			break
		}
	}
	if plain {
		return s[1 : len(s)-1]
	}
	var v string
	json.Unmarshal(s, &v) // valid JSON: cannot fail
	return []byte(v)
}
