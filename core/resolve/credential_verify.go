package resolve

import (
	"errors"
	"fmt"
	"strings"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
)

// VerifiedCredential is what a resolvecredential result proves once checked.
type VerifiedCredential struct {
	ID     did.URL
	Status CredentialStatus
	// Credential is the declared credential and Txid its transaction; nil
	// and "" when the result holds no declare.
	Credential *did.Credential
	Txid       string
	// RevokedBy is the DID whose revoke counts, for status revoked.
	RevokedBy did.DID
	// Shown is the number of transactions the result shows.
	Shown int
}

// VerifyCredential checks a resolvecredential result (the result object,
// or a JSON-RPC response holding it) fetched from any node, for the issuer
// the request named (zero for none), as a light client must: the
// transactions are all about the result's id, newest first, in the shape
// the SDKs read (valid: a declare first; revoked: a revoke, then the
// declare if there is one); each is validated oldest first with
// [idop.ValidateCredential] against the state the ones before it leave, at
// its own time, with docs to look owners, issuers, signers and their
// controllers up; and the status must follow from them (see
// [CredentialResult]). A result that says the credential is not found cannot
// be disproved and is returned as such. Errors are *VerifyError. As for
// Verify, docs should answer with latest documents, deactivated ones too.
func VerifyCredential(result []byte, issuer did.DID, docs did.Lookup, v keys.Verifier) (*VerifiedCredential, error) {
	out, txs, err := parseCredentialResult(DialectSpec, result)
	if err != nil {
		return nil, err
	}
	id, status := out.ID, out.Status
	if err := checkTransactionCount(status != CredentialNotFound, int(status), len(txs)); err != nil {
		return nil, err
	}
	if status == CredentialNotFound {
		return out, nil
	}
	if err := checkCredentialShape(id, status, txs); err != nil {
		return nil, err
	}
	st, err := replayCredential(txs, docs, v)
	if err != nil {
		return nil, err
	}
	out.Credential, out.Txid = st.Declared, st.Txid
	if st.Declared != nil {
		issuer = st.Declared.Issuer
	}
	got := CredentialValid
	if txs[0].op.Request.Header.Operation == idop.Revoke {
		revoker := txs[0].op.Method.DID
		i, err := idop.RevokedBy([]did.DID{revoker}, id.DID, issuer, docs)
		if err != nil {
			return nil, at(0, txs[0], err)
		}
		if i == 0 {
			got, out.RevokedBy = CredentialRevoked, revoker
		} else if st.Declared == nil {
			got = CredentialNotFound
		}
	}
	if got != status {
		return nil, whole(RuleStatus, fmt.Errorf("the result says %d (%s), the transactions give %d (%s)", status, status, got, got))
	}
	return out, nil
}

// parseCredentialResult reads a credential's resolve result in the
// dialect and decodes its operations.
func parseCredentialResult(dl Dialect, result []byte) (*VerifiedCredential, []transaction, error) {
	r, err := readResult(result)
	if err != nil {
		return nil, nil, err
	}
	id, status, err := r.credentialHeader(dl)
	if err != nil {
		return nil, nil, whole(idop.RuleMalformed, err)
	}
	txs, err := r.transactions()
	if err != nil {
		return nil, nil, err
	}
	return &VerifiedCredential{ID: id, Status: status, Shown: len(txs)}, txs, nil
}

// credentialHeader checks the id (full form, with a fragment) and status
// members; in [DialectEID] a credential not found is named as the request
// gave it, which may lack the did:elastos: prefix (Elastos.ELA.SideChain.EID
// internal/ethapi/didapi.go, ResolveCredential).
func (r *rawResult) credentialHeader(dl Dialect) (did.URL, CredentialStatus, error) {
	if r.id == nil || r.status == nil {
		return did.URL{}, 0, errors.New("a credential result needs id and status")
	}
	s, err := rawString("id", r.id)
	if err != nil {
		return did.URL{}, 0, err
	}
	status, err := rawStatus(r.status, CredentialValid, CredentialRevoked, CredentialNotFound)
	if err != nil {
		return did.URL{}, 0, err
	}
	if dl == DialectEID && status == CredentialNotFound && !strings.HasPrefix(s, "did:") {
		s = "did:" + did.Method + ":" + s
	}
	id, err := did.ParseCredentialID(s)
	return id, status, err
}

// checkCredentialShape requires transactions about id only, newest first,
// in the shape the SDKs accept (src/didbackend.ts, resolveCredential).
func checkCredentialShape(id did.URL, status CredentialStatus, txs []transaction) error {
	key := id.Key()
	for i, tx := range txs {
		if c := tx.op.CredentialID; c != id && c.Key() != key { // Key parses the DID: only when they differ
			return at(i, tx, &idop.RuleError{Rule: idop.RuleDocID, Err: fmt.Errorf("a %s of %q in the result of %s", tx.op.Request.Header.Operation, tx.op.CredentialID, id)})
		}
		if i > 0 && tx.time.After(txs[i-1].time) {
			return at(i, tx, &idop.RuleError{Rule: RuleOrder, Err: fmt.Errorf("%s is newer than the transaction before it", did.FormatTime(tx.time))})
		}
	}
	first := txs[0].op.Request.Header.Operation
	switch {
	case status == CredentialValid && first != idop.Declare:
		return whole(RuleStatus, fmt.Errorf("status 0 (valid), but the newest transaction is a %s, not the declare", first))
	case status == CredentialRevoked && first != idop.Revoke:
		return whole(RuleStatus, fmt.Errorf("status 2 (revoked), but the newest transaction is a %s, not a revoke", first))
	case status == CredentialRevoked && len(txs) > 2:
		return whole(idop.RuleMalformed, fmt.Errorf("status 2 (revoked) with %d transactions, want the revoke and at most the declare", len(txs)))
	case status == CredentialRevoked && len(txs) == 2 && txs[1].op.Request.Header.Operation != idop.Declare:
		return whole(idop.RuleMalformed, errors.New("status 2 (revoked): the transaction after the revoke is not the declare"))
	}
	return nil
}

// replayCredential validates the transactions oldest first and returns the
// state they leave.
func replayCredential(txs []transaction, docs did.Lookup, v keys.Verifier) (*idop.CredentialState, error) {
	st := &idop.CredentialState{}
	for i := len(txs) - 1; i >= 0; i-- {
		tx := txs[i]
		if err := idop.ValidateCredential(tx.op, st, docs, v, tx.time); err != nil {
			return nil, at(i, tx, err)
		}
		if tx.op.Request.Header.Operation == idop.Declare {
			st.Declared, st.Txid = tx.op.Credential, tx.txid
		} else {
			st.Revokers = append(st.Revokers, tx.op.Method.DID)
		}
	}
	return st, nil
}
