package eid

import (
	"fmt"
	"strings"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/did/sdkjson"
	"github.com/didlight/didlight/core/excerpt"
	"github.com/didlight/didlight/core/resolve"
)

// CredentialRequest is a did_resolveCredential request as it was sent.
type CredentialRequest struct {
	ID     string // the id param: a credential id, in full form or without did:elastos:
	Issuer string // the issuer param; empty when none was sent
}

// ResolvedCredential is what a did_resolveCredential answer proves once
// checked.
type ResolvedCredential struct {
	*resolve.VerifiedCredential
	Report Report
}

// VerifyCredential checks a did_resolveCredential answer of an EID node
// (the JSON-RPC response, or its result object) for the request req, as
// [resolve.Checker.VerifyCredential] does in [resolve.DialectEID]: every
// transaction shown validated with the owner's, the issuer's and the
// signers' documents from env.Docs, and the status EID derives from them.
// The answer must be about the credential asked for. Documents env.Docs
// has not fetched make it fail with a *NeedError.
func VerifyCredential(answer []byte, req CredentialRequest, env Env) (*ResolvedCredential, error) {
	asked, err := fullCredentialID(req.ID)
	if err != nil {
		return nil, fmt.Errorf("eid: the request: %w", err)
	}
	if err := checkSize(answer); err != nil {
		return nil, err
	}
	var issuer did.DID
	if req.Issuer != "" {
		if issuer, err = did.Parse(req.Issuer); err != nil {
			return nil, fmt.Errorf("eid: the request's issuer: %w", err)
		}
	}
	rec := &recorder{docs: env.Docs}
	c := resolve.Checker{Dialect: resolve.DialectEID, Docs: rec, Verifier: env.Verifier}
	v, err := c.VerifyCredential(answer, issuer)
	if err := rec.need(err, nil); err != nil {
		return nil, err
	}
	switch {
	case v.Status == resolve.CredentialNotFound && v.ID != asked:
		return nil, fmt.Errorf("eid: the answer says %s is not found, but %s was asked", v.ID, asked)
	case v.ID.Key() != asked.Key():
		return nil, fmt.Errorf("eid: the answer is about %s, but %s was asked", v.ID, asked)
	}
	return &ResolvedCredential{VerifiedCredential: v, Report: credentialReport(v, !issuer.IsZero())}, nil
}

// fullCredentialID reads a credential id as EID does, adding did:elastos:
// when it is missing.
func fullCredentialID(s string) (did.URL, error) {
	if !strings.HasPrefix(s, "did:") {
		s = "did:" + did.Method + ":" + s
	}
	return did.ParseCredentialID(s)
}

// credentialReport says what verifying v checked; withIssuer says whether
// the request named an issuer, which lets EID hide revokes.
func credentialReport(v *resolve.VerifiedCredential, withIssuer bool) Report {
	if v.Status == resolve.CredentialNotFound {
		return Report{Outcome: OutcomeNothing, Checked: []Claim{CheckedAnswer}, Trusted: []Claim{TrustedNotFound}}
	}
	if v.Shown == 0 {
		// Revoked, every revoke hidden: an issuer was asked about and
		// none of the revokes is by it.
		return Report{Outcome: OutcomeNothing, Checked: []Claim{CheckedAnswer}, Trusted: []Claim{TrustedHidden}}
	}
	r := Report{Outcome: OutcomeVerified,
		Checked: []Claim{CheckedAnswer, CheckedOrder, CheckedSignatures, CheckedDocProofs, CheckedControllers, CheckedRevokers, CheckedStatus},
		Trusted: []Claim{TrustedInclusion, TrustedBlockTime, TrustedNewest, TrustedController}}
	if withIssuer {
		r.Trusted = append(r.Trusted, TrustedHidden)
	}
	return r
}

// ListRequest is a did_listCredentials request as it was sent.
type ListRequest struct {
	DID         string
	Skip, Limit int
}

// CredentialList is what a did_listCredentials answer proves once checked.
type CredentialList struct {
	DID    did.DID
	IDs    []did.URL
	Report Report
}

// VerifyCredentialList checks a did_listCredentials answer of an EID node
// ({"did", "credentials"}, or the JSON-RPC response holding it) for req:
// the DID asked for, at most a page of credential ids (limit 0 meaning
// 128, at most 256: [resolve.CredentialPage]), each under that DID and
// listed once. EID writes no credentials as null (core/rawdb
// did_chainstore.go, GetAllDIDVerifCredentials, and ListDIDVerifCreentials'
// Credentials slice); which credentials the DID declared, and their order,
// is the upstream's word: resolve each with did_resolveCredential to check
// it. An unknown DID is an error answer, returned as an error.
func VerifyCredentialList(answer []byte, req ListRequest) (*CredentialList, error) {
	asked, err := did.Parse(req.DID)
	if err != nil {
		return nil, fmt.Errorf("eid: the request: %w", err)
	}
	_, limit, err := resolve.CredentialPage(resolve.CredentialListMax, 0, req.Limit)
	if err != nil || req.Skip < 0 {
		return nil, fmt.Errorf("eid: the request: skip %d and limit %d must not be negative", req.Skip, req.Limit)
	}
	result, err := rpcResult(answer)
	if err != nil {
		return nil, err
	}
	var subject string
	var ids []string
	d := sdkjson.NewDecoder(result)
	for m := d.Object(); m.Next(); {
		switch m.Key() {
		case "did":
			subject = d.Str()
		case "credentials":
			if d.Null() {
				continue
			}
			for e := d.Array(); e.Next(); {
				ids = append(ids, d.Str())
			}
		default:
			d.Skip()
		}
	}
	if err := d.Finish(); err != nil {
		return nil, fmt.Errorf("eid: credential list: %w", err)
	}
	l := &CredentialList{Report: Report{Outcome: OutcomeVerified, Checked: []Claim{CheckedAnswer, CheckedListedIDs}, Trusted: []Claim{TrustedListed}}}
	if l.DID, err = did.Parse(subject); err != nil || l.DID.Key() != asked.Key() {
		return nil, fmt.Errorf("eid: the list is of %s, but %s was asked", excerpt.Quote(subject), asked)
	}
	if len(ids) > limit {
		return nil, fmt.Errorf("eid: %d credentials listed, a page holds at most %d", len(ids), limit)
	}
	seen := make(map[string]bool, len(ids))
	for i, s := range ids {
		id, err := did.ParseCredentialID(s)
		switch {
		case err != nil:
			return nil, fmt.Errorf("eid: credential %d: %w", i, err)
		case id.DID.Key() != asked.Key():
			return nil, fmt.Errorf("eid: credential %d, %s, is not under %s", i, id, asked)
		case seen[id.Key()]:
			return nil, fmt.Errorf("eid: credential %s is listed twice", id)
		}
		seen[id.Key()] = true
		l.IDs = append(l.IDs, id)
	}
	return l, nil
}
