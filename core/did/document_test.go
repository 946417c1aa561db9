package did

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/internal/vectors"
	"github.com/didlight/didlight/core/keys"
)

// edit parses a vector as generic JSON, lets change alter it, and returns
// the new JSON.
func edit(t *testing.T, name string, change func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(vectors.Read(name), &m); err != nil {
		t.Fatal(err)
	}
	change(m)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const (
	user1   = "elastos-did-sdk/v2.2/user1.id.json"
	foobar  = "elastos-did-sdk/v2.2/foobar.id.json"
	user1v1 = "elastos-did-sdk/v1/user1.id.json"
)

func TestParseDocumentErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		vector string
		change func(m map[string]any)
		kind   error
		msg    string
	}{
		{"no id", user1, func(m map[string]any) { delete(m, "id") }, ErrMalformed, "document has no id"},
		{"bad id", user1, func(m map[string]any) { m["id"] = "did:elastos:a b" }, ErrMalformed, "document id"},
		{"expires not RFC 3339", user1, func(m map[string]any) { m["expires"] = "2026-11-20 09:55:44" }, ErrExpires, `expires: "2026-11-20 09:55:44" is not an RFC 3339`},
		{"expires with offset", user1, func(m map[string]any) { m["expires"] = "2026-11-20T09:55:44+08:00" }, ErrExpires, "in UTC"},
		{"no expires", user1, func(m map[string]any) { delete(m, "expires") }, ErrExpires, "has no expires"},
		{"no default key", user1, func(m map[string]any) { m["id"] = "did:elastos:idwuEMccSpsTH4ZqrhuHqg6y8XMVQAsY5g" }, ErrDefaultKey, "no key derives the DID"},
		{"missing key reference", user1, func(m map[string]any) { m["authorization"] = []any{"#nokey"} }, ErrMalformed, "authorization names did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y#nokey"},
		{"foreign authentication key", user1, func(m map[string]any) { m["authentication"] = append(m["authentication"].([]any), "#recovery") }, ErrMalformed, "authentication key did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y#recovery is held by"},
		{"own authorization key", user1, func(m map[string]any) { m["authorization"] = []any{"#key2"} }, ErrMalformed, "is held by the DID itself"},
		{"key twice", user1, func(m map[string]any) {
			m["publicKey"] = append(m["publicKey"].([]any), map[string]any{"id": "#key2", "publicKeyBase58": "vuP6gV9NJLLZC1hZWWYp8faxbCAGoPRJ1qacn1T22BKQ"})
		}, ErrMalformed, "#key2 is defined twice"},
		{"bad key", user1, func(m map[string]any) {
			m["publicKey"].([]any)[1].(map[string]any)["publicKeyBase58"] = "abc"
		}, ErrMalformed, `publicKeyBase58 "abc" is not a compressed P-256 key`},
		{"key id without fragment", user1, func(m map[string]any) {
			m["publicKey"].([]any)[1].(map[string]any)["id"] = "did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y"
		}, ErrMalformed, "has no fragment"},
		{"key without id", user1, func(m map[string]any) { delete(m["publicKey"].([]any)[1].(map[string]any), "id") }, ErrMalformed, "a key needs id and publicKeyBase58"},
		{"service twice", user1, func(m map[string]any) { m["service"] = append(m["service"].([]any), m["service"].([]any)[0]) }, ErrMalformed, "#openid is listed twice"},
		{"service endpoint not a string", user1, func(m map[string]any) { m["service"].([]any)[0].(map[string]any)["serviceEndpoint"] = 7 }, ErrMalformed, "service serviceEndpoint must be a string"},
		{"credential without type", user1, func(m map[string]any) { delete(m["verifiableCredential"].([]any)[0].(map[string]any), "type") }, ErrMalformed, "has no type"},
		{"publicKey not an array", user1, func(m map[string]any) { m["publicKey"] = "x" }, ErrMalformed, "publicKey (offset"},
		{"controller listed twice", foobar, func(m map[string]any) {
			c := m["controller"].([]any)
			m["controller"] = append(c, c[0])
			m["multisig"] = "2:4"
		}, ErrMalformed, "is listed twice"},
		{"multisig n differs", foobar, func(m map[string]any) { m["multisig"] = "2:4" }, ErrMalformed, "does not match 3 controllers"},
		{"multisig m > n", foobar, func(m map[string]any) { m["multisig"] = "4:3" }, ErrMalformed, `multisig "4:3" is not m:n`},
		{"no multisig", foobar, func(m map[string]any) { delete(m, "multisig") }, ErrMalformed, "3 controllers but no multisig"},
		{"multisig with one controller", foobar, func(m map[string]any) { m["controller"] = m["controller"].([]any)[0] }, ErrMalformed, "needs more than one controller"},
		{"customized without controller", foobar, func(m map[string]any) { delete(m, "controller"); delete(m, "multisig") }, ErrDefaultKey, "it has no controller"},
		{"proof without creator", foobar, func(m map[string]any) { delete(m["proof"].([]any)[0].(map[string]any), "creator") }, ErrMalformed, "proof has no creator"},
		{"two proofs by one controller", foobar, func(m map[string]any) {
			p := m["proof"].([]any)
			m["proof"] = append(p, p[0])
		}, ErrMalformed, "two proofs by"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseDocument(edit(t, tc.vector, tc.change))
			if !errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("%s: error %v, want kind %v containing %q", tc.name, err, tc.kind, tc.msg)
			}
		})
	}
	for _, in := range []string{``, `[]`, `{"id":`, `{} {}`} {
		if _, err := ParseDocument([]byte(in)); !errors.Is(err, ErrMalformed) {
			t.Errorf("ParseDocument(%q) error %v, want ErrMalformed", in, err)
		}
	}
}

