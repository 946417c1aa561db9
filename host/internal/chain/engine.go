package chain

import (
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
)

// Engine takes the decisions the chain does not take itself: whether a
// transaction's programs sign it, and whether an identity operation is
// valid against its DID's state. Native runs core natively; another engine
// (the WebAssembly core module) can be plugged in without changing the
// chain. Signatures are checked with the keys.Verifier the chain passes,
// which remembers what it has verified, so that nothing is verified twice.
type Engine interface {
	// VerifyPrograms checks the signatures of tx, referenced being the
	// program hashes of the outputs its inputs spend (ela.Tx.VerifyPrograms).
	VerifyPrograms(tx *ela.Tx, referenced []ela.ProgramHash, v keys.Verifier) error
	// DecodeOperation decodes an identity request (idop.Decode).
	DecodeOperation(r idop.Request) (*idop.Op, error)
	// ValidateOperation checks a DID operation against the state of its DID
	// at the time of its block (idop.Validate).
	ValidateOperation(op *idop.Op, st *idop.State, docs did.Lookup, v keys.Verifier, now time.Time) error
	// ValidateCredential checks a credential operation against the state
	// of its credential id at the time of its block (idop.ValidateCredential).
	ValidateCredential(op *idop.Op, st *idop.CredentialState, docs did.Lookup, v keys.Verifier, now time.Time) error
}

// Native is the Engine of the core packages, run in this process.
type Native struct{}

// VerifyPrograms implements Engine with ela.Tx.VerifyPrograms.
func (Native) VerifyPrograms(tx *ela.Tx, referenced []ela.ProgramHash, v keys.Verifier) error {
	return tx.VerifyPrograms(referenced, v)
}

// DecodeOperation implements Engine with idop.Decode.
func (Native) DecodeOperation(r idop.Request) (*idop.Op, error) { return idop.Decode(r) }

// ValidateOperation implements Engine with idop.Validate.
func (Native) ValidateOperation(op *idop.Op, st *idop.State, docs did.Lookup, v keys.Verifier, now time.Time) error {
	return idop.Validate(op, st, docs, v, now)
}

// ValidateCredential implements Engine with idop.ValidateCredential.
func (Native) ValidateCredential(op *idop.Op, st *idop.CredentialState, docs did.Lookup, v keys.Verifier, now time.Time) error {
	return idop.ValidateCredential(op, st, docs, v, now)
}

// keptKeys bounds the public keys the chain's verifier keeps decoded (a
// keys.Cache): about 250 bytes each, 1 MB in all, for the wallets and DIDs
// that submit most.
const keptKeys = 4096
