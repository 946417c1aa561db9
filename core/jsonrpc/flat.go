package jsonrpc

import (
	"bytes"

	"github.com/didlight/didlight/core/jsontext"
)

// flatMembers appends to dst the members of b and reports true when b is
// a JSON object whose values are all strings, true, false or integers
// (no fraction, no exponent): a call's plain params, checked and split in
// one pass instead of encoding/json's check and then members. On anything
// else, text that is not JSON included, it reports false, and the caller
// leaves b to encoding/json. It accepts only what encoding/json's scanner
// accepts (FuzzFlatMembers holds it to json.Valid and to members).
func flatMembers(dst []member, b []byte) ([]member, bool) {
	i := jsontext.SkipSpace(b, 0)
	if i == len(b) || b[i] != '{' {
		return nil, false
	}
	if i = jsontext.SkipSpace(b, i+1); i < len(b) && b[i] == '}' {
		return closed(dst, b, i)
	}
	for {
		nameEnd, ok := scanString(b, i)
		if !ok {
			return nil, false
		}
		j := jsontext.SkipSpace(b, nameEnd)
		if j == len(b) || b[j] != ':' {
			return nil, false
		}
		j = jsontext.SkipSpace(b, j+1)
		end, ok := scanFlatValue(b, j)
		if !ok {
			return nil, false
		}
		dst = append(dst, member{unquote(b[i:nameEnd]), b[j:end]})
		if i = jsontext.SkipSpace(b, end); i == len(b) {
			return nil, false
		}
		switch b[i] {
		case ',':
			i = jsontext.SkipSpace(b, i+1)
		case '}':
			return closed(dst, b, i)
		default:
			return nil, false
		}
	}
}

// closed returns dst, the members of an object that closes at b[i], when
// nothing but whitespace follows.
func closed(dst []member, b []byte, i int) ([]member, bool) {
	if jsontext.SkipSpace(b, i+1) != len(b) {
		return nil, false
	}
	return dst, true
}

// scanFlatValue returns the index just past the string, true, false or
// integer at b[i], and false for any other value or text that is not JSON.
func scanFlatValue(b []byte, i int) (int, bool) {
	if i == len(b) {
		return 0, false
	}
	switch c := b[i]; {
	case c == '"' || c == 't' || c == 'f':
		return jsontext.ValidValue(b, i)
	case c != '-' && !jsontext.IsDigit(c):
		return 0, false
	}
	end, ok := jsontext.ValidValue(b, i)
	if !ok || bytes.ContainsAny(b[i:end], ".eE") {
		return 0, false
	}
	return end, true
}

// scanString returns the index just past the JSON string literal at b[i],
// and false when there is none.
func scanString(b []byte, i int) (int, bool) {
	if i == len(b) || b[i] != '"' {
		return 0, false
	}
	return jsontext.ValidValue(b, i)
}
