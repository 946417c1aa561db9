package idop

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/keys"
)

// editDoc returns doc changed as change changes its normalized JSON.
func editDoc(t *testing.T, doc *did.Document, change func(m map[string]any)) *did.Document {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(doc.Normalized(), &m); err != nil {
		t.Fatal(err)
	}
	change(m)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	out, err := did.ParseDocument(b)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// respelled returns foobar's document with its id written as id, signed
// again by user1 and user3.
func respelled(t *testing.T, foobar *did.Document, id string) *did.Document {
	t.Helper()
	doc, err := did.ParseDocument([]byte(strings.ReplaceAll(string(foobar.Normalized()), "did:elastos:foobar", id)))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"user1", "user3"} {
		priv := privateKey(t, name+".id.primary")
		if doc, err = doc.Sign(priv, did.URL{DID: did.FromKey(priv.Public()), Fragment: did.PrimaryKey}, early); err != nil {
			t.Fatal(err)
		}
	}
	return doc
}

func TestCustomizedRules(t *testing.T) {
	docs := sdkDocs(t)
	build := decoded(t)
	foobar := sdkDoc(t, "elastos-did-sdk/v2.2/foobar.id.json")
	foo := sdkDoc(t, "elastos-did-sdk/v2.2/foo.id.json")
	user1, user4 := privateKey(t, "user1.id.primary"), privateKey(t, "user4.id.primary")
	key2, foobarKey2 := url(t, "did:elastos:foobar#key2"), privateKey(t, "foobar.id.key2")
	st := &State{Document: foobar, Txid: txid1}

	foreignKey := editDoc(t, foobar, func(m map[string]any) {
		m["publicKey"] = append(m["publicKey"].([]any), map[string]any{"id": "#ext", "controller": user1DID, "publicKeyBase58": user1.Public().Base58()})
	})
	oneOfTwo := editDoc(t, foo, func(m map[string]any) { m["proof"] = m["proof"].([]any)[0] })

	for _, tc := range []struct {
		name string
		op   *Op
		st   *State
		docs did.Lookup
		rule Rule
		msg  string
	}{
		{"key held by another DID", build(NewCreate(foreignKey, key2, foobarKey2)), nil, docs, RuleCustomized, "key did:elastos:foobar#ext is held by " + user1DID},
		{"created by a non-controller", build(NewCreate(foobar, url(t, user4Primary), user4)), nil, docs, RuleSignerKey, "is not an authentication key of did:elastos:foobar"},
		{"fewer proofs than multisig", build(NewCreate(oneOfTwo, url(t, user1Primary), user1)), nil, docs, RuleDocProof, "1 proofs, want 2"},
		{"create in another case", build(NewCreate(respelled(t, foobar, "did:elastos:FooBar"), url(t, user1Primary), user1)), st, docs, RuleCreateExists, "did:elastos:FooBar already exists"},
		{"deactivate by its own key", build(NewDeactivate(foobar.Subject(), key2, foobarKey2)), st, docs, RuleSignerKey, "did:elastos:foobar#key2 is not the key of a controller"},
		{"deactivate by a controller's other key", build(NewDeactivate(foobar.Subject(), url(t, user1DID+"#key2"), privateKey(t, "user1.id.key2"))), st, docs, RuleSignerKey, "is not the default key of controller"},
		{"deactivate by an expired controller", build(NewDeactivate(foobar.Subject(), url(t, user1Primary), user1)), st, expiredUser1(t, docs), RuleController, "controller " + user1DID + " expired"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Validate(tc.op, tc.st, tc.docs, keys.Native{}, early)
			if RuleOf(err) != tc.rule || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("%s: %v, want rule %s containing %q", tc.name, err, tc.rule, tc.msg)
			}
		})
	}
	// Customized DIDs are case-insensitive: an update may spell the id in
	// another case.
	upper := build(NewUpdate(respelled(t, foobar, "did:elastos:FOOBAR"), txid1, url(t, user1Primary), user1))
	if err := Validate(upper, st, docs, keys.Native{}, early); err != nil {
		t.Errorf("update spelled in upper case: %v", err)
	}
}
