package did_test

import (
	"fmt"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/internal/vectors"
	"github.com/didlight/didlight/core/keys"
)

// ParseDocument reads any shape the SDKs write; Normalized is what they sign.
func ExampleParseDocument() {
	doc, err := did.ParseDocument([]byte(`{
		"id": "did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y",
		"publicKey": [{"id": "#primary", "publicKeyBase58": "vMYSz32qbWsNeDJpKsuuMaFsiApuZMz9XVy9DmEwysWg"}],
		"expires": "2026-01-18T14:47:03Z",
		"proof": {"signatureValue": "c2lnbmF0dXJl"}
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	key, _ := doc.DefaultKey()
	fmt.Println(key.ID)
	fmt.Printf("%s\n", doc.Normalized())
	// Output:
	// did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y#primary
	// {"id":"did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y","publicKey":[{"id":"did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y#primary","type":"ECDSAsecp256r1","controller":"did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y","publicKeyBase58":"vMYSz32qbWsNeDJpKsuuMaFsiApuZMz9XVy9DmEwysWg"}],"authentication":["did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y#primary"],"expires":"2026-01-18T14:47:03Z","proof":{"type":"ECDSAsecp256r1","creator":"did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y#primary","signatureValue":"c2lnbmF0dXJl"}}
}

// A new standard DID: derive it from a key, sign its document, verify it.
func ExampleNewDocument() {
	priv, _ := keys.ParseExtendedPrivateKey(vectors.String("elastos-did-sdk/v2.2/user4.id.primary.sk"))
	expires := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	doc, _ := did.NewDocument(priv.Public(), expires,
		did.NewService(did.URL{Fragment: "vault"}, "HiveVault", "https://hive.example/"))
	primary, _ := doc.DefaultKey()
	doc, err := doc.Sign(priv, primary.ID, time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	fmt.Println(doc.Subject(), err)
	fmt.Println(doc.VerifyProofs(keys.Native{}, nil))
	// Output:
	// did:elastos:igHbSCez6H3gTuVPzwNZRrdj92GCJ6hD5d <nil>
	// <nil>
}

// Parse accepts the full form and the bare id; customized DIDs are looked up
// case-insensitively.
func ExampleParse() {
	for _, s := range []string{"did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y", "FooBar", "did:web:example.com"} {
		d, err := did.Parse(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(d, d.IsCustomized(), d.Key())
	}
	// Output:
	// did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y false iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y
	// did:elastos:FooBar true foobar
	// did: "did:web:example.com": method "web", want "elastos"
}

// Issue a credential: build it, sign it as the issuer, verify it against
// the issuer's document.
func ExampleNewCredential() {
	priv, _ := keys.ParseExtendedPrivateKey(vectors.String("elastos-did-sdk/v2.2/user4.id.primary.sk"))
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	doc, _ := did.NewDocument(priv.Public(), at.AddDate(5, 0, 0))
	id := did.URL{DID: doc.Subject(), Fragment: "email"}
	vc, err := did.NewCredential(id, []string{"SelfProclaimedCredential", "VerifiableCredential"}, doc.Subject(),
		[]byte(`{"email":"user4@example.com"}`), at, at.AddDate(1, 0, 0))
	if err != nil {
		fmt.Println(err)
		return
	}
	vc, err = vc.Sign(priv, did.URL{Fragment: did.PrimaryKey}, at)
	fmt.Println(vc.Proof.VerificationMethod, err)
	fmt.Println(vc.VerifyProof(keys.Native{}, did.NewDocuments(doc)))
	// Output:
	// did:elastos:igHbSCez6H3gTuVPzwNZRrdj92GCJ6hD5d#primary <nil>
	// <nil>
}
