package resolve

import (
	"fmt"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/jsontext"
)

// CredentialStatus is the state of a credential in a resolvecredential
// result, numbered as the SDKs read it (Elastos.DID.JS.SDK
// src/backend/credentialbiography.ts; Elastos.ELA.SideChain.EID
// internal/didapi/didtype.go, where 1 is reserved and never given).
type CredentialStatus int

// The statuses of a credential.
const (
	CredentialValid    CredentialStatus = 0 // declared, and no revoke that counts
	CredentialRevoked  CredentialStatus = 2 // a revoke that counts, declared or not
	CredentialNotFound CredentialStatus = 3 // neither
)

func (s CredentialStatus) String() string {
	switch s {
	case CredentialValid:
		return "valid"
	case CredentialRevoked:
		return "revoked"
	case CredentialNotFound:
		return "not found"
	}
	return fmt.Sprintf("status %d", int(s))
}

// CredentialResult builds the resolvecredential result object for the
// credential id from the history of that id (its declare and revokes, in
// any order): {"id", "status", "transaction"}, the id in full form.
//
// The issuer whose revokes count is the declared credential's, or, while
// nothing is declared, the issuer the caller names (zero for none); a
// revoke counts when it is signed by the credential's owner (the DID of
// its id) or that issuer, or by a controller of either (see
// idop.RevokedBy). Status 2 (revoked) shows the newest revoke that counts
// and then the declare, if any; status 0 (valid) shows the declare; status 3
// (not found) has no transaction member. Revokes that do not count are not
// shown: the SDKs read transaction 0 as the credential's state and refuse
// other shapes (Elastos.DID.JS.SDK src/didbackend.ts, resolveCredential;
// Elastos.ELA.SideChain.EID internal/ethapi/didapi.go, ResolveCredential,
// whose status this follows). docs holds the current documents of the
// owner and the issuer, for their controllers.
func CredentialResult(id did.URL, h []Entry, issuer did.DID, docs did.Lookup) ([]byte, error) {
	status, txs, err := credentialHistory(id, h, issuer, docs)
	if err != nil {
		return nil, err
	}
	return appendResult(nil, "id", id.String(), int(status), txs), nil
}

// credentialHistory derives the status of credential id and the
// transactions its result shows.
func credentialHistory(id did.URL, h []Entry, issuer did.DID, docs did.Lookup) (CredentialStatus, []Entry, error) {
	sorted := Sorted(h)
	declare := -1
	var revokes []int
	var revokers []did.DID
	for i, e := range sorted {
		op, err := idop.Decode(e.Request)
		if err != nil {
			return 0, nil, fmt.Errorf("resolve: transaction %s: %w", e.Txid, err)
		}
		if op.CredentialID.Key() != id.Key() {
			return 0, nil, fmt.Errorf("resolve: transaction %s is a %s of %q, in the history of credential %s", e.Txid, op.Request.Header.Operation, op.CredentialID, id)
		}
		switch {
		case op.Request.Header.Operation == idop.Revoke:
			revokes, revokers = append(revokes, i), append(revokers, op.Method.DID)
		case declare >= 0:
			return 0, nil, fmt.Errorf("resolve: credential %s is declared twice, in %s and %s", id, e.Txid, sorted[declare].Txid)
		default:
			declare, issuer = i, op.Credential.Issuer
		}
	}
	r, err := idop.RevokedBy(revokers, id.DID, issuer, docs)
	switch {
	case err != nil:
		return 0, nil, fmt.Errorf("resolve: credential %s: %w", id, err)
	case r >= 0 && declare >= 0:
		return CredentialRevoked, []Entry{sorted[revokes[r]], sorted[declare]}, nil
	case r >= 0:
		return CredentialRevoked, []Entry{sorted[revokes[r]]}, nil
	case declare >= 0:
		return CredentialValid, []Entry{sorted[declare]}, nil
	}
	return CredentialNotFound, nil, nil
}

// Paging of listcredentials, as the identity chain does it
// (Elastos.ELA.SideChain.EID internal/ethapi/didapi.go, ListCredentials).
const (
	CredentialListDefault = 128 // the page size when limit is 0 or absent
	CredentialListMax     = 256 // larger limits are clamped to this
)

// CredentialPage returns the window [start, end) of a list of n credential
// ids that skip and limit select: limit 0 means CredentialListDefault,
// larger than CredentialListMax means CredentialListMax. A negative skip or
// limit is an error (the chain answers it with invalid params).
func CredentialPage(n, skip, limit int) (start, end int, err error) {
	if skip, limit, err = page(skip, limit, CredentialListDefault, CredentialListMax); err != nil {
		return 0, 0, fmt.Errorf("resolve: %w", err)
	}
	start = min(skip, n)
	return start, min(start+limit, n), nil
}

// CredentialList builds the listcredentials result object
// {"did":…,"credentials":[…]} for d from one page of the ids of the
// credentials declared about d. The chain lists a DID's credentials newest
// declared first, revoked ones included (EID core/rawdb/did_chainstore.go,
// persistDIDVerifCredentials prepends each declare and revokes remove
// nothing). An empty page is an empty array, which the SDKs read as no
// credentials.
func CredentialList(d did.DID, ids []did.URL) []byte {
	dst := append([]byte(`{"did":`), jsontext.JS.AppendString(nil, d.String())...)
	dst = append(dst, `,"credentials":[`...)
	for i, id := range ids {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsontext.JS.AppendString(dst, id.String())
	}
	return append(dst, "]}"...)
}