func TestVerifyProofsErrors(t *testing.T) {
	docs := lookupFor(t, "v2.2")
	withoutUser2 := lookupFor(t, "v2.2")
	delete(withoutUser2, "igXiyCJEUjGJV1DMsMa4EbWunQqVg97GcS")
	for _, tc := range []struct {
		name   string
		vector string
		change func(m map[string]any)
		docs   Lookup
		kind   error
		msg    string
	}{
		{"no proof", user1, func(m map[string]any) { delete(m, "proof") }, docs, ErrProof, "document has no proof"},
		{"tampered expires", user1, func(m map[string]any) { m["expires"] = "2027-11-20T09:55:44Z" }, docs, ErrProof, "signature does not verify"},
		{"tampered service", user1, func(m map[string]any) { m["service"].([]any)[0].(map[string]any)["serviceEndpoint"] = "https://evil/" }, docs, ErrProof, "signature does not verify"},
		{"proof by another key", user1, func(m map[string]any) { m["proof"].(map[string]any)["creator"] = "#key2" }, docs, ErrProof, "is not the default key"},
		{"proof type", user1, func(m map[string]any) { m["proof"].(map[string]any)["type"] = "RSA" }, docs, ErrProof, `has type "RSA"`},
		{"signature not base64", user1, func(m map[string]any) { m["proof"].(map[string]any)["signatureValue"] = "!!" }, docs, ErrProof, "proof by"},
		{"too few proofs", foobar, func(m map[string]any) { m["proof"] = m["proof"].([]any)[0] }, docs, ErrProof, "1 proofs, want 2"},
		{"proof by a non-controller", foobar, func(m map[string]any) {
			m["proof"].([]any)[0].(map[string]any)["creator"] = "did:elastos:igHbSCez6H3gTuVPzwNZRrdj92GCJ6hD5d#primary"
		}, docs, ErrProof, "is not a controller's key"},
		{"controller proof by a non-default key", foobar, func(m map[string]any) {
			m["proof"].([]any)[1].(map[string]any)["creator"] = "did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y#key2"
		}, docs, ErrProof, "is not the default key of controller"},
		{"controller unknown", foobar, func(map[string]any) {}, withoutUser2, ErrNoDocument, "igXiyCJEUjGJV1DMsMa4EbWunQqVg97GcS does not exist"},
		{"no lookup", foobar, func(map[string]any) {}, nil, ErrNoDocument, "no lookup"},
		{"tampered customized", foobar, func(m map[string]any) { m["expires"] = "2027-11-20T09:55:45Z" }, docs, ErrProof, "signature does not verify"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := ParseDocument(edit(t, tc.vector, tc.change))
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
				return
			}
			err = doc.VerifyProofs(keys.Native{}, tc.docs)
			if !errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("%s: error %v, want kind %v containing %q", tc.name, err, tc.kind, tc.msg)
			}
		})
	}
}

