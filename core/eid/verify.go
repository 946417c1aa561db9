package eid

import (
	"errors"
	"fmt"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/resolve"
)

// Request is a did_resolveDID request as it was sent.
type Request struct {
	DID string // the did param as sent: in full form or the bare id
	All bool
}

// Env is what verifying an answer needs besides the answer.
type Env struct {
	// Network is the chain the answer comes from ([NetworkOf] the chain id
	// eth_chainId answers).
	Network Network
	// Docs looks other DIDs' documents up (controllers, signers,
	// issuers): each verified by the caller, with [VerifyDID], and given as
	// its latest document, also when that DID is deactivated. For a DID
	// it has not fetched it returns an error wrapping [ErrUnfetched]; a nil
	// Docs has fetched none.
	Docs did.Lookup
	// Verifier checks signatures.
	Verifier keys.Verifier
	// Now is the chain tip's block time, at which the status is judged.
	Now time.Time
	// Transactions are the transactions the caller fetched because a
	// [NeedError] asked for them.
	Transactions []*Transaction
}

// Resolved is what a did_resolveDID answer proves once checked.
type Resolved struct {
	*resolve.Verified
	// Migrated are the txids of the operations EID took in its migration
	// window, whose signatures were checked and nothing else (see
	// Report.Unchecked).
	Migrated []string
	// Expired reports that the latest document has expired at Env.Now:
	// EID answers status 0 and leaves that judgement to the client, as
	// the SDKs make it.
	Expired bool
	Report  Report
}

// VerifyDID checks a did_resolveDID answer of an EID node (the JSON-RPC
// response, or its result object) for the request req, as a light client
// must: every operation in chain order with the checks EID makes
// ([resolve.Checker] with [resolve.DialectEID]), and what EID's answers look
// like: statuses 0, 2 and 3 (never 1: EID leaves expiry to the client),
// txids as [TxidOf] writes them, the DID asked for (a customized DID in any
// case, a DID not found as the request gave it), with all=false the latest
// operation, or for a deactivated DID the deactivate and the operation
// before it, and with all=true every operation from the create on
// (Elastos.ELA.SideChain.EID internal/ethapi/didapi.go, ResolveDID).
//
// An operation that breaks a rule EID did not enforce in some blocks (an
// update's previousTxid, a document's proofs or expiry) is not called
// forged before its transaction's block and sender say whether EID checked
// it: until env.Transactions holds it, verification fails with a
// *NeedError naming it. So it does for the documents of other DIDs that
// env.Docs has not fetched. Operations EID took in its migration window are
// checked as [idop.ValidateMigrated] does and reported as migrated. Other
// errors are *resolve.VerifyError, or say how the answer differs from what
// EID answers.
func VerifyDID(answer []byte, req Request, env Env) (*Resolved, error) {
	asked, err := did.Parse(req.DID)
	if err != nil {
		return nil, fmt.Errorf("eid: the request: %w", err)
	}
	if err := checkSize(answer); err != nil {
		return nil, err
	}
	rec := &recorder{docs: env.Docs}
	w := newWaiver(env)
	c := resolve.Checker{Dialect: resolve.DialectEID, Docs: rec, Verifier: env.Verifier, Waive: w.waive}
	v, err := c.Verify(answer, env.Now)
	if err := rec.need(err, w.missing); err != nil {
		return nil, err
	}
	if err := checkAnswer(v, asked, req.All); err != nil {
		return nil, err
	}
	r := &Resolved{Verified: v, Expired: v.Document != nil && v.Document.Expires().Before(env.Now)}
	for i, wv := range v.Waivers {
		if wv == resolve.WaiveMigrated {
			r.Migrated = append(r.Migrated, v.History[i].Txid)
		}
	}
	r.Report = didReport(v, rec.asked > 0)
	return r, nil
}

// checkAnswer checks what EID's answers hold beyond what resolve checks:
// the DID asked for, and the transactions all asks for.
func checkAnswer(v *resolve.Verified, asked did.DID, all bool) error {
	if v.Status == resolve.NotFound {
		if v.DID.ID() != asked.ID() {
			return fmt.Errorf("eid: the answer says %s is not found, but %s was asked", v.DID, asked)
		}
		return nil
	}
	if v.DID.Key() != asked.Key() {
		return fmt.Errorf("eid: the answer is about %s, but %s was asked", v.DID, asked)
	}
	want := 1
	if v.Status == resolve.Deactivated {
		want = 2
	}
	switch n := len(v.History); {
	case all && !v.Complete:
		return &resolve.VerifyError{Index: n - 1, Txid: v.History[n-1].Txid, Rule: idop.RuleNotFound, Err: errors.New("all=true, but the history does not begin with the create: it is truncated")}
	case !all && n != want:
		return &resolve.VerifyError{Index: -1, Rule: idop.RuleMalformed, Err: fmt.Errorf("all=false and status %d (%s): %d transactions, EID answers %d", v.Status, v.Status, n, want)}
	}
	return nil
}

// didReport says what verifying v checked; looked says whether other
// DIDs' documents were looked up.
func didReport(v *resolve.Verified, looked bool) Report {
	if v.Status == resolve.NotFound {
		return Report{Outcome: OutcomeNothing, Checked: []Claim{CheckedAnswer}, Trusted: []Claim{TrustedNotFound}}
	}
	r := Report{Outcome: OutcomeVerified,
		Checked: []Claim{CheckedAnswer, CheckedOrder, CheckedSignatures},
		Trusted: []Claim{TrustedInclusion, TrustedBlockTime, TrustedNewest}}
	if !v.DID.IsCustomized() {
		r.Checked = append(r.Checked, CheckedKeyDerivation)
	}
	r.Checked = append(r.Checked, CheckedDocProofs, CheckedExpiry)
	if linked(v.History) {
		r.Checked = append(r.Checked, CheckedLinks)
	}
	for _, e := range v.History {
		if e.Request.Header.Operation == idop.Transfer {
			r.Checked = append(r.Checked, CheckedTickets)
			break
		}
	}
	if looked {
		r.Checked = append(r.Checked, CheckedControllers)
		r.Trusted = append(r.Trusted, TrustedController)
	}
	r.Checked = append(r.Checked, CheckedStatus)
	if !v.Complete {
		r.Trusted = append(r.Trusted, TrustedHistory)
	}
	if v.DID.IsCustomized() {
		r.Trusted = append(r.Trusted, TrustedNames)
	}
	waived := map[resolve.Waiver]bool{}
	for _, w := range v.Waivers {
		waived[w] = true
	}
	if waived[resolve.WaiveMigrated] {
		r.Outcome = OutcomeMigrated
		r.Unchecked = append(r.Unchecked, UncheckedMigrated)
	}
	if waived[resolve.WaiveExpiry] {
		r.Unchecked = append(r.Unchecked, UncheckedExpiry)
	}
	if len(r.Unchecked) > 0 {
		r.Trusted = append(r.Trusted, TrustedProvenance)
	}
	return r
}

// linked reports whether a history (newest first) shows an update with
// the transaction before it, whose link was then checked.
func linked(h []resolve.Entry) bool {
	for i := 0; i < len(h)-1; i++ {
		if h[i].Request.Header.Operation == idop.Update {
			return true
		}
	}
	return false
}
