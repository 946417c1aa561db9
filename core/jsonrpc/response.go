package jsonrpc

import "encoding/json"

// Response is one answer. Exactly one of Result and Error is set.
type Response struct {
	JSONRPC string          `json:"jsonrpc"`
	Result  any             `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
	ID      json.RawMessage `json:"id"`
}

// Result answers the call with id.
func Result(id json.RawMessage, result any) Response {
	return Response{JSONRPC: "2.0", Result: result, ID: orNull(id)}
}

// Failure answers the call with id with an error.
func Failure(id json.RawMessage, err *Error) Response {
	return Response{JSONRPC: "2.0", Error: err, ID: orNull(id)}
}

func orNull(id json.RawMessage) json.RawMessage {
	if len(id) == 0 {
		return null
	}
	return id
}
