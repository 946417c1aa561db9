package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/didlight/didlight/core/excerpt"
	"github.com/didlight/didlight/core/jsontext"
)

// Request is one decoded call. ID is the raw JSON of the id (a string, an
// integer or null), ready to be echoed.
type Request struct {
	Method string
	Params json.RawMessage
	ID     json.RawMessage

	// Notification reports a 2.0 request without an id member: the server
	// must not answer it, not even with an error (JSON-RPC 2.0, section 4.1).
	Notification bool
}

// Call is one element of a body: a Request, or the Error that made it
// invalid (then ID is null, or the request's id when that was valid). An
// invalid call is answered even without an id.
type Call struct {
	Request
	Err *Error
}

// MaxBatch is the most calls one body may hold; a larger batch is refused as
// a whole, so that one request cannot make the server do unbounded work.
const MaxBatch = 100

// Version is the protocol version a 2.0 request names.
const Version = "2.0"

var null = json.RawMessage("null")

// Decode parses a request body. batch reports whether the body was an array,
// so that the answer has the same shape. A body that is not JSON, an empty
// array or a batch over MaxBatch returns a single error and no calls. The
// calls' ID and Params are parts of body, not copies: body must not change
// while they are used.
func Decode(body []byte) (calls []Call, batch bool, err *Error) {
	body = bytes.TrimSpace(body)
	if len(body) > 0 && body[0] == '[' {
		return decodeBatch(body)
	}
	var buf [4]member
	ms, ok := checkedMembers(buf[:0], body, false) // checked and split in one pass
	switch {
	case ok:
		return []Call{decodeMembers(ms)}, false, nil
	case !jsontext.Valid(body):
		return nil, false, notJSON(body)
	}
	return []Call{decodeOne(body)}, false, nil // JSON, but no object
}

// decodeBatch decodes a body that is an array of calls, checked and split
// in one pass.
func decodeBatch(body []byte) ([]Call, bool, *Error) {
	raws, n, ok := checkedElements(nil, body, MaxBatch)
	switch {
	case !ok:
		return nil, false, notJSON(body)
	case n == 0:
		return nil, true, InvalidRequest("empty batch")
	case n > MaxBatch:
		return nil, true, InvalidRequest(fmt.Sprintf("batch of %d calls, at most %d", n, MaxBatch))
	}
	calls := make([]Call, n)
	for i, raw := range raws {
		calls[i] = decodeOne(raw)
	}
	return calls, true, nil
}

// notJSON says where a body that is not JSON stops being JSON; it builds
// nothing.
func notJSON(body []byte) *Error {
	err := json.Unmarshal(body, new(struct{}))
	var syntax *json.SyntaxError
	if !errors.As(err, &syntax) {
		return ParseError("not JSON") // encoding/json finds it JSON: cannot be, as Scan answers as it does
	}
	at := int(syntax.Offset)
	if at >= len(body) {
		return ParseError(fmt.Sprintf("unexpected end of the JSON text at byte %d", len(body)))
	}
	return ParseError(fmt.Sprintf("not JSON: unexpected %s at byte %d", excerpt.Quote(string(body[max(at-1, 0):at])), at))
}

// decodeOne reads one request object of a batch.
func decodeOne(raw json.RawMessage) Call {
	if len(raw) == 0 || raw[0] != '{' {
		return Call{Request: Request{ID: null}, Err: InvalidRequest("a request is a JSON object, got " + kind(raw))}
	}
	var buf [4]member
	return decodeMembers(members(buf[:0], raw))
}

// decodeMembers reads one request object from its members. They are read
// by name, exactly (JSON-RPC names are case-sensitive), and checked one by
// one so that an error says which member is wrong and what it should be.
func decodeMembers(ms []member) Call {
	invalid := func(id json.RawMessage, format string, args ...any) Call {
		return Call{Request: Request{ID: id}, Err: InvalidRequest(fmt.Sprintf(format, args...))}
	}
	idRaw, hasID := lastMember(ms, "id")
	id, err := checkID(idRaw)
	if err != nil {
		return invalid(null, "%v", err)
	}
	versionRaw, _ := lastMember(ms, "jsonrpc")
	version, err := checkVersion(versionRaw)
	if err != nil {
		return invalid(null, "%v", err)
	}
	m, ok := lastMember(ms, "method")
	if ok && m[0] != '"' {
		return invalid(null, "method: want a string, got %s", kind(m))
	}
	var method string
	if ok {
		method = string(unquote(m))
	}
	if method == "" {
		return invalid(id, "method is missing")
	}
	params, _ := lastMember(ms, "params")
	return Call{Request: Request{Method: method, Params: params, ID: id, Notification: version == Version && !hasID}}
}

