package resolve_test

import (
	"fmt"
	"time"

	"didlight/core/did"
	"didlight/core/idop"
	"didlight/core/internal/vectors"
	"didlight/core/keys"
	"didlight/core/resolve"
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
	history := []resolve.Entry{{
		Txid:    "23df5f7d0befb743899c22357f774df3d9ce809917b07559c59f12771e67aa31",
		Height:  1200,
		Time:    at.Unix(),
		Request: create,
	}}

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
