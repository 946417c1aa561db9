package wasmrt_test

import (
	"context"
	"encoding/hex"
	"errors"
	"testing"
	"time"

	"didlight/core/did"
	"didlight/core/ela"
	"didlight/core/idop"
	"didlight/core/keys"
	"didlight/host/chain"
	"didlight/host/wasmrt"
	"didlight/wasm/abi"
)

// wasmEngine is the node's validation run through the module: the thin
// adapter from chain.Engine to a Runtime that `didlight node --engine
// wasm` needs. The chain's verifier and lookups serve the module's imports,
// and the errors unwrap to the rules and kinds the chain maps to codes.
type wasmEngine struct{ rt *wasmrt.Runtime }

var _ chain.Engine = wasmEngine{}

func (e wasmEngine) VerifyPrograms(tx *ela.Tx, referenced []ela.ProgramHash, v keys.Verifier) error {
	hashes := make([]string, len(referenced))
	for i, h := range referenced {
		hashes[i] = h.Hex()
	}
	_, err := e.rt.VerifyTx(context.Background(), abi.VerifyTxInput{Tx: hex.EncodeToString(tx.Bytes()), Referenced: hashes}, abi.Env{Verifier: v})
	return err
}

// DecodeOperation decodes natively: the chain needs the Go value, and
// ValidateOperation decodes again in the module.
func (wasmEngine) DecodeOperation(r idop.Request) (*idop.Op, error) { return idop.Decode(r) }

func (e wasmEngine) ValidateOperation(op *idop.Op, st *idop.State, docs did.Lookup, v keys.Verifier, now time.Time) error {
	in := abi.ValidateOperationInput{Operation: op.Request.AppendJSON(nil), Now: now}
	if st != nil {
		in.State = &abi.State{Document: st.Document.Normalized(), Txid: st.Txid, Deactivated: st.Deactivated}
	}
	_, err := e.rt.ValidateOperation(context.Background(), in, abi.Env{Verifier: v, Lookup: docs})
	return err
}

// ValidateCredential runs natively until the module has a call for
// credential operations (one more function in package abi).
func (wasmEngine) ValidateCredential(op *idop.Op, st *idop.CredentialState, docs did.Lookup, v keys.Verifier, now time.Time) error {
	return idop.ValidateCredential(op, st, docs, v, now)
}

// The adapter decides as the native engine does, rule for rule.
func TestEngineAdapter(t *testing.T) {
	host, _ := runtimes(t)
	engines := []chain.Engine{chain.Native{}, wasmEngine{host}}
	h := newHistory(t, "user4.id.primary", 3, true)
	for i, e := range h.entries {
		for _, st := range []*idop.State{
			nil,
			{Document: h.docs[0], Txid: h.entries[max(i, 1)-1].Txid},
			{Document: h.docs[0], Txid: txid(50)},
			{Document: h.docs[0], Txid: h.entries[max(i, 1)-1].Txid, Deactivated: true},
		} {
			var rules []idop.Rule
			for _, eng := range engines {
				op, err := eng.DecodeOperation(e.Request)
				if err == nil {
					err = eng.ValidateOperation(op, st, sdkDocuments(t), keys.Native{}, time.Unix(e.Time, 0))
				}
				rules = append(rules, idop.RuleOf(err))
				if err != nil && idop.RuleOf(err) == "" {
					t.Errorf("operation %d: %v has no rule", i, err)
				}
			}
			if rules[0] != rules[1] {
				t.Errorf("operation %d, state %+v: native %q, wasm %q", i, st, rules[0], rules[1])
			}
		}
	}
	tx, referenced := signedTx(t, "user2.id.primary")
	hash, _ := hex.DecodeString(referenced[0])
	refs := []ela.ProgramHash{ela.ProgramHash(hash)}
	other := []ela.ProgramHash{{0x21}}
	for _, eng := range engines {
		if err := eng.VerifyPrograms(tx, refs, keys.Native{}); err != nil {
			t.Errorf("%T: %v", eng, err)
		}
		if err := eng.VerifyPrograms(tx, other, keys.Native{}); !errors.Is(err, ela.ErrSignature) {
			t.Errorf("%T, other referenced: %v", eng, err)
		}
	}
}