// The oldest on-chain document has no proof and a key that derives its DID
// with 0xAC; its authorization names the DID itself rather than a key.
func TestLegacyDocument(t *testing.T) {
	var v struct{ Operation struct{ Payload string } }
	if err := json.Unmarshal(vectors.Read("idchain/create-op-mainnet-format.json"), &v); err != nil {
		t.Fatal(err)
	}
	payload, err := keys.DecodeBase64(v.Operation.Payload)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := ParseDocument(payload)
	if err != nil {
		t.Fatal(err)
	}
	def, ok := doc.DefaultKey()
	if !doc.Legacy() || !ok || def.ID.Fragment != "master-key" || doc.IsCustomized() {
		t.Fatalf("Legacy %v, default key %v %v", doc.Legacy(), def.ID, ok)
	}
	if err := doc.VerifyProofs(keys.Native{}, nil); err != nil {
		t.Errorf("legacy document: %v", err)
	}
	if len(doc.Authorization()) != 0 || !slices.Equal(doc.Authentication(), []URL{def.ID}) {
		t.Errorf("authorization %v, authentication %v", doc.Authorization(), doc.Authentication())
	}
	want := `{"id":"did:elastos:ifawgWFmZRLXN1JVmqpXcNRurhB1zyHNcf","publicKey":[{"id":"did:elastos:ifawgWFmZRLXN1JVmqpXcNRurhB1zyHNcf#master-key","type":"ECDSAsecp256r1","controller":"did:elastos:ifawgWFmZRLXN1JVmqpXcNRurhB1zyHNcf","publicKeyBase58":"zxt6NyoorFUFMXA8mDBULjnuH3v6iNdZm42PyG4c1YdC"}],"authentication":["did:elastos:ifawgWFmZRLXN1JVmqpXcNRurhB1zyHNcf#master-key"],"expires":"2020-08-15T17:00:00Z"}`
	if got := string(doc.Normalized()); got != want {
		t.Errorf("normalized\n got %s\nwant %s", got, want)
	}
	// A document whose key derives with 0xAD is modern and needs a proof,
	// even when it lists references that name no key.
	modern := edit(t, user1, func(m map[string]any) { delete(m, "proof"); m["authorization"] = []any{m["id"]} })
	if _, err := ParseDocument(modern); !errors.Is(err, ErrMalformed) {
		t.Errorf("modern document with a dangling reference: %v", err)
	}
}

