package idop_test

import (
	"fmt"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/internal/vectors"
	"github.com/didlight/didlight/core/keys"
)

// A node validates a request against the DID's state: here, a create for a
// DID that does not exist yet, then the same create again.
func ExampleValidate() {
	priv, _ := keys.ParseExtendedPrivateKey(vectors.String("elastos-did-sdk/v2.2/user4.id.primary.sk"))
	blockTime := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)

	doc, _ := did.NewDocument(priv.Public(), blockTime.AddDate(5, 0, 0))
	primary, _ := doc.DefaultKey()
	doc, _ = doc.Sign(priv, primary.ID, blockTime)
	req, _ := idop.NewCreate(doc, primary.ID, priv)

	op, err := idop.Decode(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(op.Request.Header.Operation, op.DID)
	fmt.Println(idop.Validate(op, nil, nil, keys.Native{}, blockTime))

	st := &idop.State{Document: doc, Txid: "23df5f7d0befb743899c22357f774df3d9ce809917b07559c59f12771e67aa31"}
	err = idop.Validate(op, st, nil, keys.Native{}, blockTime)
	fmt.Println(idop.RuleOf(err))
	// Output:
	// create did:elastos:igHbSCez6H3gTuVPzwNZRrdj92GCJ6hD5d
	// <nil>
	// create-exists
}

// ParseRequest reads the JSON form clients send; the signing input is what
// the proof signs.
func ExampleParseRequest() {
	req, err := idop.ParseRequest([]byte(`{"header":{"specification":"elastos/did/1.0","operation":"deactivate"},
		"payload":"did:elastos:igHbSCez6H3gTuVPzwNZRrdj92GCJ6hD5d",
		"proof":{"verificationMethod":"#primary","signature":"` + sig64 + `"}}`))
	fmt.Println(err)
	fmt.Printf("%s\n", req.SigningInput())
	// Output:
	// <nil>
	// elastos/did/1.0deactivatedid:elastos:igHbSCez6H3gTuVPzwNZRrdj92GCJ6hD5d
}

const sig64 = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"

// The SDK's customized DID foobar (2:3) passes to user4: two of its three
// controllers signed the ticket naming its last transaction, and user4
// signs the new document and the request.
func ExampleValidate_transfer() {
	read := func(name string) []byte { return vectors.Read("elastos-did-sdk/v2.2/" + name) }
	var docs []*did.Document
	for _, name := range vectors.Glob("elastos-did-sdk/v2.2/user*.id.json") {
		doc, _ := did.ParseDocument(vectors.Read(name))
		docs = append(docs, doc)
	}
	current, _ := did.ParseDocument(read("foobar.id.json"))
	next, _ := did.ParseDocument(read("foobar.new-id.json"))
	ticket, _ := did.ParseTransferTicket(read("foobar.tt.json"))
	user4, _ := keys.ParseExtendedPrivateKey(string(read("user4.id.primary.sk")))
	signer, _ := did.ParseURL("did:elastos:igHbSCez6H3gTuVPzwNZRrdj92GCJ6hD5d#primary", did.DID{})

	req, _ := idop.NewTransfer(next, ticket, signer, user4)
	op, _ := idop.Decode(req)
	st := &idop.State{Document: current, Txid: ticket.Txid}
	at := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	fmt.Println(op.DID, "to", op.Ticket.To, idop.Validate(op, st, did.NewDocuments(docs...), keys.Native{}, at))

	st.Txid = "0000000000000000000000000000000000000000000000000000000000000000"
	fmt.Println(idop.RuleOf(idop.Validate(op, st, did.NewDocuments(docs...), keys.Native{}, at)))
	// Output:
	// did:elastos:foobar to did:elastos:igHbSCez6H3gTuVPzwNZRrdj92GCJ6hD5d <nil>
	// ticket
}

// The owner declares a credential its issuer signed; once the owner has
// revoked it, it cannot be declared again.
func ExampleValidateCredential() {
	var docs []*did.Document
	for _, name := range vectors.Glob("elastos-did-sdk/v2.2/*.id.json") {
		doc, _ := did.ParseDocument(vectors.Read(name))
		docs = append(docs, doc)
	}
	lookup := did.NewDocuments(docs...)
	vc, _ := did.ParseCredential(vectors.Read("elastos-did-sdk/v2.2/user1.vc.twitter.json"))
	user1, _ := keys.ParseExtendedPrivateKey(vectors.String("elastos-did-sdk/v2.2/user1.id.primary.sk"))
	primary, _ := did.ParseURL("#primary", vc.Subject)
	at := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)

	req, _ := idop.NewDeclare(vc, primary, user1)
	declare, _ := idop.Decode(req)
	fmt.Println(declare.CredentialID, idop.ValidateCredential(declare, nil, lookup, keys.Native{}, at))

	st := &idop.CredentialState{Revokers: []did.DID{vc.Subject}}
	fmt.Println(idop.RuleOf(idop.ValidateCredential(declare, st, lookup, keys.Native{}, at)))
	// Output:
	// did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y#twitter <nil>
	// credential-revoked
}
