package jsonrpc

import (
	"bytes"

	"github.com/didlight/didlight/core/jsontext"
)

// flatMembers appends to dst the members of b and reports true when b is
// a JSON object whose values are all strings, true, false or integers
// (no fraction, no exponent): a call's plain params, checked and split in
// one pass ([jsontext.Checked]) instead of encoding/json's check and then
// members. On anything else, text that is not JSON included, it reports
// false, and the caller leaves b to encoding/json. It accepts only what
// encoding/json's scanner accepts (FuzzFlatMembers holds it to json.Valid
// and to members).
func flatMembers(dst []member, b []byte) ([]member, bool) {
	return checkedMembers(dst, b, true)
}

// flat reports whether v, a JSON value, is a string, true, false or an
// integer.
func flat(v []byte) bool {
	switch c := v[0]; {
	case c == '"' || c == 't' || c == 'f':
		return true
	case c == '-' || jsontext.IsDigit(c):
		return !bytes.ContainsAny(v, ".eE")
	}
	return false
}
