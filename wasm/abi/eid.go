package abi

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/eid"
	"github.com/didlight/didlight/core/jsontext"
)

// The EID calls verify what an EID node answers (core/eid). Verifying may
// need more than the answer: other DIDs' documents and the provenance of
// transactions from EID's migration window. A call then fails with a
// "need" error naming them; the caller fetches each (did_resolveDID with
// all=true for a DID, eth_getTransactionByHash for a txid), adds the
// answers to dids and transactions, as the upstream gave them, and calls
// again. The module verifies those answers too (eid.Fetched): nothing in
// the input is taken on the caller's word, and the host's lookup_document
// is not asked.

// FetchedDID is another DID's did_resolveDID answer (all=true), as the
// upstream gave it, fetched because a need error named the DID.
type FetchedDID struct {
	DID    string          `json:"did"`
	Answer json.RawMessage `json:"answer"`
}

func (*FetchedDID) typeName() string { return "abi.FetchedDID" }

func (f *FetchedDID) member(d *decoder) bool {
	switch {
	case d.field("did"):
		d.str(&f.DID)
	case d.field("answer"):
		d.raw(&f.Answer)
	default:
		return false
	}
	return true
}

// fetchedMember reads the members that every EID call but
// verify_eid_credential_list takes besides its own: now, chainId, dids and
// transactions.
func fetchedMember(d *decoder, now *time.Time, chainID *uint64, dids *[]FetchedDID, txs *[]json.RawMessage) bool {
	switch {
	case d.field("now"):
		d.time(now)
	case d.field("chainId"):
		n := int64(*chainID)
		d.integer(&n, "uint64", 64, true)
		*chainID = uint64(n)
	case d.field("dids"):
		list(d, dids, "[]abi.FetchedDID", func(f *FetchedDID) { d.object(f) })
	case d.field("transactions"):
		d.raws(txs)
	default:
		return false
	}
	return true
}

// fetched checks the members fetchedMember reads and returns the verifier
// of the chain chainID with what they hold.
func fetched(now time.Time, chainID uint64, dids []FetchedDID, txs []json.RawMessage, env Env) (*eid.Fetched, error) {
	if err := required("now", now.IsZero()); err != nil {
		return nil, err
	}
	if err := required("chainId", chainID == 0); err != nil {
		return nil, err
	}
	f := eid.NewFetched(eid.Env{Network: eid.NetworkOf(chainID), Verifier: env.verifier(), Now: now})
	for i, fd := range dids {
		d, err := did.Parse(fd.DID)
		if err != nil {
			return nil, fmt.Errorf("abi: dids[%d]: %w", i, err)
		}
		if err := required(fmt.Sprintf("dids[%d].answer", i), len(fd.Answer) == 0); err != nil {
			return nil, err
		}
		f.AddDID(d, fd.Answer)
	}
	for i, tx := range txs {
		if err := f.AddTransaction(tx); err != nil {
			return nil, fmt.Errorf("abi: transactions[%d]: %w", i, err)
		}
	}
	return f, nil
}

// Report is a verification's report (eid.Report): what it checked, what it
// took on the upstream's word and what nobody checked (docs/eid.md).
type Report struct {
	Outcome   string   `json:"outcome"` // "verified", "migrated" or "nothing to verify"
	Checked   []string `json:"checked"`
	Trusted   []string `json:"trusted"`
	Unchecked []string `json:"unchecked"`
}

func reportOf(r eid.Report) Report {
	claims := func(cs []eid.Claim) []string {
		out := make([]string, len(cs))
		for i, c := range cs {
			out[i] = string(c)
		}
		return out
	}
	return Report{Outcome: string(r.Outcome), Checked: claims(r.Checked), Trusted: claims(r.Trusted), Unchecked: claims(r.Unchecked)}
}

func (r Report) appendJSON(b []byte) []byte {
	o := jsontext.NewObject(b, jsontext.Std)
	o.String("outcome", r.Outcome)
	o.Strings("checked", r.Checked)
	o.Strings("trusted", r.Trusted)
	o.Strings("unchecked", r.Unchecked)
	return o.End()
}

// VerifyEIDDIDInput is the input of verify_eid_did.
type VerifyEIDDIDInput struct {
	// Answer is the node's did_resolveDID answer: the JSON-RPC response,
	// or its result object.
	Answer json.RawMessage `json:"answer"`
	// DID and All are the request's params as sent: the DID in full form
	// or bare.
	DID string `json:"did"`
	All bool   `json:"all,omitempty"`
	// Now is the chain tip's block time, at which expiry is judged.
	Now time.Time `json:"now"`
	// ChainID is the chain's eth_chainId: 22 mainnet, 23 testnet; any
	// other chain had no migration window.
	ChainID uint64 `json:"chainId"`
	// DIDs and Transactions are what need errors asked for, as fetched.
	DIDs         []FetchedDID      `json:"dids,omitempty"`
	Transactions []json.RawMessage `json:"transactions,omitempty"`
}

