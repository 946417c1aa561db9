package eid

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/internal/vectors"
	"github.com/didlight/didlight/core/resolve"
)

const (
	user1DID  = "did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y"
	user4DID  = "did:elastos:igHbSCez6H3gTuVPzwNZRrdj92GCJ6hD5d"
	issuerDID = "did:elastos:imUUPBfrZ1yZx6nWXe6LNN59VeX2E6PPKj"
)

// vcRecords builds the history of one credential of the SDK vectors:
// declares and revokes by the named users, a day apart, oldest first.
type vcRecords struct {
	t  testing.TB
	vc *did.Credential
	h  history
}

func vcOf(t testing.TB, name string) *vcRecords {
	t.Helper()
	vc, err := did.ParseCredential(vectors.Read("elastos-did-sdk/v2.2/" + name + ".json"))
	if err != nil {
		t.Fatal(err)
	}
	return &vcRecords{t: t, vc: vc}
}

// by returns the key the named party signs with and its private key's
// name: a user's primary key, or foobar's key2.
func (v *vcRecords) by(party string) (did.URL, string) {
	if party == "foobar" {
		return did.URL{DID: mustDID(v.t, "did:elastos:foobar"), Fragment: "key2"}, "foobar.id.key2"
	}
	k := privateKey(v.t, party+".id.primary")
	return did.URL{DID: did.FromKey(k.Public()), Fragment: did.PrimaryKey}, party + ".id.primary"
}

func (v *vcRecords) declare(party string) *vcRecords {
	m, key := v.by(party)
	v.h.add(v.t, fmt.Sprint("declare ", v.vc.ID, len(v.h)), func(string) (idop.Request, error) {
		return idop.NewDeclare(v.vc, m, privateKey(v.t, key))
	})
	return v
}

func (v *vcRecords) revoke(party string) *vcRecords {
	m, key := v.by(party)
	v.h.add(v.t, fmt.Sprint("revoke ", v.vc.ID, len(v.h)), func(string) (idop.Request, error) {
		return idop.NewRevoke(v.vc.ID, m, privateKey(v.t, key))
	})
	return v
}

// eidCredentialAnswer writes the did_resolveCredential response EID gives
// for the credential's history when asked for asked with issuer (""
// none), following internal/ethapi/didapi.go, ResolveCredential, line by
// line: the declare always; without an issuer every revoke down to the
// newest that counts; with one, that revoke or else the newest by the
// issuer, last. The status counts every transaction, shown or not.
func eidCredentialAnswer(t testing.TB, v *vcRecords, asked, issuer string) []byte {
	t.Helper()
	docs := sdkDocs(t)
	realIssuer := ""
	for _, r := range v.h {
		if r.req.Header.Operation == idop.Declare {
			realIssuer = v.vc.Issuer.String()
		}
	}
	revokedBy := func(revoker string, ids ...string) bool {
		for _, id := range ids {
			if revoker == id {
				return true
			}
			if d := mustDID(t, id); d.IsCustomized() {
				doc, _ := docs.Document(d)
				for _, c := range doc.Controllers() {
					if c.String() == revoker {
						return true
					}
				}
			}
		}
		return false
	}
	res := map[string]any{"id": asked, "status": 3}
	var shown []eidTx
	var issuerRevoke *eidTx
	haveValid := false
	for i := len(v.h) - 1; i >= 0; i-- {
		r := v.h[i]
		tx := eidTxOf(r)
		res["id"] = v.vc.ID.String()
		if r.req.Header.Operation == idop.Declare {
			shown = append(shown, tx)
			continue
		}
		revoker, _, _ := strings.Cut(r.req.Proof.VerificationMethod, "#")
		ids := []string{v.vc.ID.DID.String()}
		if realIssuer != "" {
			ids = append(ids, realIssuer)
		}
		if !haveValid {
			if haveValid = revokedBy(revoker, ids...); haveValid {
				shown = append(shown, tx)
			}
		}
		switch {
		case issuer != "" && !haveValid && issuerRevoke == nil && revokedBy(revoker, issuer):
			issuerRevoke = &tx
		case issuer == "" && !haveValid:
			shown = append(shown, tx)
		}
	}
	if !haveValid && issuerRevoke != nil {
		shown = append(shown, *issuerRevoke)
	}
	switch n := len(v.h); {
	case n == 0:
		res["id"] = asked
	case n == 1 && v.h[0].req.Header.Operation == idop.Declare:
		res["status"] = 0
	case n == 1, haveValid, realIssuer == "":
		res["status"] = 2
	default:
		res["status"] = 0
	}
	if len(shown) > 0 {
		res["transaction"] = shown
	}
	return marshal(t, eidResponse{JSONRPC: "2.0", ID: "c1", Result: res})
}

