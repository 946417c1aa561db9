package jsonrpc

import (
	"fmt"

	"github.com/didlight/didlight/core/excerpt"
)

// Error codes of JSON-RPC 2.0 and of the resolver interface.
const (
	CodeParseError     = -32700 // invalid JSON
	CodeInvalidRequest = -32600 // JSON that is not a request object
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
	CodeResolverError  = -32001 // the resolver could not execute the request
	CodeRefused        = -32003 // the server's policy refuses the request (a web page of another site, a form)
)

// Error is a JSON-RPC error object. It implements error so that method
// handlers can return one directly.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

// Error returns the message and code.
func (e *Error) Error() string {
	if e.Data != nil {
		return fmt.Sprintf("jsonrpc %d: %s (%v)", e.Code, e.Message, e.Data)
	}
	return fmt.Sprintf("jsonrpc %d: %s", e.Code, e.Message)
}

// Errorf returns an Error with code and message, and data formatted from
// format and args: the detail that says which value was wrong.
func Errorf(code int, message, format string, args ...any) *Error {
	return &Error{Code: code, Message: message, Data: fmt.Sprintf(format, args...)}
}

// Constructors for the errors the spec names, each with an optional detail.

// ParseError reports a body that is not JSON.
func ParseError(detail string) *Error { return withData(CodeParseError, "Parse error", detail) }

// InvalidRequest reports JSON that is not a request object.
func InvalidRequest(detail string) *Error {
	return withData(CodeInvalidRequest, "Invalid Request", detail)
}

// MethodNotFound reports an unknown method, naming it.
func MethodNotFound(method string) *Error {
	return withData(CodeMethodNotFound, "Method not found", "no method "+excerpt.Quote(method))
}

// InvalidParams reports parameters a method cannot use.
func InvalidParams(detail string) *Error {
	return withData(CodeInvalidParams, "Invalid params", detail)
}

// QueryParamsInvalid is the resolver's answer to a query without exactly one
// of service, credential and query.
func QueryParamsInvalid(detail string) *Error {
	return withData(CodeInvalidParams, "Query parameters invalid.", detail)
}

// Refused reports a request the server's policy refuses to serve, such as
// a control sent by a web page of another site; detail says why.
func Refused(detail string) *Error { return withData(CodeRefused, "Request refused", detail) }

// InternalError reports a failure of the server itself.
func InternalError(detail string) *Error {
	return withData(CodeInternalError, "Internal error", detail)
}

// ResolverError reports that the resolver could not execute the request,
// for example because its store failed.
func ResolverError(detail string) *Error {
	return withData(CodeResolverError, "Resolver internal error.", detail)
}

func withData(code int, message, detail string) *Error {
	e := &Error{Code: code, Message: message}
	if detail != "" {
		e.Data = detail
	}
	return e
}
