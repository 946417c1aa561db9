package jsonrpc

import (
	"encoding/json"

	"github.com/didlight/didlight/core/jsontext"
)

// A request body is checked once (jsontext.Valid, as json.Valid) and then split by the small
// scanner below, which may assume valid JSON: it finds where values end
// and leaves them raw, as json.RawMessage does, but builds no map and no
// copy. A server reads every body this way, so it matters: decoding the
// envelope and the params into encoding/json maps took 16% of the node's
// CPU under loadbench's resolvedid load, two fifths of what the handler
// cost (docs/benchmarks.md). FuzzMembers holds it to encoding/json's
// answers.

// members appends to dst the members of obj, a valid JSON object, in
// order: each name as encoding/json unescapes it, and its value's raw JSON
// (both parts of obj, not copies, but for a name with escapes). Names may
// repeat; encoding/json keeps the last. A caller passes an array of its
// own (a request has four members, a resolve's params two) so that the
// common case allocates nothing.
func members(dst []member, obj []byte) []member {
	out := dst
	items(obj, '}', func(i int) int {
		end := jsontext.StringEnd(obj, i)
		name := unquote(obj[i:end])
		i = jsontext.SkipSpace(obj, jsontext.SkipSpace(obj, end)+1) // past ':'
		end = jsontext.End(obj, i)
		out = append(out, member{name, obj[i:end]})
		return end
	})
	return out
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

// elements returns the raw JSON of each element of arr, a valid JSON array.
func elements(arr []byte) []json.RawMessage {
	var out []json.RawMessage
	items(arr, ']', func(i int) int {
		end := jsontext.End(arr, i)
		out = append(out, json.RawMessage(arr[i:end]))
		return end
	})
	return out
}

// items calls item with the index of each member or element of b, a valid
// JSON object or array that close ends; item returns the index just past
// it.
func items(b []byte, close byte, item func(i int) int) {
	i := jsontext.SkipSpace(b, 0) + 1 // past the opening bracket
	for {
		if i = jsontext.SkipSpace(b, i); b[i] == close {
			return
		}
		if i = jsontext.SkipSpace(b, item(i)); b[i] == close {
			return
		}
		i++ // past ','
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