// EID's credential answers verify, in every shape it gives; those where
// it hides transactions say so.
func TestVerifyCredentialAccepts(t *testing.T) {
	twitter := func() *vcRecords { return vcOf(t, "user1.vc.twitter") }
	license := func() *vcRecords { return vcOf(t, "foobar.vc.license") }
	for _, tc := range []struct {
		name    string
		v       *vcRecords
		issuer  string
		status  resolve.CredentialStatus
		shown   int
		outcome Outcome
	}{
		{"never seen", twitter(), "", resolve.CredentialNotFound, 0, OutcomeNothing},
		{"declared", twitter().declare("user1"), "", resolve.CredentialValid, 1, OutcomeVerified},
		{"revoked by the owner", twitter().declare("user1").revoke("user1"), "", resolve.CredentialRevoked, 2, OutcomeVerified},
		{"revoked by the issuer", twitter().declare("user1").revoke("issuer"), "", resolve.CredentialRevoked, 2, OutcomeVerified},
		{"a stranger's revoke before the declare", twitter().revoke("user4").declare("user1"), "", resolve.CredentialValid, 2, OutcomeVerified},
		{"the same, an issuer asked for", twitter().revoke("user4").declare("user1"), issuerDID, resolve.CredentialValid, 1, OutcomeVerified},
		{"undeclared, revoked by the issuer", twitter().revoke("issuer"), "", resolve.CredentialRevoked, 1, OutcomeVerified},
		{"undeclared, revoked by a stranger", twitter().revoke("user4"), "", resolve.CredentialRevoked, 1, OutcomeVerified},
		{"undeclared, a stranger's revoke hidden", twitter().revoke("user4"), issuerDID, resolve.CredentialRevoked, 0, OutcomeNothing},
		{"undeclared, the issuer's revoke appended", twitter().revoke("issuer").revoke("user4"), issuerDID, resolve.CredentialRevoked, 1, OutcomeVerified},
		{"undeclared, every revoke shown", twitter().revoke("user4").revoke("issuer"), "", resolve.CredentialRevoked, 2, OutcomeVerified},
		{"undeclared, down to the owner's revoke", twitter().revoke("user4").revoke("issuer").revoke("user1"), "", resolve.CredentialRevoked, 1, OutcomeVerified},
		{"customized owner, revoked by its controller", license().declare("foobar").revoke("user3"), "", resolve.CredentialRevoked, 2, OutcomeVerified},
	} {
		t.Run(tc.name, func(t *testing.T) {
			asked := tc.v.vc.ID.String()
			r, err := VerifyCredential(eidCredentialAnswer(t, tc.v, asked, tc.issuer), CredentialRequest{asked, tc.issuer}, env(t))
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != tc.status || r.Shown != tc.shown || r.Report.Outcome != tc.outcome {
				t.Errorf("status %v, %d shown, %s; want %v, %d, %s", r.Status, r.Shown, r.Report.Outcome, tc.status, tc.shown, tc.outcome)
			}
			if (tc.issuer != "") != slices.Contains(r.Report.Trusted, TrustedHidden) {
				t.Errorf("trusted %v", r.Report.Trusted)
			}
		})
	}
}

// Tampered credential answers, and shapes EID does not give, are refused.
func TestVerifyCredentialRefuses(t *testing.T) {
	twitter := vcOf(t, "user1.vc.twitter")
	revoked := eidCredentialAnswer(t, vcOf(t, "user1.vc.twitter").declare("user1").revoke("user1"), twitter.vc.ID.String(), "")
	declared := eidCredentialAnswer(t, vcOf(t, "user1.vc.twitter").declare("user1"), twitter.vc.ID.String(), "")
	other := eidCredentialAnswer(t, vcOf(t, "user1.vc.passport").declare("user1"), "x", "")
	strangerOnly := vcOf(t, "user1.vc.twitter").revoke("user4")
	strangerThenOwner := vcOf(t, "user1.vc.twitter").revoke("user4").revoke("user1")
	asked := CredentialRequest{ID: twitter.vc.ID.String()}
	withIssuer := CredentialRequest{ID: twitter.vc.ID.String(), Issuer: issuerDID}
	for _, tc := range []struct {
		name   string
		answer []byte
		req    CredentialRequest
		rule   idop.Rule // of a *resolve.VerifyError; "" for another error
		msg    string
	}{
		{"flipped signature byte", edit(t, declared, func(r map[string]any) {
			p := opOf(r, 0)["proof"].(map[string]any)
			p["signature"] = "A" + p["signature"].(string)[1:]
		}), asked, idop.RuleSignature, "does not verify"},
		{"status 0 of a revoked credential", edit(t, revoked, func(r map[string]any) { r["status"] = 0 }), asked, resolve.RuleStatus, "the transactions give 2"},
		{"status 2 of a declared one", edit(t, declared, func(r map[string]any) { r["status"] = 2 }), asked, resolve.RuleStatus, "the transactions give 0"},
		{"status 1", edit(t, declared, func(r map[string]any) { r["status"] = 1 }), asked, idop.RuleMalformed, "is not one of 0, 2, 3"},
		{"reordered", edit(t, revoked, func(r map[string]any) {
			ts := txs(r)
			ts[0], ts[1] = ts[1], ts[0]
		}), asked, resolve.RuleOrder, "newer than the transaction before it"},
		{"another credential's declare", edit(t, declared, func(r map[string]any) {
			txs(r)[0].(map[string]any)["operation"] = opOf(eidResultOf(t, other), 0)
		}), asked, idop.RuleDocID, "in the result of"},
		{"a revoke after the one that counts", edit(t, eidCredentialAnswer(t, strangerThenOwner, twitter.vc.ID.String(), ""), func(r map[string]any) {
			r["transaction"] = append(txs(r), txs(eidResultOf(t, eidCredentialAnswer(t, strangerOnly, twitter.vc.ID.String(), "")))...)
		}), asked, idop.RuleMalformed, "after the one that counts"},
		{"two revokes for a request with an issuer", eidCredentialAnswer(t, vcOf(t, "user1.vc.twitter").revoke("user4").revoke("issuer"), twitter.vc.ID.String(), ""), withIssuer, idop.RuleMalformed, "at most one"},
		{"revoked without transactions, no issuer asked for", edit(t, revoked, func(r map[string]any) { delete(r, "transaction") }), asked, idop.RuleMalformed, "without transactions"},
		{"not found, another id named", eidCredentialAnswer(t, vcOf(t, "user1.vc.twitter"), "did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y#passport", ""), asked, "", "is not found, but"},
		{"about another credential than asked", other, asked, "", "is about"},
		{"txid with 0x", edit(t, declared, func(r map[string]any) {
			tx := txs(r)[0].(map[string]any)
			tx["txid"] = "0x" + tx["txid"].(string)
		}), asked, idop.RuleMalformed, "as EID writes an EVM hash"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := VerifyCredential(tc.answer, tc.req, env(t))
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("error %v, want one saying %q", err, tc.msg)
			}
			var ve *resolve.VerifyError
			if (tc.rule != "") != errors.As(err, &ve) || tc.rule != "" && ve.Rule != tc.rule {
				t.Errorf("error %v, want rule %q", err, tc.rule)
			}
		})
	}
	// The owner's and issuer's documents are asked for until fetched.
	e := env(t)
	e.Docs = nil
	var need *NeedError
	if _, err := VerifyCredential(declared, asked, e); !errors.As(err, &need) || len(need.DIDs) == 0 {
		t.Errorf("without documents: %v, want a NeedError", err)
	}
}

