package resolve

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
)

// VerifyCredential checks a resolvecredential result as the package's
// [VerifyCredential] does in [DialectSpec]. In DialectEID it reads the result
// as EID's did_resolveCredential writes one (Elastos.ELA.SideChain.EID
// internal/ethapi/didapi.go, ResolveCredential), which shows more than
// didlight's own nodes do, and may hide transactions that its status
// counts:
//
//   - the declare, if any, and without an issuer the revokes from the
//     newest down to the newest that counts (by the owner, the declared
//     issuer or a controller of either, see idop.RevokedBy), newest first;
//     with an issuer, only the newest revoke that counts or, failing one,
//     the newest by that issuer, after the rest;
//   - status 2 (revoked) when a revoke that counts is shown; else 0 (valid)
//     when the credential is declared; else 2, for any revoke, also when
//     the revokes are hidden (an issuer was given and none is by it), so
//     that status 2 may come without transactions;
//   - a credential not found named as the request gave it, which may lack
//     the did:elastos: prefix.
//
// Every transaction shown is validated in chain order.
func (c Checker) VerifyCredential(result []byte, issuer did.DID) (*VerifiedCredential, error) {
	if c.Dialect != DialectEID {
		return VerifyCredential(result, issuer, c.Docs, c.Verifier)
	}
	out, txs, err := parseCredentialResult(c.Dialect, result)
	if err != nil {
		return nil, err
	}
	id, status := out.ID, out.Status
	switch {
	case status == CredentialNotFound && len(txs) > 0:
		return nil, whole(idop.RuleMalformed, errors.New("status 3 (not found) with transactions"))
	case status == CredentialNotFound:
		return out, nil
	case len(txs) == 0 && (status == CredentialValid || issuer.IsZero()):
		return nil, whole(idop.RuleMalformed, fmt.Errorf("status %d (%s) without transactions", status, status))
	}
	if err := checkTxids(c.Dialect, txs); err != nil {
		return nil, err
	}
	shown, err := eidCredentialShape(id, !issuer.IsZero(), txs)
	if err != nil {
		return nil, err
	}
	st, err := replayCredential(shown, c.Docs, c.Verifier)
	if err != nil {
		return nil, err
	}
	out.Credential, out.Txid = st.Declared, st.Txid
	got, revoker, err := c.eidCredentialStatus(id, st.Declared, !issuer.IsZero(), txs)
	if err != nil {
		return nil, err
	}
	if got != status {
		return nil, whole(RuleStatus, fmt.Errorf("the result says %d (%s), the transactions give %d (%s)", status, status, got, got))
	}
	out.RevokedBy = revoker
	return out, nil
}

// eidCredentialShape checks that the transactions are about id, at most one
// declare, newest first but for the one revoke an issuer's request may add
// last, and returns them oldest first for replay.
func eidCredentialShape(id did.URL, withIssuer bool, txs []transaction) ([]transaction, error) {
	key := id.Key()
	declares, revokes := 0, 0
	for i, tx := range txs {
		if c := tx.op.CredentialID; c != id && c.Key() != key {
			return nil, at(i, tx, &idop.RuleError{Rule: idop.RuleDocID, Err: fmt.Errorf("a %s of %q in the result of %s", tx.op.Request.Header.Operation, tx.op.CredentialID, id)})
		}
		if tx.op.Request.Header.Operation == idop.Declare {
			declares++
		} else {
			revokes++
		}
		appended := withIssuer && i == len(txs)-1 && tx.op.Request.Header.Operation == idop.Revoke
		if i > 0 && !appended && tx.time.After(txs[i-1].time) {
			return nil, at(i, tx, &idop.RuleError{Rule: RuleOrder, Err: fmt.Errorf("%s is newer than the transaction before it", tx.op.Request.Header.Operation)})
		}
	}
	switch {
	case declares > 1:
		return nil, whole(idop.RuleMalformed, fmt.Errorf("%d declares of %s", declares, id))
	case withIssuer && revokes > 1:
		return nil, whole(idop.RuleMalformed, fmt.Errorf("%d revokes shown for a request with an issuer, EID shows at most one", revokes))
	}
	shown := slices.Clone(txs)
	slices.SortStableFunc(shown, func(a, b transaction) int { return cmp.Compare(b.time.Unix(), a.time.Unix()) })
	return shown, nil
}

// eidCredentialStatus derives EID's status from the transactions shown
// (newest first) and the declared credential, and returns the DID whose
// revoke counts, if one is shown. Without an issuer, no revoke may follow
// the one that counts.
func (c Checker) eidCredentialStatus(id did.URL, declared *did.Credential, withIssuer bool, txs []transaction) (CredentialStatus, did.DID, error) {
	var issuer did.DID
	if declared != nil {
		issuer = declared.Issuer
	}
	counted := -1
	for i, tx := range txs {
		if tx.op.Request.Header.Operation != idop.Revoke {
			continue
		}
		if counted >= 0 && !withIssuer {
			return 0, did.DID{}, at(i, tx, &idop.RuleError{Rule: idop.RuleMalformed, Err: fmt.Errorf("a revoke after the one that counts (%d), which EID does not show", counted)})
		}
		if counted >= 0 {
			continue
		}
		n, err := idop.RevokedBy([]did.DID{tx.op.Method.DID}, id.DID, issuer, c.Docs)
		if err != nil {
			return 0, did.DID{}, at(i, tx, err)
		}
		if n == 0 {
			counted = i
		}
	}
	switch {
	case counted >= 0:
		return CredentialRevoked, txs[counted].op.Method.DID, nil
	case declared != nil:
		return CredentialValid, did.DID{}, nil
	}
	return CredentialRevoked, did.DID{}, nil
}
