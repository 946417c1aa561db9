package w3c_test

import (
	"crypto/sha256"
	"fmt"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/core/w3c"
)

// A DID created in block 7 and resolved at block 9: the resolution result
// names the create's time and transaction, and a service selection is a
// redirect to the service's endpoint.
func ExampleResolve() {
	seed := sha256.Sum256([]byte("example key"))
	priv, _ := keys.NewPrivateKey(seed[:])
	created := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	doc, _ := did.NewDocument(priv.Public(), created.AddDate(5, 0, 0),
		did.NewService(did.URL{Fragment: "hive"}, "HiveVault", "https://hive.example.org/vault"))
	def, _ := doc.DefaultKey()
	doc, _ = doc.Sign(priv, def.ID, created)
	create, _ := idop.NewCreate(doc, def.ID, priv)
	op, _ := idop.Decode(create)
	txid := fmt.Sprintf("%064x", 1)
	h := w3c.History{
		Entries:  []resolve.Entry{resolve.NewEntry(op, txid, 7, 1, created.Unix())},
		Document: func(int) (*did.Document, error) { return op.Document, nil },
	}
	tip := w3c.Tip{Height: 9, Time: created.Add(time.Hour).Unix()}

	resp, _ := w3c.Resolve(w3c.ParseRequest(doc.Subject().String(), "", w3c.MediaResolution), h, tip)
	fmt.Println(resp.Status, resp.ContentType)
	resp, _ = w3c.Resolve(w3c.ParseRequest(doc.Subject().String()+"?service=hive&relativeRef=%2Fprofile.json", "", ""), h, tip)
	fmt.Println(resp.Status, resp.Location)
	resp, _ = w3c.Resolve(w3c.ParseRequest("did:example:123", "", ""), h, tip)
	fmt.Println(resp.Status, string(resp.Body))
	// Output:
	// 200 application/did-resolution
	// 303 https://hive.example.org/vault/profile.json
	// 501 {"didDocument":null,"didResolutionMetadata":{"error":{"type":"https://www.w3.org/ns/did#METHOD_NOT_SUPPORTED","title":"This resolver resolves did:elastos only.","detail":"method \"example\": this resolver resolves did:elastos only"}},"didDocumentMetadata":{}}
}
