package wasmrt

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/wasm/abi"
)

// invoke runs a call with Go values: in is written as the call's JSON input
// and the result read into an Out. A failed call's error is its *abi.Error.
func invoke[Out any](ctx context.Context, r *Runtime, name string, in any, env abi.Env) (*Out, error) {
	b, err := json.Marshal(in)
	if err != nil {
		return nil, fmt.Errorf("wasmrt: %s: %w", name, err)
	}
	b, err = r.Call(ctx, name, b, env)
	if err != nil {
		return nil, err
	}
	var e abi.Envelope
	if err := json.Unmarshal(b, &e); err != nil {
		return nil, fmt.Errorf("wasmrt: %s: the module's answer: %w", name, err)
	}
	if e.Error != nil {
		return nil, e.Error
	}
	out := new(Out)
	if err := json.Unmarshal(e.Result, out); err != nil {
		return nil, fmt.Errorf("wasmrt: %s: the module's result: %w", name, err)
	}
	return out, nil
}

// ParseDID runs parse_did.
func (r *Runtime) ParseDID(ctx context.Context, in abi.ParseDIDInput) (*abi.ParsedDID, error) {
	return invoke[abi.ParsedDID](ctx, r, "parse_did", in, abi.Env{})
}

// ParseDocument runs parse_document; env serves the proofs' checks.
func (r *Runtime) ParseDocument(ctx context.Context, in abi.ParseDocumentInput, env abi.Env) (*abi.ParsedDocument, error) {
	return invoke[abi.ParsedDocument](ctx, r, "parse_document", in, env)
}

// NewDocument runs new_document.
func (r *Runtime) NewDocument(ctx context.Context, in abi.NewDocumentInput) (*abi.ParsedDocument, error) {
	return invoke[abi.ParsedDocument](ctx, r, "new_document", in, abi.Env{})
}

// VerifyResolveResult runs verify_resolve_result, the light client's check
// of a node's resolve answer.
func (r *Runtime) VerifyResolveResult(ctx context.Context, in abi.VerifyResolveResultInput, env abi.Env) (*abi.VerifiedResult, error) {
	return invoke[abi.VerifiedResult](ctx, r, "verify_resolve_result", in, env)
}

// ResolveW3C runs resolve_w3c: the W3C DID Resolution answer built from a
// resolvedid answer (all=true) the module verifies first.
func (r *Runtime) ResolveW3C(ctx context.Context, in abi.ResolveW3CInput, env abi.Env) (*abi.W3CAnswer, error) {
	return invoke[abi.W3CAnswer](ctx, r, "resolve_w3c", in, env)
}

// StatusOf runs status_of.
func (r *Runtime) StatusOf(ctx context.Context, in abi.StatusOfInput) (*abi.Status, error) {
	return invoke[abi.Status](ctx, r, "status_of", in, abi.Env{})
}

// ValidateOperation runs validate_operation; a broken rule is an
// *abi.Error that unwraps to an *idop.RuleError.
func (r *Runtime) ValidateOperation(ctx context.Context, in abi.ValidateOperationInput, env abi.Env) (*abi.ValidatedOperation, error) {
	return invoke[abi.ValidatedOperation](ctx, r, "validate_operation", in, env)
}

// Match runs match.
func (r *Runtime) Match(ctx context.Context, in abi.MatchInput) (*abi.Matches, error) {
	return invoke[abi.Matches](ctx, r, "match", in, abi.Env{})
}

// DecodeTx runs decode_tx.
func (r *Runtime) DecodeTx(ctx context.Context, in abi.DecodeTxInput) (*ela.TxJSON, error) {
	return invoke[ela.TxJSON](ctx, r, "decode_tx", in, abi.Env{})
}

// VerifyTx runs verify_tx; a failure unwraps to [ela.ErrSignature].
func (r *Runtime) VerifyTx(ctx context.Context, in abi.VerifyTxInput, env abi.Env) (*abi.VerifiedTx, error) {
	return invoke[abi.VerifiedTx](ctx, r, "verify_tx", in, env)
}

// SignDocument runs sign_document.
func (r *Runtime) SignDocument(ctx context.Context, in abi.SignDocumentInput) (*abi.SignedDocument, error) {
	return invoke[abi.SignedDocument](ctx, r, "sign_document", in, abi.Env{})
}

// SignOperation runs sign_operation.
func (r *Runtime) SignOperation(ctx context.Context, in abi.SignOperationInput) (*abi.SignedOperation, error) {
	return invoke[abi.SignedOperation](ctx, r, "sign_operation", in, abi.Env{})
}

// VerifyEIDDID runs verify_eid_did, the light client's check of an EID
// node's did_resolveDID answer; a need for more from the node is an
// *abi.Error that unwraps to an *eid.NeedError.
func (r *Runtime) VerifyEIDDID(ctx context.Context, in abi.VerifyEIDDIDInput) (*abi.VerifiedEIDDID, error) {
	return invoke[abi.VerifiedEIDDID](ctx, r, "verify_eid_did", in, abi.Env{})
}

// VerifyEIDCredential runs verify_eid_credential (did_resolveCredential).
func (r *Runtime) VerifyEIDCredential(ctx context.Context, in abi.VerifyEIDCredentialInput) (*abi.VerifiedEIDCredential, error) {
	return invoke[abi.VerifiedEIDCredential](ctx, r, "verify_eid_credential", in, abi.Env{})
}

// VerifyEIDCredentialList runs verify_eid_credential_list
// (did_listCredentials).
func (r *Runtime) VerifyEIDCredentialList(ctx context.Context, in abi.VerifyEIDCredentialListInput) (*abi.VerifiedEIDCredentialList, error) {
	return invoke[abi.VerifiedEIDCredentialList](ctx, r, "verify_eid_credential_list", in, abi.Env{})
}

// ResolveW3CEID runs resolve_w3c_eid: the W3C DID Resolution answer built
// from an EID node's did_resolveDID answer (all=true), verified first.
func (r *Runtime) ResolveW3CEID(ctx context.Context, in abi.ResolveW3CEIDInput) (*abi.EIDW3CAnswer, error) {
	return invoke[abi.EIDW3CAnswer](ctx, r, "resolve_w3c_eid", in, abi.Env{})
}
