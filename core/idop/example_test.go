package idop_test

import (
	"fmt"
	"time"

	"didlight/core/did"
	"didlight/core/idop"
	"didlight/core/internal/vectors"
	"didlight/core/keys"
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
