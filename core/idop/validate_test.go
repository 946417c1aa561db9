package idop

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/internal/vectors"
	"github.com/didlight/didlight/core/keys"
)

// sdkDocs is every v2.2 SDK document, the controllers of foobar among them.
func sdkDocs(t testing.TB) did.Documents {
	t.Helper()
	var docs []*did.Document
	for _, n := range vectors.Glob("elastos-did-sdk/v2.2/*.id.json") {
		docs = append(docs, sdkDoc(t, n))
	}
	return did.NewDocuments(docs...)
}

func sdkDoc(t testing.TB, name string) *did.Document {
	t.Helper()
	doc, err := did.ParseDocument(vectors.Read(name))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func url(t testing.TB, s string) did.URL {
	t.Helper()
	u, err := did.ParseURL(s, did.DID{})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

const (
	user1Primary = "did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y#primary"
	user3Primary = "did:elastos:igXiyCJEUjGJV1DMsMa4EbWunQqVg97GcS#primary"
	user3DID     = "did:elastos:igXiyCJEUjGJV1DMsMa4EbWunQqVg97GcS"
)

// withRecovery returns f's document with an authorization key held by user3.
func withRecovery(t *testing.T, f fixture) *did.Document {
	t.Helper()
	user3 := privateKey(t, "user3.id.primary")
	s := strings.Replace(string(f.doc.Normalized()), `"authentication"`,
		`"authorization":[{"id":"#recovery","controller":"`+user3DID+`","publicKeyBase58":"`+user3.Public().Base58()+`"}],"authentication"`, 1)
	doc, err := did.ParseDocument([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	if doc, err = doc.Sign(f.priv, f.key, blockTime); err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestValidateRules(t *testing.T) {
	f := newFixture(t)
	docs := sdkDocs(t)
	user3 := privateKey(t, "user3.id.primary")
	user1 := privateKey(t, "user1.id.primary")
	foobarKey2 := privateKey(t, "foobar.id.key2")
	foobar := sdkDoc(t, "elastos-did-sdk/v2.2/foobar.id.json")
	foobarNew := sdkDoc(t, "elastos-did-sdk/v2.2/foobar.new-id.json")
	key2 := url(t, "did:elastos:foobar#key2")
	early := time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC)
	build := decoded(t)

	create := build(NewCreate(f.doc, f.key, f.priv))
	foobarCreate := build(NewCreate(foobar, key2, foobarKey2))
	recovering := withRecovery(t, f)

	// A document whose proof is wrong inside a request whose signature is right.
	badProof := Request{Header: Header{Specification: SpecDID, Operation: Create},
		Payload: payloadOf(t, f.doc, `"expires":"2029`, `"expires":"2030`)}
	badProofReq, err := sign(badProof, f.key, f.priv)
	if err != nil {
		t.Fatal(err)
	}
	// A request whose payload changed after it was signed.
	tampered, _ := NewCreate(f.doc, f.key, f.priv)
	tampered.Payload = payloadOf(t, f.doc, `"expires":"2029`, `"expires":"2030`)
	// An update signed by a key the previous document does not have.
	other, _ := did.NewDocument(user3.Public(), blockTime.AddDate(1, 0, 0))
	otherKey, _ := other.DefaultKey()
	foreignUpdate := build(NewUpdate(f.doc, txid1, otherKey.ID, user3))
	customizedID, _ := NewCreate(foobar, key2, foobarKey2)
	customizedID.Payload = base64.RawURLEncoding.EncodeToString([]byte(strings.ReplaceAll(string(foobar.Normalized()), "did:elastos:foobar", "did:elastos:foo.bar")))

	for _, tc := range []struct {
		name string
		op   *Op
		st   *State
		docs did.Lookup
		now  time.Time
		rule Rule
		msg  string
	}{
		{"create exists", create, &State{Document: f.doc, Txid: txid1}, nil, blockTime, RuleCreateExists, "already exists"},
		{"update of nothing", build(NewUpdate(f.doc, txid1, f.key, f.priv)), nil, nil, blockTime, RuleNotFound, "does not exist"},
		{"deactivate of nothing", build(NewDeactivate(f.doc.Subject(), f.key, f.priv)), nil, nil, blockTime, RuleNotFound, "does not exist"},
		{"wrong previousTxid", build(NewUpdate(f.doc, txid1, f.key, f.priv)), &State{Document: f.doc, Txid: "ff" + txid1[2:]}, nil, blockTime, RulePreviousTxid, "previousTxid 23df"},
		{"state of another DID", create, &State{Document: foobar, Txid: txid1}, nil, blockTime, RuleDocID, "the state of did:elastos:foobar"},
		{"customized id with a dot", build(customizedID, nil), nil, docs, early, RuleDocID, "only letters and digits"},
		{"expired", create, nil, nil, f.doc.Expires(), RuleExpired, "not after the block time"},
		{"doc proof", build(badProofReq, nil), nil, nil, blockTime, RuleDocProof, "signature does not verify"},
		{"tampered payload", build(tampered, nil), nil, nil, blockTime, RuleSignature, "does not verify under"},
		{"foreign signer", build(NewCreate(f.doc, otherKey.ID, user3)), nil, nil, blockTime, RuleSignerKey, "not an authentication key"},
		{"update signed by a key the DID did not have", foreignUpdate, &State{Document: f.doc, Txid: txid1}, nil, blockTime, RuleSignerKey, "not an authentication key"},
		{"update by an authorization key", build(NewUpdate(recovering, txid1, url(t, f.doc.Subject().String()+"#recovery"), user3)), &State{Document: recovering, Txid: txid1}, nil, blockTime, RuleSignerKey, "not an authentication key"},
		{"deactivate by a stranger", build(NewDeactivate(f.doc.Subject(), otherKey.ID, user3)), &State{Document: f.doc, Txid: txid1}, did.NewDocuments(other), blockTime, RuleSignerKey, "is not an authorization key"},
		{"deactivate by a key the DID lacks", build(NewDeactivate(f.doc.Subject(), url(t, f.doc.Subject().String()+"#nokey"), f.priv)), &State{Document: f.doc, Txid: txid1}, nil, blockTime, RuleSignerKey, "neither the default key nor an authorization key"},
		{"deactivate by another authentication key", build(NewDeactivate(sdkDoc(t, "elastos-did-sdk/v2.2/user1.id.json").Subject(), url(t, user1DID+"#key2"), privateKey(t, "user1.id.key2"))), &State{Document: sdkDoc(t, "elastos-did-sdk/v2.2/user1.id.json"), Txid: txid1}, nil, blockTime, RuleSignerKey, "#key2 is neither the default key"},
		{"deactivate signed by the wrong private key", build(NewDeactivate(f.doc.Subject(), f.key, user3)), &State{Document: f.doc, Txid: txid1}, nil, blockTime, RuleSignature, "does not verify"},
		{"controller unknown", foobarCreate, nil, without(docs, user3DID), early, RuleController, user3DID + " does not exist"},
		{"controller expired", foobarCreate, nil, docs, time.Date(2026, 11, 20, 9, 55, 44, 0, time.UTC), RuleController, "expired 2026-11-20T09:55:44Z"},
		{"controllers changed by an update", build(NewUpdate(foobarNew, txid1, key2, foobarKey2)), &State{Document: foobar, Txid: txid1}, docs, early, RuleController, "cannot change its controllers"},
		{"customized DID as controller", foobarCreate, nil, withFoobarAs(docs, foobar, user3DID), early, RuleController, "is a customized DID"},
		{"lookup fails", foobarCreate, nil, failingLookup{}, early, RuleLookup, "disk on fire"},
		{"no lookup", foobarCreate, nil, nil, early, RuleLookup, "no lookup"},
		{"customized deactivate by a non-controller", build(NewDeactivate(foobar.Subject(), f.key, f.priv)), &State{Document: foobar, Txid: txid1}, docs, early, RuleSignerKey, "is not the key of a controller of did:elastos:foobar"},
		{"customized deactivate, controller unknown", build(NewDeactivate(foobar.Subject(), url(t, user1Primary), user1)), &State{Document: foobar, Txid: txid1}, without(docs, "did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y"), early, RuleController, "does not exist"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Validate(tc.op, tc.st, tc.docs, keys.Native{}, tc.now)
			if RuleOf(err) != tc.rule || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("%s: %v, want rule %s containing %q", tc.name, err, tc.rule, tc.msg)
			}
		})
	}
}

// without returns docs less one DID.
func without(docs did.Documents, d string) did.Documents {
	out := did.Documents{}
	for k, v := range docs {
		if "did:elastos:"+k != d {
			out[k] = v
		}
	}
	return out
}

// withFoobarAs returns docs with foobar's document answering for d.
func withFoobarAs(docs did.Documents, foobar *did.Document, d string) did.Documents {
	out := without(docs, d)
	out[strings.TrimPrefix(d, "did:elastos:")] = foobar
	return out
}

func TestValidateAccepts(t *testing.T) {
	f := newFixture(t)
	docs := sdkDocs(t)
	build := decoded(t)
	early := time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC)
	user1 := privateKey(t, "user1.id.primary")
	user3 := privateKey(t, "user3.id.primary")
	foobar := sdkDoc(t, "elastos-did-sdk/v2.2/foobar.id.json")
	recovering := withRecovery(t, f)
	recoveryKey := url(t, f.doc.Subject().String()+"#recovery")
	for _, tc := range []struct {
		name string
		op   *Op
		st   *State
		docs did.Lookup
		now  time.Time
	}{
		{"customized create signed by its own key", build(NewCreate(foobar, url(t, "did:elastos:foobar#key2"), privateKey(t, "foobar.id.key2"))), nil, docs, early},
		{"customized create signed by a controller", build(NewCreate(foobar, url(t, user1Primary), user1)), nil, docs, early},
		{"customized update", build(NewUpdate(foobar, txid1, url(t, "did:elastos:foobar#key3"), privateKey(t, "foobar.id.key3"))), &State{Document: foobar, Txid: txid1}, docs, early},
		{"customized deactivate by a controller", build(NewDeactivate(foobar.Subject(), url(t, user1Primary), user1)), &State{Document: foobar, Txid: txid1}, docs, early},
		{"deactivate by the authorization key", build(NewDeactivate(f.doc.Subject(), recoveryKey, user3)), &State{Document: recovering, Txid: txid1}, nil, blockTime},
		{"deactivate by the key of the recovery holder", build(NewDeactivate(f.doc.Subject(), url(t, user3Primary), user3)), &State{Document: recovering, Txid: txid1}, docs, blockTime},
		{"create at any time without a block time", build(NewCreate(f.doc, f.key, f.priv)), nil, nil, time.Time{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := Validate(tc.op, tc.st, tc.docs, keys.Native{}, tc.now); err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
		})
	}
	// The holder's key is accepted only while the holder's document says so.
	op := build(NewDeactivate(f.doc.Subject(), url(t, user3Primary), user3))
	if err := Validate(op, &State{Document: recovering, Txid: txid1}, did.Documents{}, keys.Native{}, blockTime); RuleOf(err) != RuleController {
		t.Errorf("deactivate by the recovery holder without its document: %v", err)
	}
}

func TestValidateDetached(t *testing.T) {
	f := newFixture(t)
	build := decoded(t)
	update := build(NewUpdate(f.doc, txid1, f.key, f.priv))
	if err := ValidateDetached(update, nil, keys.Native{}, blockTime); err != nil {
		t.Errorf("detached update: %v", err)
	}
	if err := ValidateDetached(build(NewCreate(f.doc, f.key, f.priv)), nil, keys.Native{}, blockTime); err != nil {
		t.Errorf("detached create: %v", err)
	}
	deactivate := build(NewDeactivate(f.doc.Subject(), f.key, f.priv))
	if err := ValidateDetached(deactivate, nil, keys.Native{}, blockTime); RuleOf(err) != RuleUnsupported {
		t.Errorf("detached deactivate: %v", err)
	}
}
