package resolve_test

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/internal/vectors"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/resolve"
)

// A node builds the resolvedid result from a DID's history; a light client
// verifies it against its own reference time.
func ExampleVerify() {
	priv, _ := keys.ParseExtendedPrivateKey(vectors.String("elastos-did-sdk/v2.2/user4.id.primary.sk"))
	at := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	doc, _ := did.NewDocument(priv.Public(), at.AddDate(5, 0, 0))
	primary, _ := doc.DefaultKey()
	doc, _ = doc.Sign(priv, primary.ID, at)
	create, _ := idop.NewCreate(doc, primary.ID, priv)
	op, _ := idop.Decode(create) // a node decodes each operation once, when it takes it in
	history := []resolve.Entry{
		resolve.NewEntry(op, "23df5f7d0befb743899c22357f774df3d9ce809917b07559c59f12771e67aa31", 1200, 0, at.Unix()),
	}

	result, _ := resolve.Result(doc.Subject(), history, true, at.Unix())
	v, err := resolve.Verify(result, nil, keys.Native{}, at.AddDate(1, 0, 0))
	fmt.Println(v.DID, v.Status, v.Complete, err)

	_, err = resolve.Verify(result, nil, keys.Native{}, at.AddDate(6, 0, 0))
	fmt.Println(err)
	// Output:
	// did:elastos:igHbSCez6H3gTuVPzwNZRrdj92GCJ6hD5d valid true <nil>
	// resolve: status: the result says 0 (valid), the transactions give 1 (expired) at 2030-06-01T00:00:00Z
}

// A DID without history resolves to status 3 and no transaction member.
func ExampleResult() {
	d, _ := did.Parse("igHbSCez6H3gTuVPzwNZRrdj92GCJ6hD5d")
	b, _ := resolve.Result(d, nil, false, 0)
	fmt.Printf("%s\n", b)
	// Output:
	// {"did":"did:elastos:igHbSCez6H3gTuVPzwNZRrdj92GCJ6hD5d","status":3}
}

// A node answers resolvecredential from the history of the credential id;
// a light client verifies the answer. Here the owner declared the SDK's
// twitter credential and its issuer revoked it.
func ExampleCredentialResult() {
	var docs []*did.Document
	for _, name := range vectors.Glob("elastos-did-sdk/v2.2/*.id.json") {
		doc, _ := did.ParseDocument(vectors.Read(name))
		docs = append(docs, doc)
	}
	lookup := did.NewDocuments(docs...)
	vc, _ := did.ParseCredential(vectors.Read("elastos-did-sdk/v2.2/user1.vc.twitter.json"))
	owner, _ := keys.ParseExtendedPrivateKey(vectors.String("elastos-did-sdk/v2.2/user1.id.primary.sk"))
	issuer, _ := keys.ParseExtendedPrivateKey(vectors.String("elastos-did-sdk/v2.2/issuer.id.primary.sk"))
	ownerKey, _ := did.ParseURL("#primary", vc.Subject)
	issuerKey, _ := did.ParseURL("#primary", vc.Issuer)
	declare, _ := idop.NewDeclare(vc, ownerKey, owner)
	revoke, _ := idop.NewRevoke(vc.ID, issuerKey, issuer)
	at := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	declared, _ := idop.Decode(declare)
	revoked, _ := idop.Decode(revoke)
	history := []resolve.Entry{
		resolve.NewEntry(declared, "23df5f7d0befb743899c22357f774df3d9ce809917b07559c59f12771e67aa31", 1200, 0, at.Unix()),
		resolve.NewEntry(revoked, "b13f5d0a38e2bb3fe4c1ba58e1e6b98fe0b9ab01f9b2e2b7f9a5cd3a80a38f22", 1300, 0, at.AddDate(0, 1, 0).Unix()),
	}

	result, _ := resolve.CredentialResult(vc.ID, history, did.DID{}, lookup)
	var shape struct {
		ID          string
		Status      int
		Transaction []struct {
			Operation struct{ Header struct{ Operation string } }
		}
	}
	_ = json.Unmarshal(result, &shape)
	fmt.Println(shape.ID, shape.Status, shape.Transaction[0].Operation.Header.Operation, shape.Transaction[1].Operation.Header.Operation)

	v, err := resolve.VerifyCredential(result, did.DID{}, lookup, keys.Native{})
	fmt.Println(v.Status, v.RevokedBy, err)
	// Output:
	// did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y#twitter 2 revoke declare
	// revoked did:elastos:imUUPBfrZ1yZx6nWXe6LNN59VeX2E6PPKj <nil>
}

// listcredentials pages a DID's declared credentials, newest first: the
// node selects the page, core writes the answer.
func ExampleCredentialList() {
	owner, _ := did.Parse("did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y")
	var declared []did.URL // newest first, as the node indexes them
	for _, f := range []string{"twitter", "passport", "json"} {
		id, _ := did.ParseURL("#"+f, owner)
		declared = append(declared, id)
	}
	start, end, _ := resolve.CredentialPage(len(declared), 1, 0)
	fmt.Printf("%s\n", resolve.CredentialList(owner, declared[start:end]))
	// Output:
	// {"did":"did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y","credentials":["did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y#passport","did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y#json"]}
}

// resolvedid and did_resolveDID differ only in how they report an expired
// document.
func ExampleDialect() {
	priv, _ := keys.ParseExtendedPrivateKey(vectors.String("elastos-did-sdk/v2.2/user4.id.primary.sk"))
	at := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	doc, _ := did.NewDocument(priv.Public(), at.AddDate(1, 0, 0))
	primary, _ := doc.DefaultKey()
	doc, _ = doc.Sign(priv, primary.ID, at)
	create, _ := idop.NewCreate(doc, primary.ID, priv)
	op, _ := idop.Decode(create)
	history := []resolve.Entry{resolve.NewEntry(op, "23df5f7d0befb743899c22357f774df3d9ce809917b07559c59f12771e67aa31", 1200, 0, at.Unix())}
	tip := at.AddDate(2, 0, 0).Unix()

	for _, dl := range []resolve.Dialect{resolve.DialectSpec, resolve.DialectEID} {
		b, _ := dl.Result(doc.Subject(), history, false, tip)
		var r struct{ Status int }
		_ = json.Unmarshal(b, &r)
		fmt.Println(r.Status)
	}
	// Output:
	// 1
	// 0
}
