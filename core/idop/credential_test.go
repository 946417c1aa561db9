package idop

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/internal/vectors"
	"github.com/didlight/didlight/core/keys"
)

const issuerPrimary = "did:elastos:imUUPBfrZ1yZx6nWXe6LNN59VeX2E6PPKj#primary"

func sdkCredential(t testing.TB, name string) *did.Credential {
	t.Helper()
	c, err := did.ParseCredential(vectors.Read("elastos-did-sdk/v2.2/" + name + ".json"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// signer is a key that may sign requests, with its private key.
type signer struct {
	method string
	key    string // the name of its .sk vector
}

var (
	byUser1      = signer{user1Primary, "user1.id.primary"}
	byUser2      = signer{user2Primary, "user2.id.primary"}
	byUser4      = signer{user4Primary, "user4.id.primary"}
	byIssuer     = signer{issuerPrimary, "issuer.id.primary"}
	byFoobarKey2 = signer{"did:elastos:foobar#key2", "foobar.id.key2"}
)

func declare(t testing.TB, c *did.Credential, s signer) *Op {
	t.Helper()
	return decoded(t)(NewDeclare(c, url(t, s.method), privateKey(t, s.key)))
}

func revoke(t testing.TB, id did.URL, s signer) *Op {
	t.Helper()
	return decoded(t)(NewRevoke(id, url(t, s.method), privateKey(t, s.key)))
}

// Every SDK credential can be declared by its owner: a standard DID
// (user1), a customized one with its own key (foobar) or a controller's
// (foo, 2:2), issued by a standard DID, by the customized DID example, or
// self-proclaimed.
func TestDeclareSDKCredentials(t *testing.T) {
	docs := sdkDocs(t)
	for _, tc := range []struct {
		name string
		by   signer
	}{
		{"user1.vc.twitter", byUser1},
		{"user1.vc.passport", byUser1},
		{"user1.vc.json", byUser1},
		{"foobar.vc.license", byFoobarKey2},
		{"foobar.vc.services", byUser1},
		{"foo.vc.email", byUser2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			op := declare(t, sdkCredential(t, tc.name), tc.by)
			if err := ValidateCredential(op, nil, docs, keys.Native{}, early); err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
		})
	}
	if n := len(vectors.Glob("elastos-did-sdk/v2.2/*.vc.*.normalized.json")); n != 6 {
		t.Errorf("%d v2.2 credential vectors, this test knows 6", n)
	}
}

func TestDeclareRules(t *testing.T) {
	docs := sdkDocs(t)
	twitter := sdkCredential(t, "user1.vc.twitter")
	user1DIDv, _ := did.Parse(user1DID)
	issuerDID, _ := did.Parse(strings.TrimSuffix(issuerPrimary, "#primary"))
	user4DIDv, _ := did.Parse(user4DID)
	user2DIDv, _ := did.Parse(user2DID)
	good := declare(t, twitter, byUser1)
	late := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	tampered := *twitter
	tampered.Types = []string{"VerifiableCredential"}
	wrongPriv := decoded(t)(NewDeclare(twitter, url(t, user1Primary), privateKey(t, "user2.id.primary")))
	email := declare(t, sdkCredential(t, "foo.vc.email"), byUser1)

	for _, tc := range []struct {
		name string
		op   *Op
		st   *CredentialState
		docs did.Lookup
		now  time.Time
		rule Rule
		msg  string
	}{
		{"declared before", good, &CredentialState{Declared: twitter, Txid: txid1}, docs, early, RuleDeclared, "was declared in " + txid1},
		{"revoked by its owner", good, &CredentialState{Revokers: []did.DID{user4DIDv, user1DIDv}}, docs, early, RuleRevoked, "was revoked by " + user1DID},
		{"revoked by its issuer", good, &CredentialState{Revokers: []did.DID{issuerDID}}, docs, early, RuleRevoked, "was revoked by did:elastos:imUU"},
		{"revoked by a controller of its customized owner", email, &CredentialState{Revokers: []did.DID{user2DIDv}}, docs, early, RuleRevoked, "was revoked by " + user2DID},
		{"expired", good, nil, docs, late, RuleCredentialExpired, "expires 2026-11-20T09:55:44Z, not after the block time"},
		{"owner unknown", good, nil, without(docs, user1DID), early, RuleOwner, "owner " + user1DID + " does not exist"},
		{"owner expired", good, nil, expiredUser1(t, docs), early, RuleOwner, "owner " + user1DID + " expired"},
		{"issuer unknown", good, nil, without(docs, issuerDID.String()), early, RuleIssuer, "issuer did:elastos:imUU"},
		{"signed by the issuer", declare(t, twitter, byIssuer), nil, docs, early, RuleSignerKey, "is not an authentication key of " + user1DID},
		{"signed by a stranger", declare(t, twitter, byUser4), nil, docs, early, RuleSignerKey, "is not an authentication key"},
		{"signed with another private key", wrongPriv, nil, docs, early, RuleSignature, "does not verify"},
		{"issuer's proof", declare(t, &tampered, byUser1), nil, docs, early, RuleIssuer, "signature does not verify"},
		{"lookup fails", good, nil, failingLookup{}, early, RuleLookup, "disk on fire"},
		{"DID operation", decoded(t)(NewDeactivate(user1DIDv, url(t, user1Primary), privateKey(t, "user1.id.primary"))), nil, docs, early, RuleUnsupported, "see Validate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := ValidateCredential(tc.op, tc.st, tc.docs, keys.Native{}, tc.now)
			if RuleOf(err) != tc.rule || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("%s: %v, want rule %s containing %q", tc.name, err, tc.rule, tc.msg)
			}
		})
	}
	// A revoke by someone who is neither owner nor issuer does not stop
	// the owner from declaring.
	if err := ValidateCredential(good, &CredentialState{Revokers: []did.DID{user4DIDv}}, docs, keys.Native{}, early); err != nil {
		t.Errorf("declare after a stranger's revoke: %v", err)
	}
	if err := Validate(good, nil, docs, keys.Native{}, early); RuleOf(err) != RuleUnsupported {
		t.Errorf("Validate of a declare: %v, want rule %s", err, RuleUnsupported)
	}
}