func (*VerifyEIDDIDInput) typeName() string { return "abi.VerifyEIDDIDInput" }

func (in *VerifyEIDDIDInput) member(d *decoder) bool {
	switch {
	case d.field("answer"):
		d.raw(&in.Answer)
	case d.field("did"):
		d.str(&in.DID)
	case d.field("all"):
		d.boolean(&in.All)
	default:
		return fetchedMember(d, &in.Now, &in.ChainID, &in.DIDs, &in.Transactions)
	}
	return true
}

// VerifiedEIDDID is the output of verify_eid_did: what the answer proves,
// as verify_resolve_result says it (with EID's statuses: 0 valid, 2
// deactivated, 3 not found), and more.
type VerifiedEIDDID struct {
	VerifiedResult
	// Expired: the latest document has expired at Now, which EID leaves
	// to the client (its status stays 0).
	Expired bool `json:"expired"`
	// Migrated are the txids of operations from EID's migration window,
	// of which only the signatures were checked.
	Migrated []string `json:"migrated,omitempty"`
	Report   Report   `json:"report"`
}

func (v VerifiedEIDDID) appendJSON(b []byte) []byte {
	o := jsontext.NewObject(b, jsontext.Std)
	v.VerifiedResult.members(&o)
	o.Bool("expired", v.Expired)
	if len(v.Migrated) > 0 {
		o.Strings("migrated", v.Migrated)
	}
	o.Value("report", v.Report.appendJSON)
	return o.End()
}

// VerifyEIDDID runs verify_eid_did: eid.VerifyDID, with other DIDs'
// documents and transactions from the answers the input carries.
func VerifyEIDDID(in []byte, env Env) []byte { return run(in, env, verifyEIDDID) }

func verifyEIDDID(in *VerifyEIDDIDInput, env Env) (VerifiedEIDDID, error) {
	if err := required("answer", len(in.Answer) == 0); err != nil {
		return VerifiedEIDDID{}, err
	}
	f, err := fetched(in.Now, in.ChainID, in.DIDs, in.Transactions, env)
	if err != nil {
		return VerifiedEIDDID{}, err
	}
	r, err := f.VerifyDID(in.Answer, eid.Request{DID: in.DID, All: in.All})
	if err != nil {
		return VerifiedEIDDID{}, err
	}
	return VerifiedEIDDID{VerifiedResult: verifiedResult(r.Verified), Expired: r.Expired, Migrated: r.Migrated, Report: reportOf(r.Report)}, nil
}

// VerifyEIDCredentialInput is the input of verify_eid_credential.
type VerifyEIDCredentialInput struct {
	// Answer is the node's did_resolveCredential answer: the JSON-RPC
	// response, or its result object.
	Answer json.RawMessage `json:"answer"`
	// ID and Issuer are the request's params as sent; Issuer empty when
	// none was.
	ID     string `json:"id"`
	Issuer string `json:"issuer,omitempty"`
	// Now, ChainID, DIDs and Transactions are as for verify_eid_did: the
	// owner's, issuer's and signers' DIDs are verified from their answers.
	Now          time.Time         `json:"now"`
	ChainID      uint64            `json:"chainId"`
	DIDs         []FetchedDID      `json:"dids,omitempty"`
	Transactions []json.RawMessage `json:"transactions,omitempty"`
}

func (*VerifyEIDCredentialInput) typeName() string { return "abi.VerifyEIDCredentialInput" }

func (in *VerifyEIDCredentialInput) member(d *decoder) bool {
	switch {
	case d.field("answer"):
		d.raw(&in.Answer)
	case d.field("id"):
		d.str(&in.ID)
	case d.field("issuer"):
		d.str(&in.Issuer)
	default:
		return fetchedMember(d, &in.Now, &in.ChainID, &in.DIDs, &in.Transactions)
	}
	return true
}

// VerifiedEIDCredential is the output of verify_eid_credential.
type VerifiedEIDCredential struct {
	ID         string `json:"id"`
	Status     int    `json:"status"`     // 0 valid, 2 revoked, 3 not found
	StatusName string `json:"statusName"` // "valid", "revoked", "not found"
	// Txid is the declare's transaction and Credential the declared
	// credential (normalized); both absent when the answer shows no
	// declare.
	Txid       string          `json:"txid,omitempty"`
	Credential json.RawMessage `json:"credential,omitempty"`
	// RevokedBy is the DID whose revoke counts, for status 2 when shown.
	RevokedBy string `json:"revokedBy,omitempty"`
	Shown     int    `json:"shown"` // the transactions the answer shows
	Report    Report `json:"report"`
}

