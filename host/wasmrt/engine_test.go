package wasmrt_test

import (
	"encoding/hex"
	"errors"
	"testing"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/wasmrt"
)

var _ chain.Engine = wasmrt.Engine{}

// The adapter decides as the native engine does, rule for rule.
func TestEngineAdapter(t *testing.T) {
	host, _ := runtimes(t)
	engines := []chain.Engine{chain.Native{}, wasmrt.NewEngine(host)}
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
