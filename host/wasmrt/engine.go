package wasmrt

import (
	"context"
	"encoding/hex"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/wasm/abi"
)

// Engine is a node's validation run through the module: it has the
// methods of host/internal/chain's Engine (named there, not here, so that this
// package does not depend on the chain), so `didlight node --engine wasm`
// plugs it into chain.Config. The chain's verifier and document lookups
// answer the module's imports, and failures unwrap to the rules and kinds
// the chain maps to its reject codes, as native errors do.
type Engine struct{ rt *Runtime }

// NewEngine returns the Engine that runs on rt. rt stays the caller's to
// close, after the chain.
func NewEngine(rt *Runtime) Engine { return Engine{rt} }

// VerifyPrograms checks tx's signatures with verify_tx, referenced being
// the program hashes of the outputs its inputs spend.
func (e Engine) VerifyPrograms(tx *ela.Tx, referenced []ela.ProgramHash, v keys.Verifier) error {
	hashes := make([]string, len(referenced))
	for i, h := range referenced {
		hashes[i] = h.Hex()
	}
	in := abi.VerifyTxInput{Tx: hex.EncodeToString(tx.Bytes()), Referenced: hashes}
	_, err := e.rt.VerifyTx(context.Background(), in, abi.Env{Verifier: v})
	return err
}

// DecodeOperation decodes natively ([idop.Decode]): the chain needs the Go
// value, and ValidateOperation decodes the request again in the module,
// which is where the decision is taken.
func (Engine) DecodeOperation(r idop.Request) (*idop.Op, error) { return idop.Decode(r) }

// ValidateOperation checks a DID operation against its DID's state at the
// time of its block with validate_operation.
func (e Engine) ValidateOperation(op *idop.Op, st *idop.State, docs did.Lookup, v keys.Verifier, now time.Time) error {
	in := abi.ValidateOperationInput{Operation: op.Request.AppendJSON(nil), Now: now}
	if st != nil {
		in.State = &abi.State{Document: st.Document.Normalized(), Txid: st.Txid, Deactivated: st.Deactivated}
	}
	_, err := e.rt.ValidateOperation(context.Background(), in, abi.Env{Verifier: v, Lookup: docs})
	return err
}

// ValidateCredential runs natively ([idop.ValidateCredential]): the module
// has no call for credential operations yet.
func (Engine) ValidateCredential(op *idop.Op, st *idop.CredentialState, docs did.Lookup, v keys.Verifier, now time.Time) error {
	return idop.ValidateCredential(op, st, docs, v, now)
}
