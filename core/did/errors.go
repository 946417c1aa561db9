package did

import (
	"errors"
	"fmt"
)

// Kinds of errors. Every error this package returns for a document or
// credential matches one of them with errors.Is, so that callers can tell a
// malformed document from one whose proof fails.
var (
	ErrMalformed  = errors.New("malformed")
	ErrExpires    = errors.New("expires is not an RFC 3339 UTC date-time")
	ErrDefaultKey = errors.New("no default key derives the DID")
	ErrProof      = errors.New("proof does not verify")
	ErrKey        = errors.New("not a key allowed to sign")
	ErrNoDocument = errors.New("document of a controller or issuer not available")
)

// Error is an error about a document, a credential or a key, of one of the
// kinds above.
type Error struct {
	Kind error // one of the Err* values
	Msg  string
	Err  error // the underlying cause, if any
}

func (e *Error) Error() string {
	if e.Err != nil {
		return "did: " + e.Msg + ": " + e.Err.Error()
	}
	return "did: " + e.Msg
}

// Unwrap returns the kind and the cause, so errors.Is sees both.
func (e *Error) Unwrap() []error {
	if e.Err != nil {
		return []error{e.Kind, e.Err}
	}
	return []error{e.Kind}
}

func errorf(kind error, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

func wrap(kind error, err error, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...), Err: err}
}
