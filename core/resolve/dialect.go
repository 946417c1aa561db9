package resolve

import (
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/keys"
)

// Dialect is how a resolve result speaks of a DID whose latest document has
// expired. The node answers each method in its dialect; everything else in
// the result is the same.
type Dialect uint8

// The dialects.
const (
	// DialectSpec is resolvedid's, as the interface specification defines
	// it: an expired document is status 1 (Expired).
	DialectSpec Dialect = iota
	// DialectEID is did_resolveDID's, as the identity chain answers it and
	// the published SDKs read it: status 1 is never given and an expired
	// document is status 0 (Valid), the client judging expiry from the
	// document's expires (Elastos.ELA.SideChain.EID internal/ethapi/didapi.go,
	// ResolveDID; Elastos.DID.JS.SDK src/backend/didbiography.ts accepts only
	// 0, 2 and 3).
	DialectEID
)

// Status returns how the dialect reports a DID of status s.
func (dl Dialect) Status(s Status) Status {
	if dl == DialectEID && s == Expired {
		return Valid
	}
	return s
}

// Result builds the resolve result object as Result does, with the status
// in the dialect.
func (dl Dialect) Result(d did.DID, h []Entry, all bool, tip int64) ([]byte, error) {
	return result(dl, d, h, all, tip)
}

// Verify checks a resolve result as Verify does, reading its status in the
// dialect: a [DialectEID] result of an expired document says 0, and 1 is
// refused.
func (dl Dialect) Verify(result []byte, docs did.Lookup, v keys.Verifier, now time.Time) (*Verified, error) {
	return Checker{Dialect: dl, Docs: docs, Verifier: v}.verify(result, now)
}
