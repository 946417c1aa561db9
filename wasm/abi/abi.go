package abi

import (
	"encoding/json"
	"fmt"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/keys"
)

// Version is the ABI version the module's abi_version export returns. It
// changes only when a host written for the old version would misread the
// new one; adding a call does not change it.
const Version = 1

// Env is what a call may ask of its host while it runs.
type Env struct {
	// Verifier checks P-256 signatures; nil means keys.Native.
	Verifier keys.Verifier
	// Lookup finds documents that the input does not list (controllers,
	// issuers); nil means none.
	Lookup did.Lookup
}

func (env Env) verifier() keys.Verifier {
	if env.Verifier == nil {
		return keys.Native{}
	}
	return env.Verifier
}

// Func computes a call's output envelope from its JSON input.
type Func func(in []byte, env Env) []byte

// Call is one call of the module.
type Call struct {
	Name string // the module's export name, such as "verify_resolve_result"
	Run  Func
}

// Calls lists every call the module exports, in the order of the package
// documentation.
func Calls() []Call {
	return []Call{
		{"parse_did", ParseDID},
		{"parse_document", ParseDocument},
		{"new_document", NewDocument},
		{"verify_resolve_result", VerifyResolveResult},
		{"resolve_w3c", ResolveW3C},
		{"verify_eid_did", VerifyEIDDID},
		{"verify_eid_credential", VerifyEIDCredential},
		{"verify_eid_credential_list", VerifyEIDCredentialList},
		{"resolve_w3c_eid", ResolveW3CEID},
		{"status_of", StatusOf},
		{"validate_operation", ValidateOperation},
		{"match", Match},
		{"decode_tx", DecodeTx},
		{"verify_tx", VerifyTx},
		{"sign_document", SignDocument},
		{"sign_operation", SignOperation},
	}
}

// Envelope is a call's output: Result on success, Error on failure.
type Envelope struct {
	Result json.RawMessage `json:"result,omitempty"`
	Error  *Error          `json:"error,omitempty"`
}

// run is the body of every call: decode the input into In, compute, and
// encode the result or the error. A panic anywhere below becomes an
// internal error object, so that no input can trap the module.
func run[In any, P interface {
	*In
	input
}, Out output](in []byte, env Env, f func(P, Env) (Out, error)) (out []byte) {
	defer func() {
		if p := recover(); p != nil {
			out = errorEnvelope(&Error{Type: TypeInternal, Message: fmt.Sprintf("abi: internal error: %v", p)})
		}
	}()
	v := P(new(In))
	if err := decodeInput(in, v); err != nil {
		return errorEnvelope(errorOf(err))
	}
	res, err := f(v, env)
	if err != nil {
		return errorEnvelope(errorOf(err))
	}
	return append(res.appendJSON(append(make([]byte, 0, 256), `{"result":`...)), '}')
}

// errorEnvelope is the output of a failed call.
func errorEnvelope(e *Error) []byte {
	return append(e.appendJSON([]byte(`{"error":`)), '}')
}
