package light

import (
	"errors"
	"fmt"

	"github.com/didlight/didlight/core/jsonrpc"
	"github.com/didlight/didlight/host/client"
)

// UpstreamError is a request the upstream gave no result for: it did not
// answer in time, answered something that is not a JSON-RPC answer of the
// method, or answered with an error of its own.
type UpstreamError struct {
	Method  string // the upstream's method (did_resolveDID, eth_blockNumber, …)
	Subject string // what was asked about; "" for none
	Err     error  // usually an *eid.CallError of host/client/eid
}

func (e *UpstreamError) Error() string {
	return fmt.Sprintf("the upstream gave no answer to %s: %v", subject(e.Method, e.Subject), e.Err)
}

func (e *UpstreamError) Unwrap() error { return e.Err }

// RPCError is how JSON-RPC answers the failure: the upstream's own error
// about the request as it gave it (EID's -32000 "did is not exist" for
// did_listCredentials of an unknown DID, say), else -32001 with what
// failed in data.
func (e *UpstreamError) RPCError() *jsonrpc.Error {
	if re, ok := errors.AsType[*client.RPCError](e.Err); ok && !unserved(re.Code) {
		return &jsonrpc.Error{Code: re.Code, Message: re.Message, Data: re.Data}
	}
	return jsonrpc.ResolverError(e.Error())
}

// unserved reports a JSON-RPC error code that says an endpoint did not
// serve the request at all (no such method, a request it could not read):
// about the upstream, not the request.
func unserved(code int) bool {
	return code == jsonrpc.CodeMethodNotFound || code == jsonrpc.CodeInvalidRequest || code == jsonrpc.CodeParseError
}

// RefusedError is an answer of the upstream that failed verification: it
// is never served nor kept.
type RefusedError struct {
	Method  string
	Subject string
	Err     error // what failed: a *resolve.VerifyError, or how the answer differs from EID's
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("the upstream's answer to %s does not verify: %v", subject(e.Method, e.Subject), e.Err)
}

func (e *RefusedError) Unwrap() error { return e.Err }

// RPCError is how JSON-RPC answers it: -32001 "Resolver internal error."
// with what failed in data.
func (e *RefusedError) RPCError() *jsonrpc.Error { return jsonrpc.ResolverError(e.Error()) }

func subject(method, s string) string {
	if s == "" {
		return method
	}
	return method + " " + s
}

// failed counts and logs a request the upstream did not answer, and
// returns its error. It is called once per request to the upstream, in the
// flight that made it, whose askers share the error.
func (r *Resolver) failed(method, subject string, err error) error {
	ue := &UpstreamError{Method: method, Subject: subject, Err: err}
	r.counts.failed.Add(1)
	r.counts.event(&r.counts.failures, ue.Error(), func(more int) {
		r.log.Warn("the upstream failed", "method", ue.Method, "subject", ue.Subject, "err", ue.Err, "failures since the last line", more)
	})
	return ue
}

// refused counts and logs an answer that failed verification, and returns
// its error.
func (r *Resolver) refused(method, subject string, err error) error {
	e := &RefusedError{Method: method, Subject: subject, Err: err}
	r.counts.refused.Add(1)
	r.counts.event(&r.counts.refusals, e.Error(), func(more int) {
		r.log.Warn("refused an answer of the upstream that does not verify", "method", method, "subject", subject, "err", err, "refusals since the last line", more)
	})
	return e
}