func TestDeclareMalformed(t *testing.T) {
	twitter := sdkCredential(t, "user1.vc.twitter")
	good, err := NewDeclare(twitter, url(t, user1Primary), privateKey(t, "user1.id.primary"))
	if err != nil {
		t.Fatal(err)
	}
	norm := string(twitter.Normalized())
	for i, tc := range []struct{ payload, msg string }{
		{strings.Replace(norm, `"expirationDate":"2026-11-20T09:55:44Z",`, "", 1), "has no expirationDate"},
		{strings.Replace(norm, `"id":"did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y#twitter"`, `"id":"did:elastos:foo#twitter"`, 1), "is not under its subject"},
		{`{"id":1}`, "want string"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			r := good
			r.Payload = base64.RawURLEncoding.EncodeToString([]byte(tc.payload))
			if _, err := Decode(r); RuleOf(err) != RuleMalformed || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("%.60s: %v, want rule %s containing %q", tc.payload, err, RuleMalformed, tc.msg)
			}
		})
	}
	r := good
	r.Header.Operation, r.Payload = Revoke, "did:elastos:foo"
	if _, err := Decode(r); RuleOf(err) != RuleMalformed || !strings.Contains(err.Error(), "is not a credential id") {
		t.Errorf("revoke of a DID: %v", err)
	}
}

