package chain

import (
	"context"
	"errors"
	"fmt"

	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/devnet"
	"github.com/didlight/didlight/host/internal/ledgerstore"
	"github.com/didlight/didlight/host/internal/mempool"
	"github.com/didlight/didlight/host/internal/store"
)

// ErrNotFound is returned for an unknown block, transaction, confirm or
// asset.
var ErrNotFound = ledgerstore.ErrNotFound

// errClosed is the error of calls on a closed chain, the one its mempool
// answers with: it wraps store.ErrClosed, which callers test for with
// errors.Is.
var errClosed = mempool.ErrClosed

// ErrReset is returned to SubmitRequest callers whose transaction was
// pending when the chain was reset: the mempool's answer.
var ErrReset = mempool.ErrReset

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

// Kind is what an error of the chain means for its caller. Every error a
// Chain method returns is of one kind, which KindOf tells, so that each
// API answers it in its own terms from one switch.
type Kind int

// The kinds of errors.
const (
	KindFailed   Kind = iota // the store failed or holds what does not decode: the node's fault, to log
	KindInvalid              // an argument the chain cannot take: ErrQuery, ErrBadTime, devnet.ErrUnknownSnapshot
	KindNotFound             // ErrNotFound
	KindRejected             // a transaction the chain refuses: a *RejectError, with its code
	KindStopped              // the chain closed (store.ErrClosed) or was reset (ErrReset), or the caller's context ended
)

// KindOf returns the kind of err, a non-nil error of the chain.
func KindOf(err error) Kind {
	switch {
	case errors.Is(err, ErrQuery), errors.Is(err, ErrBadTime), errors.Is(err, devnet.ErrUnknownSnapshot):
		return KindInvalid
	case errors.Is(err, ErrNotFound):
		return KindNotFound
	case errors.Is(err, store.ErrClosed), errors.Is(err, ErrReset),
		errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return KindStopped
	}
	if _, ok := errors.AsType[*RejectError](err); ok {
		return KindRejected
	}
	return KindFailed
}
