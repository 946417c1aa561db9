package w3c

import "github.com/didlight/didlight/core/excerpt"

// ErrorType is the type URI of a resolution or dereferencing error, as the
// DID Resolution draft lists them (§Errors).
type ErrorType string

// The error types this package gives.
const (
	InvalidDID                 ErrorType = "https://www.w3.org/ns/did#INVALID_DID"
	InvalidDIDURL              ErrorType = "https://www.w3.org/ns/did#INVALID_DID_URL"
	InvalidOptions             ErrorType = "https://www.w3.org/ns/did#INVALID_OPTIONS"
	NotFound                   ErrorType = "https://www.w3.org/ns/did#NOT_FOUND"
	RepresentationNotSupported ErrorType = "https://www.w3.org/ns/did#REPRESENTATION_NOT_SUPPORTED"
	MethodNotSupported         ErrorType = "https://www.w3.org/ns/did#METHOD_NOT_SUPPORTED"
	FeatureNotSupported        ErrorType = "https://www.w3.org/ns/did#FEATURE_NOT_SUPPORTED"
	InternalError              ErrorType = "https://www.w3.org/ns/did#INTERNAL_ERROR"
)

// Status returns the HTTP status the binding gives an error of type t
// (the table of the draft's HTTP(S) binding): 400, 404, 406, 501, and 500
// for INTERNAL_ERROR and any type it does not list.
func (t ErrorType) Status() int {
	switch t {
	case InvalidDID, InvalidDIDURL, InvalidOptions:
		return 400
	case NotFound:
		return 404
	case RepresentationNotSupported:
		return 406
	case MethodNotSupported, FeatureNotSupported:
		return 501
	}
	return 500
}

// title is the short text of the error object's title member.
func (t ErrorType) title() string {
	switch t {
	case InvalidDID:
		return "The DID is not valid."
	case InvalidDIDURL:
		return "The DID URL is not valid."
	case InvalidOptions:
		return "The resolution options are not valid."
	case NotFound:
		return "Nothing was found at this DID or DID URL."
	case RepresentationNotSupported:
		return "No acceptable representation."
	case MethodNotSupported:
		return "This resolver resolves did:elastos only."
	case FeatureNotSupported:
		return "This resolver does not support the feature asked for."
	}
	return "The resolver failed."
}

// Error is an answer that is not the content asked for: its type and what
// was wrong, which the result carries as an RFC 9457 problem object
// ({type, title, detail}) in its resolution or dereferencing metadata.
type Error struct {
	Type   ErrorType
	Detail string
}

func (e *Error) Error() string { return "w3c: " + e.Type.title() + " " + e.Detail }

func fail(t ErrorType, detail string) *Error { return &Error{Type: t, Detail: detail} }

// echo quotes a caller's input for an error detail, at most its start
// (see package excerpt), so that a long input is not sent back whole.
func echo(s string) string { return excerpt.Quote(s) }
