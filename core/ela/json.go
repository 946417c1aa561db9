package ela

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
)

// Helpers for reading the JSON forms back. Their errors are *DecodeError
// values with Offset -1; a field path grows as errors pass up through
// within, and the top-level conversion names the object.

func fieldErrorf(field string, kind error, format string, args ...any) error {
	return &DecodeError{Offset: -1, Field: field, Err: fmt.Errorf("%w: %s", kind, fmt.Sprintf(format, args...))}
}

// within prefixes the field path of a *DecodeError.
func within(prefix string, err error) error {
	var de *DecodeError
	if errors.As(err, &de) {
		if de.Field == "" {
			de.Field = prefix
		} else {
			de.Field = prefix + "." + de.Field
		}
	}
	return err
}

// named sets the object a conversion error is about.
func named(object string, err error) error {
	var de *DecodeError
	if errors.As(err, &de) {
		de.Object = object
	}
	return err
}

func indexed(name string, i int) string { return name + "[" + strconv.Itoa(i) + "]" }

func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// hexField decodes hex; the empty string gives nil.
func hexField(field, s string) ([]byte, error) {
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, fieldErrorf(field, ErrInvalid, "not hex: %v", err)
	}
	return bytesOrNil(b), nil
}

func bytesOrNil(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return b
}

func hashField(field, s string) (Hash, error) {
	h, err := ParseHash(s)
	if err != nil {
		return h, fieldErrorf(field, ErrInvalid, "%v", err)
	}
	return h, nil
}

// amountField parses an amount that must not be negative.
func amountField(field, s string) (Fixed64, error) {
	v, err := ParseFixed64(s)
	if err != nil {
		return 0, fieldErrorf(field, ErrInvalid, "%v", err)
	}
	if v < 0 {
		return 0, fieldErrorf(field, ErrInvalid, "negative amount %s", v)
	}
	return v, nil
}