func TestRevokeRules(t *testing.T) {
	docs := sdkDocs(t)
	twitter, license := sdkCredential(t, "user1.vc.twitter"), sdkCredential(t, "foobar.vc.license")
	user1DIDv, _ := did.Parse(user1DID)
	user4DIDv, _ := did.Parse(user4DID)
	declared := &CredentialState{Declared: twitter, Txid: txid1}
	wrongPriv := decoded(t)(NewRevoke(twitter.ID, url(t, user1Primary), privateKey(t, "user2.id.primary")))

	accepts := []struct {
		name string
		op   *Op
		st   *CredentialState
	}{
		{"by the owner", revoke(t, twitter.ID, byUser1), declared},
		{"by the issuer", revoke(t, twitter.ID, byIssuer), declared},
		{"by the customized owner's own key", revoke(t, license.ID, byFoobarKey2), &CredentialState{Declared: license}},
		{"by a controller of the customized owner", revoke(t, license.ID, byUser1), &CredentialState{Declared: license}},
		{"by a controller of the customized issuer", revoke(t, license.ID, byIssuer), &CredentialState{Declared: license}},
		{"undeclared, by anyone", revoke(t, twitter.ID, byUser4), nil},
		{"undeclared, by the owner after a stranger", revoke(t, twitter.ID, byUser1), &CredentialState{Revokers: []did.DID{user4DIDv}}},
	}
	for _, tc := range accepts {
		t.Run(tc.name, func(t *testing.T) {
			if err := ValidateCredential(tc.op, tc.st, docs, keys.Native{}, early); err != nil {
				t.Errorf("revoke %s: %v", tc.name, err)
			}
		})
	}
	for _, tc := range []struct {
		name string
		op   *Op
		st   *CredentialState
		docs did.Lookup
		rule Rule
		msg  string
	}{
		{"declared, by a stranger", revoke(t, twitter.ID, byUser4), declared, docs, RuleSignerKey, "is neither the owner nor the issuer"},
		{"twice by the owner", revoke(t, twitter.ID, byUser1), &CredentialState{Declared: twitter, Revokers: []did.DID{user1DIDv}}, docs, RuleRevoked, "revoked by " + user1DID},
		{"undeclared, after the owner", revoke(t, twitter.ID, byUser4), &CredentialState{Revokers: []did.DID{user1DIDv}}, docs, RuleRevoked, "revoked by " + user1DID},
		{"undeclared, twice by one stranger", revoke(t, twitter.ID, byUser4), &CredentialState{Revokers: []did.DID{user4DIDv}}, docs, RuleRevoked, "revoked by " + user4DID},
		{"revoker unknown", revoke(t, twitter.ID, byUser4), nil, without(docs, user4DID), RuleSignerKey, "revoker " + user4DID + " does not exist"},
		{"revoker expired", revoke(t, twitter.ID, byUser1), nil, expiredUser1(t, docs), RuleSignerKey, "revoker " + user1DID + " expired"},
		{"key not the revoker's", revoke(t, twitter.ID, signer{user1DID + "#nokey", "user1.id.primary"}), nil, docs, RuleSignerKey, "is not an authentication key"},
		{"signature", wrongPriv, nil, docs, RuleSignature, "does not verify"},
		{"lookup fails", revoke(t, license.ID, byUser4), &CredentialState{Declared: license}, failingLookup{}, RuleLookup, "disk on fire"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := ValidateCredential(tc.op, tc.st, tc.docs, keys.Native{}, early)
			if RuleOf(err) != tc.rule || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("%s: %v, want rule %s containing %q", tc.name, err, tc.rule, tc.msg)
			}
		})
	}
}

// A credential's life on chain, step by step as a node records it: a
// stranger's revoke does not stop the declare, the owner's revoke ends it,
// and nothing can be declared or revoked again.
func TestCredentialLifecycle(t *testing.T) {
	docs := sdkDocs(t)
	twitter := sdkCredential(t, "user1.vc.twitter")
	st := &CredentialState{}
	apply := func(op *Op, txid string) {
		if op.Request.Header.Operation == Declare {
			st.Declared, st.Txid = op.Credential, txid
		} else {
			st.Revokers = append(st.Revokers, op.Method.DID)
		}
	}
	for i, step := range []struct {
		name string
		op   *Op
		rule Rule
	}{
		{"a stranger revokes the undeclared id", revoke(t, twitter.ID, byUser4), ""},
		{"the owner declares", declare(t, twitter, byUser1), ""},
		{"the owner declares again", declare(t, twitter, byUser1), RuleDeclared},
		{"the stranger revokes the declared credential", revoke(t, twitter.ID, byUser4), RuleSignerKey},
		{"the issuer revokes", revoke(t, twitter.ID, byIssuer), ""},
		{"the owner revokes too", revoke(t, twitter.ID, byUser1), RuleRevoked},
	} {
		t.Run(step.name, func(t *testing.T) {
			err := ValidateCredential(step.op, st, docs, keys.Native{}, early)
			if RuleOf(err) != step.rule {
				t.Fatalf("%s: %v, want rule %q", step.name, err, step.rule)
			}
			if err == nil {
				apply(step.op, txid(i))
			}
		})
	}
	i, err := RevokedBy(st.Revokers, twitter.ID.DID, twitter.Issuer, docs)
	if err != nil || i != 1 {
		t.Errorf("RevokedBy = %d, %v; want the issuer's revoke, 1", i, err)
	}
}

