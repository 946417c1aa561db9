package eid

import (
	"errors"
	"fmt"
	"strings"

	"github.com/didlight/didlight/host/client"
)

// Errors an attempt at one endpoint can fail with, wrapped in the
// *client.UnreachableError that names the endpoint.
var (
	// ErrTooLarge is an answer longer than Config.MaxAnswer.
	ErrTooLarge = errors.New("answer too large")
	// ErrWrongID is an answer whose id is not the request's.
	ErrWrongID = errors.New("answer to another request")
	// ErrNotJSONRPC is an answer that is not a JSON-RPC 2.0 response.
	ErrNotJSONRPC = errors.New("not a JSON-RPC 2.0 answer")
	// ErrBudget is an endpoint whose request budget allows no request
	// before the call's deadline.
	ErrBudget = errors.New("request budget spent")
	// ErrWrongChain is an endpoint that serves another chain than the
	// Network's.
	ErrWrongChain = errors.New("another chain")
)

// ErrNotFound is a transaction or block the chain does not have (the node
// answered null).
var ErrNotFound = errors.New("not found")

// CallError is a call that got no result: what each endpoint it tried
// answered, or why it gave up. Each Failure's Err is a
// *client.UnreachableError (no usable answer) or a *client.RPCError (the
// node answered with an error, which ends the call), so that errors.As
// finds them as it does for a didlight node's client.
type CallError struct {
	Method   string    // the JSON-RPC method
	Subject  string    // the value asked about (a DID, a hash), "" for none
	Failures []Failure // the last failure of each endpoint tried, in the order tried
	Err      error     // why the call stopped before an endpoint answered: the call's timeout, the caller's context; nil when every endpoint failed
}

// Failure is how one endpoint failed a call.
type Failure struct {
	Endpoint string
	Tries    int
	Err      error
}

func (e *CallError) Error() string {
	var b strings.Builder
	b.WriteString("eid: " + e.Method)
	if e.Subject != "" {
		b.WriteString(" " + e.Subject)
	}
	if len(e.Failures) == 0 && e.Err == nil {
		b.WriteString(": no endpoint to ask")
	}
	for i, f := range e.Failures {
		sep := "; "
		if i == 0 {
			sep = ": "
		}
		fmt.Fprintf(&b, "%s%s: %s", sep, f.Endpoint, cause(f.Err))
		if f.Tries > 1 {
			fmt.Fprintf(&b, " (%d tries)", f.Tries)
		}
	}
	if e.Err != nil {
		sep := ": "
		if len(e.Failures) > 0 {
			sep = "; then "
		}
		fmt.Fprintf(&b, "%s%v", sep, e.Err)
	}
	return b.String()
}

// Unwrap returns each endpoint's failure and the reason the call stopped.
func (e *CallError) Unwrap() []error {
	errs := make([]error, 0, len(e.Failures)+1)
	for _, f := range e.Failures {
		errs = append(errs, f.Err)
	}
	if e.Err != nil {
		errs = append(errs, e.Err)
	}
	return errs
}

// cause is what went wrong at an endpoint, without the URL (the failure
// names it) or the advice for a didlight node an UnreachableError gives.
func cause(err error) string {
	if ue, ok := errors.AsType[*client.UnreachableError](err); ok {
		return ue.Err.Error()
	}
	return err.Error()
}