func TestNewDocumentSignVerify(t *testing.T) {
	priv, err := keys.ParseExtendedPrivateKey(vectors.String("elastos-did-sdk/v2.2/user4.id.primary.sk"))
	if err != nil {
		t.Fatal(err)
	}
	expires := time.Date(2030, 1, 2, 3, 4, 5, 600, time.UTC)
	doc, err := NewDocument(priv.Public(), expires,
		NewService(URL{Fragment: "vault"}, "HiveVault", "https://hive.example/"),
		NewService(URL{Fragment: "carrier"}, "CarrierAddress", "carrier://x"))
	if err != nil {
		t.Fatal(err)
	}
	if got := doc.Subject().String(); got != "did:elastos:igHbSCez6H3gTuVPzwNZRrdj92GCJ6hD5d" {
		t.Fatalf("subject %s", got)
	}
	if err := doc.VerifyProofs(keys.Native{}, nil); !errors.Is(err, ErrProof) {
		t.Errorf("unsigned document: %v, want ErrProof", err)
	}
	def, _ := doc.DefaultKey()
	signed, err := doc.Sign(priv, def.ID, time.Date(2025, 1, 1, 0, 0, 0, 999, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Proofs()) != 0 {
		t.Error("Sign changed the document it was called on")
	}
	want := `{"id":"did:elastos:igHbSCez6H3gTuVPzwNZRrdj92GCJ6hD5d","publicKey":[{"id":"did:elastos:igHbSCez6H3gTuVPzwNZRrdj92GCJ6hD5d#primary","type":"ECDSAsecp256r1","controller":"did:elastos:igHbSCez6H3gTuVPzwNZRrdj92GCJ6hD5d","publicKeyBase58":"` + priv.Public().Base58() + `"}],"authentication":["did:elastos:igHbSCez6H3gTuVPzwNZRrdj92GCJ6hD5d#primary"],"service":[{"id":"did:elastos:igHbSCez6H3gTuVPzwNZRrdj92GCJ6hD5d#carrier","type":"CarrierAddress","serviceEndpoint":"carrier://x"},{"id":"did:elastos:igHbSCez6H3gTuVPzwNZRrdj92GCJ6hD5d#vault","type":"HiveVault","serviceEndpoint":"https://hive.example/"}],"expires":"2030-01-02T03:04:05Z","proof":{"type":"ECDSAsecp256r1","created":"2025-01-01T00:00:00Z","creator":"did:elastos:igHbSCez6H3gTuVPzwNZRrdj92GCJ6hD5d#primary","signatureValue":"`
	norm := signed.Normalized()
	if !strings.HasPrefix(string(norm), want) {
		t.Errorf("normalized\n got %s\nwant %s…", norm, want)
	}
	reparsed := mustParse(t, norm)
	if err := reparsed.VerifyProofs(keys.Native{}, nil); err != nil {
		t.Errorf("signed document: %v", err)
	}
	if !bytes.Equal(reparsed.Normalized(), norm) {
		t.Error("normalized form is not a fixed point")
	}
	if got := reparsed.ServiceTypes(); !slices.Equal(got, []string{"CarrierAddress", "HiveVault"}) {
		t.Errorf("ServiceTypes %v", got)
	}
	other, _ := keys.ParseExtendedPrivateKey(vectors.String("elastos-did-sdk/v2.2/user3.id.primary.sk"))
	if _, err := doc.Sign(other, def.ID, time.Now()); !errors.Is(err, ErrKey) {
		t.Errorf("signing with a foreign key: %v, want ErrKey", err)
	}
	if _, err := doc.Sign(priv, URL{DID: doc.Subject(), Fragment: "other"}, time.Now()); !errors.Is(err, ErrKey) {
		t.Errorf("signing as another key: %v, want ErrKey", err)
	}
	if _, err := NewDocument(priv.Public(), expires, NewService(URL{}, "T", "e")); !errors.Is(err, ErrMalformed) {
		t.Errorf("service without an id: %v", err)
	}
}

// A customized DID collects its controllers' proofs one by one.
func TestSignCustomized(t *testing.T) {
	docs := lookupFor(t, "v2.2")
	doc := mustParse(t, vectors.Read(foobar))
	user1Key, _ := keys.ParseExtendedPrivateKey(vectors.String("elastos-did-sdk/v2.2/user1.id.primary.sk"))
	user2Key, _ := keys.ParseExtendedPrivateKey(vectors.String("elastos-did-sdk/v2.2/user2.id.primary.sk"))
	user1Primary, _ := ParseURL("did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y#primary", DID{})
	user2Primary, _ := ParseURL("did:elastos:idwuEMccSpsTH4ZqrhuHqg6y8XMVQAsY5g#primary", DID{})
	resigned, err := doc.Sign(user1Key, user1Primary, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := resigned.VerifyProofs(keys.Native{}, docs); err != nil {
		t.Errorf("after replacing user1's proof: %v", err)
	}
	if _, err := doc.Sign(user2Key, user2Primary, time.Now()); !errors.Is(err, ErrKey) {
		t.Errorf("a third proof on a 2:3 document: %v, want ErrKey", err)
	}
	wrongKey, err := doc.Sign(user2Key, user1Primary, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := wrongKey.VerifyProofs(keys.Native{}, docs); !errors.Is(err, ErrProof) {
		t.Errorf("user1's proof made with user2's key: %v, want ErrProof", err)
	}
}

func TestAccessors(t *testing.T) {
	docs := lookupFor(t, "v2.2")
	doc := mustParse(t, vectors.Read(user1))
	if got := doc.CredentialTypes(); !slices.Equal(got, []string{"EmailCredential", "ProfileCredential", "SelfProclaimedCredential", "SocialCredential", "VerifiableCredential"}) {
		t.Errorf("CredentialTypes %v", got)
	}
	if got := doc.ServiceTypes(); !slices.Equal(got, []string{"CarrierAddress", "CredentialRepositoryService", "OpenIdConnectVersion1.0Service"}) {
		t.Errorf("ServiceTypes %v", got)
	}
	recovery := URL{DID: doc.Subject(), Fragment: "recovery"}
	if !doc.IsAuthorization(recovery) || doc.IsAuthentication(recovery) {
		t.Error("#recovery should be an authorization key only")
	}
	if _, err := doc.AuthenticationKey(recovery, docs); !errors.Is(err, ErrKey) {
		t.Errorf("AuthenticationKey(#recovery): %v, want ErrKey", err)
	}
	fb := mustParse(t, vectors.Read(foobar))
	if fb.Multisig() != (Multisig{2, 3}) || fb.RequiredProofs() != 2 || !fb.IsCustomized() {
		t.Errorf("foobar: multisig %v, customized %v", fb.Multisig(), fb.IsCustomized())
	}
	key2 := URL{DID: doc.Subject(), Fragment: "key2"}
	if k, err := fb.AuthenticationKey(key2, docs); err != nil || k.PublicKeyBase58 != "vuP6gV9NJLLZC1hZWWYp8faxbCAGoPRJ1qacn1T22BKQ" {
		t.Errorf("foobar: a controller's authentication key: %v, %v", k.ID, err)
	}
	if _, err := fb.AuthenticationKey(key2, nil); !errors.Is(err, ErrNoDocument) {
		t.Errorf("foobar without lookup: %v, want ErrNoDocument", err)
	}
	own := URL{DID: fb.Subject(), Fragment: "key3"}
	if _, err := fb.AuthenticationKey(own, nil); err != nil {
		t.Errorf("foobar's own key: %v", err)
	}
}

func TestShareKeys(t *testing.T) {
	prev := mustParse(t, vectors.Read(user1))
	next := mustParse(t, vectors.Read(user1))
	def, _ := prev.DefaultKey()
	want, err := def.Decode(keys.Native{})
	if err != nil {
		t.Fatal(err)
	}
	next.ShareKeys(prev)
	nextDef, _ := next.DefaultKey()
	if nextDef.point != def.point {
		t.Fatal("the default key's point is not shared")
	}
	if got, err := nextDef.Decode(keys.Native{}); err != nil || !got.Equal(want) {
		t.Errorf("shared key decodes to %v, %v", got, err)
	}
	if err := next.VerifyProofs(keys.Native{}, nil); err != nil {
		t.Errorf("with shared keys: %v", err)
	}
}