func (v VerifiedEIDCredential) appendJSON(b []byte) []byte {
	o := jsontext.NewObject(b, jsontext.Std)
	o.String("id", v.ID)
	o.Int("status", int64(v.Status))
	o.String("statusName", v.StatusName)
	o.StringOmit("txid", v.Txid)
	o.RawOmit("credential", v.Credential)
	o.StringOmit("revokedBy", v.RevokedBy)
	o.Int("shown", int64(v.Shown))
	o.Value("report", v.Report.appendJSON)
	return o.End()
}

// VerifyEIDCredential runs verify_eid_credential: eid.VerifyCredential,
// with other DIDs' documents from the answers the input carries.
func VerifyEIDCredential(in []byte, env Env) []byte { return run(in, env, verifyEIDCredential) }

func verifyEIDCredential(in *VerifyEIDCredentialInput, env Env) (VerifiedEIDCredential, error) {
	if err := required("answer", len(in.Answer) == 0); err != nil {
		return VerifiedEIDCredential{}, err
	}
	f, err := fetched(in.Now, in.ChainID, in.DIDs, in.Transactions, env)
	if err != nil {
		return VerifiedEIDCredential{}, err
	}
	r, err := f.VerifyCredential(in.Answer, eid.CredentialRequest{ID: in.ID, Issuer: in.Issuer})
	if err != nil {
		return VerifiedEIDCredential{}, err
	}
	out := VerifiedEIDCredential{ID: r.ID.String(), Status: int(r.Status), StatusName: r.Status.String(), Txid: r.Txid,
		Shown: r.Shown, Report: reportOf(r.Report)}
	if r.Credential != nil {
		out.Credential = r.Credential.Normalized()
	}
	if !r.RevokedBy.IsZero() {
		out.RevokedBy = r.RevokedBy.String()
	}
	return out, nil
}

// VerifyEIDCredentialListInput is the input of verify_eid_credential_list.
type VerifyEIDCredentialListInput struct {
	// Answer is the node's did_listCredentials answer: the JSON-RPC
	// response, or its result object.
	Answer json.RawMessage `json:"answer"`
	// DID, Skip and Limit are the request's params as sent (0 when left
	// out).
	DID   string `json:"did"`
	Skip  int    `json:"skip,omitempty"`
	Limit int    `json:"limit,omitempty"`
}

func (*VerifyEIDCredentialListInput) typeName() string { return "abi.VerifyEIDCredentialListInput" }

func (in *VerifyEIDCredentialListInput) member(d *decoder) bool {
	var n int64
	switch {
	case d.field("answer"):
		d.raw(&in.Answer)
	case d.field("did"):
		d.str(&in.DID)
	case d.field("skip"):
		n = int64(in.Skip)
		d.integer(&n, "int", 64, false)
		in.Skip = int(n)
	case d.field("limit"):
		n = int64(in.Limit)
		d.integer(&n, "int", 64, false)
		in.Limit = int(n)
	default:
		return false
	}
	return true
}

// VerifiedEIDCredentialList is the output of verify_eid_credential_list.
type VerifiedEIDCredentialList struct {
	DID    string   `json:"did"`
	IDs    []string `json:"ids"` // the credential ids listed, in order
	Report Report   `json:"report"`
}

func (l VerifiedEIDCredentialList) appendJSON(b []byte) []byte {
	o := jsontext.NewObject(b, jsontext.Std)
	o.String("did", l.DID)
	o.Strings("ids", l.IDs)
	o.Value("report", l.Report.appendJSON)
	return o.End()
}

// VerifyEIDCredentialList runs verify_eid_credential_list:
// eid.VerifyCredentialList.
func VerifyEIDCredentialList(in []byte, env Env) []byte { return run(in, env, verifyEIDCredentialList) }

func verifyEIDCredentialList(in *VerifyEIDCredentialListInput, _ Env) (VerifiedEIDCredentialList, error) {
	if err := required("answer", len(in.Answer) == 0); err != nil {
		return VerifiedEIDCredentialList{}, err
	}
	l, err := eid.VerifyCredentialList(in.Answer, eid.ListRequest{DID: in.DID, Skip: in.Skip, Limit: in.Limit})
	if err != nil {
		return VerifiedEIDCredentialList{}, err
	}
	out := VerifiedEIDCredentialList{DID: l.DID.String(), IDs: make([]string, len(l.IDs)), Report: reportOf(l.Report)}
	for i, id := range l.IDs {
		out.IDs[i] = id.String()
	}
	return out, nil
}
