package idop

import (
	"fmt"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/keys"
)

// CredentialState is what the chain holds about a credential id before a
// declare or revoke of it: the credential declared under it, if any, and
// who has revoked it. The zero value (or nil) is an id never seen. The
// caller keys it by the credential id's [did.URL.Key], so that the ids of a
// customized DID's credentials match whatever their case.
type CredentialState struct {
	// Declared is the declared credential and Txid its transaction; nil
	// and "" when the id was never declared.
	Declared *did.Credential
	Txid     string
	// Revokers are the DIDs that signed a revoke of the id (the DID of each
	// revoke's verification method), in chain order. Only some of them
	// count: see [RevokedBy].
	Revokers []did.DID
}

// ValidateCredential checks a declare or revoke against the state of its
// credential id (nil if never seen), with docs to look the owner's, the
// issuer's, the signer's and their controllers' current documents up, v to
// check signatures and now the time of the block that carries the
// operation (a zero now skips the expiry checks). The error is a *RuleError.
//
// A declare publishes a credential that was never declared (its id may be
// declared once) and that no revoke counting against it has revoked; that
// expires after now; whose owner (its subject, the DID of its id) exists,
// is not deactivated and has not expired, and signs the request with one of
// its authentication keys (or a controller's, for a customized owner); and
// whose proof is by an authentication key of its issuer, which likewise
// exists and has not expired (Elastos.ELA.SideChain.EID
// core/vm/didvalidator.go, checkDeclareVerifiableCredential,
// checkIDVerifiableCredential and checkCredential; Elastos.DID.JS.SDK
// src/verifiablecredential.ts, declare).
//
// A revoke is signed by an authentication key of a DID that exists and has
// not expired, the revoker. Once the credential is declared the revoker
// must be its owner or its issuer, or a controller of either; before that
// anyone may revoke the id, though only revokes that count against the
// credential of a given issuer change what resolving it says (EID
// checkRevokeVerifiableCredential; src/verifiablecredential.ts, revoke). A
// credential already revoked by a revoke that counts (see [RevokedBy], with
// the declared issuer, or the revoker when nothing is declared) cannot be
// revoked again.
func ValidateCredential(op *Op, st *CredentialState, docs did.Lookup, v keys.Verifier, now time.Time) error {
	if st == nil {
		st = &CredentialState{}
	}
	switch op.Request.Header.Operation {
	case Declare:
		return checkDeclare(op, st, docs, v, now)
	case Revoke:
		return checkRevoke(op, st, docs, v, now)
	}
	return broken(RuleUnsupported, fmt.Errorf("%s is a DID operation: see Validate", op.Request.Header.Operation))
}

func checkDeclare(op *Op, st *CredentialState, docs did.Lookup, v keys.Verifier, now time.Time) error {
	c, owner := op.Credential, op.CredentialID.DID
	if st.Declared != nil {
		return broken(RuleDeclared, fmt.Errorf("credential %s was declared in %s; a credential is declared once", c.ID, st.Txid))
	}
	if err := checkNotRevoked(st, owner, c.Issuer, docs); err != nil {
		return err
	}
	if !now.IsZero() && !c.ExpirationDate.After(now) {
		return broken(RuleCredentialExpired, fmt.Errorf("credential %s expires %s, not after the block time %s", c.ID, did.FormatTime(c.ExpirationDate), did.FormatTime(now)))
	}
	ownerDoc, err := liveDocument(owner, "owner", RuleOwner, docs, now)
	if err != nil {
		return err
	}
	if _, err := liveDocument(c.Issuer, "issuer", RuleIssuer, docs, now); err != nil {
		return err
	}
	if err := checkSignedBy(op, ownerDoc, docs, v); err != nil {
		return err
	}
	if err := c.VerifyProof(v, docs); err != nil {
		return broken(RuleIssuer, err)
	}
	return nil
}

func checkRevoke(op *Op, st *CredentialState, docs did.Lookup, v keys.Verifier, now time.Time) error {
	id, revoker := op.CredentialID, op.Method.DID
	issuer := revoker
	if st.Declared != nil {
		issuer = st.Declared.Issuer
		i, err := RevokedBy([]did.DID{revoker}, id.DID, issuer, docs)
		if err != nil {
			return err
		}
		if i < 0 {
			return broken(RuleSignerKey, fmt.Errorf("%s is neither the owner nor the issuer of credential %s, nor a controller of either", revoker, id))
		}
	}
	if err := checkNotRevoked(st, id.DID, issuer, docs); err != nil {
		return err
	}
	signer, err := liveDocument(revoker, "revoker", RuleSignerKey, docs, now)
	if err != nil {
		return err
	}
	return checkSignedBy(op, signer, docs, v)
}

// checkNotRevoked refuses a credential id that a revoke counting against
// the credential of owner issued by issuer has revoked.
func checkNotRevoked(st *CredentialState, owner, issuer did.DID, docs did.Lookup) error {
	i, err := RevokedBy(st.Revokers, owner, issuer, docs)
	if err != nil {
		return err
	}
	if i >= 0 {
		return broken(RuleRevoked, fmt.Errorf("the credential of %s issued by %s was revoked by %s", owner, issuer, st.Revokers[i]))
	}
	return nil
}

// RevokedBy returns the index of the first of revokers whose revoke counts
// against the credential of owner issued by issuer, or -1 when none does.
// A revoke counts when its revoker is the owner or the issuer, or a
// controller of either when that is a customized DID, by the current
// documents docs holds (Elastos.ELA.SideChain.EID internal/ethapi/didapi.go,
// isRevokerValid; core/vm/didvalidator.go, isRevokedByIDS). A zero issuer
// stands for none. An error is a *RuleError ([RuleLookup]).
func RevokedBy(revokers []did.DID, owner, issuer did.DID, docs did.Lookup) (int, error) {
	if len(revokers) == 0 {
		return -1, nil
	}
	var parties []did.DID
	for _, party := range []did.DID{owner, issuer} {
		if party.IsZero() {
			continue
		}
		parties = append(parties, party)
		if !party.IsCustomized() || docs == nil {
			continue
		}
		doc, err := docs.Document(party)
		if err != nil {
			return -1, broken(RuleLookup, fmt.Errorf("looking up %s: %w", party, err))
		}
		if doc != nil {
			parties = append(parties, doc.Controllers()...)
		}
	}
	for i, r := range revokers {
		for _, p := range parties {
			if r.Key() == p.Key() {
				return i, nil
			}
		}
	}
	return -1, nil
}