// checkVersion reads the jsonrpc member: "2.0"; or absent, empty (as ela-cli
// sends it) or "1.0", all answered as 2.0. It returns the version given.
func checkVersion(raw json.RawMessage) (string, error) {
	if raw == nil {
		return "", nil
	}
	if len(raw) == 0 || raw[0] != '"' {
		return "", fmt.Errorf("jsonrpc: want %q, got %s", Version, kind(raw))
	}
	v := unquote(raw) // raw is a part of a valid body
	for _, known := range []string{Version, "", "1.0"} {
		if string(v) == known {
			return known, nil
		}
	}
	return "", fmt.Errorf("jsonrpc is %s, want %q", excerpt.Quote(string(v)), Version)
}

// checkID returns the id to echo: null when absent; an error for an id that
// is not a string, an integer or null.
func checkID(id json.RawMessage) (json.RawMessage, error) {
	if len(id) == 0 {
		return null, nil
	}
	switch id[0] {
	case '"':
		return id, nil
	case 'n':
		return null, nil
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if bytes.ContainsAny(id, ".eE") {
			return nil, fmt.Errorf("id %s is not an integer", excerpt.Bytes(id))
		}
		return id, nil
	}
	return nil, fmt.Errorf("id is %s, want a string, an integer or null", kind(id))
}

// kind names the JSON type of raw for error messages.
func kind(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// DecodeParams unmarshals params into v, a pointer to a struct whose json
// tags name the parameters. It accepts an object, or an array holding
// exactly one object (the form the Elastos DID SDKs send). A member that
// names no parameter is refused, so that a misspelt parameter is reported,
// not ignored; names are matched exactly. Errors name the parameter and
// what it should be ("limit: want an integer").
func DecodeParams(params json.RawMessage, v any) *Error {
	params = bytes.TrimSpace(params)
	if len(params) > 0 && params[0] == '[' {
		list, n, ok := checkedElements(nil, params, 1)
		if !ok {
			return InvalidParams("params: want an object, or an array holding one object")
		}
		if n != 1 {
			return InvalidParams(fmt.Sprintf("params array holds %d elements, want one object", n))
		}
		params = list[0]
	}
	if len(params) == 0 || params[0] != '{' {
		return InvalidParams(fmt.Sprintf("params is %s, want an object", kind(params)))
	}
	if decodePlain(params, v) {
		return nil
	}
	// Unmarshal checks the JSON as it decodes, in one pass; a misspelt name
	// is reported before what is wrong with a value.
	err := json.Unmarshal(params, v)
	if _, syntax := errors.AsType[*json.SyntaxError](err); syntax {
		return InvalidParams("params: want an object")
	}
	t := reflect.TypeOf(v)
	for _, m := range members(nil, params) {
		if !hasParam(t, m.name) {
			return InvalidParams(fmt.Sprintf("unknown parameter %s: want %s", excerpt.Quote(string(m.name)), orList(paramNames(t))))
		}
	}
	if err != nil {
		return InvalidParams(DescribeError(err, "params"))
	}
	return nil
}

// hasParam reports whether the struct t points to has a parameter name
// (see paramNames), without building the list.
func hasParam(t reflect.Type, name []byte) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return false
	}
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() && string(name) != "-" && paramName(f) == string(name) {
			return true
		}
	}
	return false
}

// paramNames returns the parameter names of the struct t points to: its
// fields' json names.
func paramNames(t reflect.Type) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	names := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() && paramName(f) != "-" {
			names = append(names, paramName(f))
		}
	}
	return names
}

// paramName is the parameter name of field f: its json name, its Go name
// when the tag gives none, "-" when it is not a parameter.
func paramName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		return f.Name
	}
	return name
}

// orList writes names as "a, b or c" ("no parameters" for none).
func orList(names []string) string {
	switch len(names) {
	case 0:
		return "no parameters"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// DescribeError says what is wrong with JSON that encoding/json refused to
// decode into a struct, in the terms of JSON rather than of Go: which
// member, and the JSON it wants ("limit: want an integer"), or where the
// text stops being JSON. whole names the value decoded, for errors about
// all of it.
func DescribeError(err error, whole string) string {
	var typ *json.UnmarshalTypeError
	var syntax *json.SyntaxError
	switch {
	case errors.As(err, &typ):
		name := typ.Field
		if name == "" {
			name = whole
		}
		return name + ": want " + jsonKind(typ.Type)
	case errors.As(err, &syntax):
		return fmt.Sprintf("%s: not JSON (at byte %d)", whole, syntax.Offset)
	}
	return whole + ": want an object"
}

// jsonKind names the JSON values a Go type takes.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer of 0 or more"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "an object"
}
