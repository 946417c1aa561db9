package ela

import (
	"errors"
	"fmt"
)

// The kinds of decoding failure. A *DecodeError wraps one of them, so callers
// test with errors.Is(err, ela.ErrTruncated) and read where it happened from
// the [DecodeError] itself.
var (
	// ErrTruncated: the input ends inside a field.
	ErrTruncated = errors.New("truncated")
	// ErrTrailingData: bytes are left after a complete object.
	ErrTrailingData = errors.New("trailing data")
	// ErrNonCanonical: a variable-length integer uses a longer form than its
	// value needs, so the same value would have two encodings.
	ErrNonCanonical = errors.New("non-canonical encoding")
	// ErrTooLarge: a count or length exceeds a limit of the format or of this
	// package (see the Max constants), or the data left in the input.
	ErrTooLarge = errors.New("too large")
	// ErrInvalid: a field holds a value the format does not allow, such as a
	// negative amount or an unknown attribute usage.
	ErrInvalid = errors.New("invalid value")
	// ErrUnsupported: a well-formed value this package does not decode, such
	// as a transaction type the identity chain does not carry.
	ErrUnsupported = errors.New("unsupported")
)

// DecodeError reports where binary or JSON input went wrong: the object being
// decoded, the byte offset (binary input only, else -1), the field path such
// as "inputs[2].sequence", and the kind of failure (one of the Err values
// above, wrapped with detail).
type DecodeError struct {
	Object string // "tx", "block", "confirm", "tx JSON", ...
	Offset int    // byte offset of the field in binary input; -1 for JSON
	Field  string // dotted path of the field
	Err    error  // wraps ErrTruncated, ErrInvalid, ...
}

// Error says what was decoded, which field at which offset, and what is
// wrong with it.
func (e *DecodeError) Error() string {
	if e.Offset < 0 {
		return fmt.Sprintf("ela: %s: %s: %v", e.Object, e.Field, e.Err)
	}
	return fmt.Sprintf("ela: %s: %s at offset %d: %v", e.Object, e.Field, e.Offset, e.Err)
}

// Unwrap returns the kind of failure with its detail, for errors.Is.
func (e *DecodeError) Unwrap() error { return e.Err }

// checkInputSize rejects binary input above [MaxBlockSize] before decoding.
func checkInputSize(object string, b []byte) *DecodeError {
	if len(b) <= MaxBlockSize {
		return nil
	}
	return &DecodeError{Object: object, Offset: 0, Field: "size",
		Err: fmt.Errorf("%w: %d bytes, at most %d", ErrTooLarge, len(b), MaxBlockSize)}
}

// ErrSignature is wrapped by every failure of VerifyPrograms and
// [Confirm.Verify]: a missing, surplus, malformed or invalid program or
// signature.
var ErrSignature = errors.New("signature check failed")