func TestVerifyCredentialList(t *testing.T) {
	list := func(did string, ids ...string) []byte {
		r := map[string]any{"did": did, "credentials": ids}
		if ids == nil {
			r["credentials"] = nil
		}
		return marshal(t, eidResponse{JSONRPC: "2.0", ID: "l", Result: r})
	}
	twitter, passport := user1DID+"#twitter", user1DID+"#passport"
	many := make([]string, 129)
	for i := range many {
		many[i] = fmt.Sprintf("%s#c%d", user1DID, i)
	}
	for _, tc := range []struct {
		name   string
		answer []byte
		req    ListRequest
		n      int
		msg    string // "" accepted
	}{
		{"two", list(user1DID, twitter, passport), ListRequest{DID: user1DID}, 2, ""},
		{"none, as EID writes it", list(user1DID), ListRequest{DID: user1DID}, 0, ""},
		{"none, as an empty array", list(user1DID, []string{}...), ListRequest{DID: user1DID}, 0, ""},
		{"customized, lower-cased", list("did:elastos:foobar", "did:elastos:foobar#license"), ListRequest{DID: "did:elastos:FooBar"}, 1, ""},
		{"asked bare", list(user1DID, twitter), ListRequest{DID: user1DID[len("did:elastos:"):]}, 1, ""},
		{"another DID's list", list(user4DID), ListRequest{DID: user1DID}, 0, "but did:elastos:iXcR"},
		{"a credential of another DID", list(user1DID, user4DID+"#x"), ListRequest{DID: user1DID}, 0, "is not under"},
		{"listed twice", list(user1DID, twitter, twitter), ListRequest{DID: user1DID}, 0, "listed twice"},
		{"more than the default page", list(user1DID, many...), ListRequest{DID: user1DID}, 0, "at most 128"},
		{"more than asked", list(user1DID, twitter, passport), ListRequest{DID: user1DID, Limit: 1}, 0, "at most 1"},
		{"not a credential id", list(user1DID, user1DID), ListRequest{DID: user1DID}, 0, "not a credential id"},
		{"an unknown DID", []byte(`{"jsonrpc":"2.0","id":"l","error":{"code":-32602,"message":"did is not exist"}}`), ListRequest{DID: user1DID}, 0, "answered an error"},
		{"a negative skip", list(user1DID), ListRequest{DID: user1DID, Skip: -1}, 0, "must not be negative"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := VerifyCredentialList(tc.answer, tc.req)
			if tc.msg != "" {
				if err == nil || !strings.Contains(err.Error(), tc.msg) {
					t.Fatalf("error %v, want one saying %q", err, tc.msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(l.IDs) != tc.n || l.Report.Outcome != OutcomeVerified || !slices.Contains(l.Report.Trusted, TrustedListed) {
				t.Errorf("%d ids, report %+v", len(l.IDs), l.Report)
			}
		})
	}
}