func txid(i int) string { return strings.Repeat(string(rune('a'+i)), 64) }

func TestRevokedBy(t *testing.T) {
	docs := sdkDocs(t)
	parse := func(s string) did.DID {
		d, err := did.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	foobar, example, user1, user3, user4 := parse("did:elastos:foobar"), parse("did:elastos:example"), parse(user1DID), parse(user3DID), parse(user4DID)
	issuer := parse(strings.TrimSuffix(issuerPrimary, "#primary"))
	for _, tc := range []struct {
		name            string
		revokers        []did.DID
		owner, issuedBy did.DID
		want            int
	}{
		{"nobody", nil, user1, issuer, -1},
		{"a stranger", []did.DID{user4}, user1, issuer, -1},
		{"the owner", []did.DID{user4, user1}, user1, issuer, 1},
		{"the issuer", []did.DID{issuer}, user1, issuer, 0},
		{"no issuer named", []did.DID{issuer}, user1, did.DID{}, -1},
		{"a controller of the owner", []did.DID{user3}, foobar, issuer, 0},
		{"the owner in another case", []did.DID{parse("did:elastos:FOOBAR")}, foobar, issuer, 0},
		{"a controller of the issuer", []did.DID{issuer}, foobar, example, 0},
		{"controllers of a standard DID do not count", []did.DID{user3}, user1, user4, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, err := RevokedBy(tc.revokers, tc.owner, tc.issuedBy, docs); err != nil || got != tc.want {
				t.Errorf("%s: %d, %v; want %d", tc.name, got, err, tc.want)
			}
		})
	}
	if _, err := RevokedBy([]did.DID{user4}, foobar, issuer, failingLookup{}); RuleOf(err) != RuleLookup || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("failing lookup: %v", err)
	}
}

// A credential issued with did.NewCredential and Credential.Sign is
// declared like the SDK's: the issuer user4 vouches for user1's email, user1
// declares it, and a tampered copy is refused.
func TestDeclareIssuedCredential(t *testing.T) {
	docs := sdkDocs(t)
	owner, issuer := url(t, user1Primary), url(t, user4Primary)
	vc, err := did.NewCredential(did.URL{DID: owner.DID, Fragment: "email"}, []string{"EmailCredential", "VerifiableCredential"},
		issuer.DID, []byte(`{"email":"user1@example.com"}`), early.AddDate(0, 0, -1), early.AddDate(1, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	vc, err = vc.Sign(privateKey(t, byUser4.key), issuer, early.AddDate(0, 0, -1))
	if err != nil {
		t.Fatal(err)
	}
	if err := ValidateCredential(declare(t, vc, byUser1), nil, docs, keys.Native{}, early); err != nil {
		t.Errorf("declare of the issued credential: %v", err)
	}
	tampered := *vc
	tampered.ExpirationDate = tampered.ExpirationDate.AddDate(1, 0, 0)
	if err := ValidateCredential(declare(t, &tampered, byUser1), nil, docs, keys.Native{}, early); RuleOf(err) != RuleIssuer {
		t.Errorf("declare of a tampered copy: %v, want rule %q", err, RuleIssuer)
	}
}
