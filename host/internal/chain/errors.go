package chain

import (
	"errors"
	"fmt"

	"github.com/didlight/didlight/core/ledger"
)

// ErrNotFound is returned for an unknown block, transaction, confirm or
// asset.
var ErrNotFound = errors.New("chain: not found")

// ErrClosed is returned by calls on a closed chain.
var ErrClosed = errors.New("chain: closed")

// ErrReset is returned to SubmitRequest callers whose transaction was
// pending when the chain was reset.
var ErrReset = errors.New("chain: the chain was reset")

// RejectError is the error of a transaction the chain refuses. Code is the
// error code of the Elastos node APIs for the rule it breaks (see the
// constants of package core/ledger: 45010 double spend, 45009 an invalid
// payload, ...); Err says why, and wraps the *ledger.RuleError, and for an
// identity operation the *idop.RuleError, that decided it.
type RejectError struct {
	Code int
	Err  error
}

func (e *RejectError) Error() string {
	return fmt.Sprintf("chain: transaction rejected (%d %s): %v", e.Code, ledger.Code(e.Code), e.Err)
}

func (e *RejectError) Unwrap() error { return e.Err }

// reject wraps a rule error, or a plain error with the given code.
func reject(code ledger.Code, err error) *RejectError {
	return &RejectError{Code: int(code), Err: err}
}

// rejectf returns a RejectError with a *ledger.RuleError of code c.
func rejectf(c ledger.Code, format string, args ...any) *RejectError {
	return reject(c, ledger.Errorf(c, format, args...))
}

// asReject turns a *ledger.RuleError into a RejectError; any other error
// (a store failure) is returned as is.
func asReject(err error) error {
	if c := ledger.CodeOf(err); c != 0 {
		return reject(c, err)
	}
	return err
}
