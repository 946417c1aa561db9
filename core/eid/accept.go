package eid

import (
	"fmt"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/resolve"
)

// Recorded is where an EID node recorded an operation: the block, its
// time, and the sender of the transaction that carried it.
type Recorded struct {
	Block uint64
	Time  time.Time
	From  string // 0x and 40 hex digits, any case
	// Earlier reports that an earlier operation of the same block was on
	// the same DID.
	Earlier bool
}

// RuleSameBlock is the rule EID holds DID operations to beyond idop's:
// no two on one DID in one block. Reading a DID's last transaction fails
// once the block's state holds a DID log of that DID, "allready create
// did" (core/state/state_did_db.go, GetLastDIDTxData).
const RuleSameBlock idop.Rule = "same-block"

// Accept checks an operation EID recorded against the state of its DID (st,
// nil when the DID does not exist) or of its credential id (cst) before it,
// as EID checked it: in full, except where the network's blocks did not
// (see [Network]). An operation of the migration window from its sender, a
// create or update of a standard DID, is checked as
// [idop.ValidateMigrated] does; one that breaks only the expiry rule in a
// block up to CustomizeDIDHeight is checked without its expiry. The Waiver
// says which checks were not made; the error is a *idop.RuleError, the
// rule that the operation breaks as EID checked it.
func (n Network) Accept(op *idop.Op, st *idop.State, cst *idop.CredentialState, docs did.Lookup, v keys.Verifier, at Recorded) (resolve.Waiver, error) {
	if op.Request.Header.Specification == idop.SpecCredential {
		return resolve.WaiveNone, idop.ValidateCredential(op, cst, docs, v, at.Time)
	}
	if at.Earlier {
		return resolve.WaiveNone, &idop.RuleError{Rule: RuleSameBlock, Err: fmt.Errorf("%s has an operation earlier in block %d", op.DID, at.Block)}
	}
	err := idop.Validate(op, st, docs, v, at.Time)
	operation := op.Request.Header.Operation
	switch {
	case err == nil, operation != idop.Create && operation != idop.Update, op.Document.IsCustomized():
		return resolve.WaiveNone, err
	case n.migrated(at.Block, at.From):
		return resolve.WaiveMigrated, idop.ValidateMigrated(op, st, docs, v)
	case idop.RuleOf(err) == idop.RuleExpired && at.Block <= n.CustomizeDIDHeight:
		return resolve.WaiveExpiry, idop.Validate(op, st, docs, v, time.Time{})
	}
	return resolve.WaiveNone, err
}
