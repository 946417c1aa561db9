package jsonrpc

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Request is one decoded call. ID is the raw JSON of the id (a string, an
// integer or null), ready to be echoed.
type Request struct {
	Method string
	Params json.RawMessage
	ID     json.RawMessage
}

// Call is one element of a body: a Request, or the Error that made it
// invalid (then ID is null).
type Call struct {
	Request
	Err *Error
}

// MaxBatch is the most calls one body may hold; a larger batch is refused as
// a whole, so that one request cannot make the server do unbounded work.
const MaxBatch = 100

var null = json.RawMessage("null")

// Decode parses a request body. batch reports whether the body was an array,
// so that the answer has the same shape. A body that is not JSON, an empty
// array or a batch over MaxBatch returns a single error and no calls.
func Decode(body []byte) (calls []Call, batch bool, err *Error) {
	body = bytes.TrimSpace(body)
	if !json.Valid(body) {
		return nil, false, ParseError(syntaxDetail(body))
	}
	if len(body) > 0 && body[0] == '[' {
		var raws []json.RawMessage
		if err := json.Unmarshal(body, &raws); err != nil {
			return nil, true, InvalidRequest(err.Error())
		}
		switch {
		case len(raws) == 0:
			return nil, true, InvalidRequest("empty batch")
		case len(raws) > MaxBatch:
			return nil, true, InvalidRequest(fmt.Sprintf("batch of %d calls, at most %d", len(raws), MaxBatch))
		}
		calls = make([]Call, len(raws))
		for i, raw := range raws {
			calls[i] = decodeOne(raw)
		}
		return calls, true, nil
	}
	return []Call{decodeOne(body)}, false, nil
}

func syntaxDetail(body []byte) string {
	var v any
	err := json.Unmarshal(body, &v)
	if err == nil {
		return "invalid JSON"
	}
	return err.Error()
}

// wireRequest is a request as it arrives. Pointers tell absent from null.
type wireRequest struct {
	JSONRPC *string         `json:"jsonrpc"`
	Method  *string         `json:"method"`
	Params  json.RawMessage `json:"params"`
	ID      json.RawMessage `json:"id"`
}

func decodeOne(raw json.RawMessage) Call {
	invalid := func(format string, args ...any) Call {
		return Call{Request: Request{ID: null}, Err: InvalidRequest(fmt.Sprintf(format, args...))}
	}
	if len(raw) == 0 || raw[0] != '{' {
		return invalid("a request is a JSON object, got %s", kind(raw))
	}
	var w wireRequest
	if err := json.Unmarshal(raw, &w); err != nil {
		return invalid("%v", err)
	}
	id, err := checkID(w.ID)
	if err != nil {
		return invalid("%v", err)
	}
	switch {
	case w.JSONRPC != nil && *w.JSONRPC != "2.0" && *w.JSONRPC != "1.0" && *w.JSONRPC != "":
		return invalid("jsonrpc is %q, want \"2.0\"", *w.JSONRPC)
	case w.Method == nil || *w.Method == "":
		return Call{Request: Request{ID: id}, Err: InvalidRequest("method is missing")}
	}
	return Call{Request: Request{Method: *w.Method, Params: w.Params, ID: id}}
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
			return nil, fmt.Errorf("id %s is not an integer", id)
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

// DecodeParams unmarshals params into v. It accepts an object, or an array
// holding exactly one object (the form the Elastos DID SDKs send). Unknown
// members are refused so that a misspelt parameter is reported, not ignored.
func DecodeParams(params json.RawMessage, v any) *Error {
	params = bytes.TrimSpace(params)
	if len(params) > 0 && params[0] == '[' {
		var list []json.RawMessage
		if err := json.Unmarshal(params, &list); err != nil {
			return InvalidParams(err.Error())
		}
		if len(list) != 1 {
			return InvalidParams(fmt.Sprintf("params array holds %d elements, want one object", len(list)))
		}
		params = bytes.TrimSpace(list[0])
	}
	if len(params) == 0 || params[0] != '{' {
		return InvalidParams(fmt.Sprintf("params is %s, want an object", kind(params)))
	}
	dec := json.NewDecoder(bytes.NewReader(params))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return InvalidParams(err.Error())
	}
	return nil
}
