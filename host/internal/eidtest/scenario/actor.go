package scenario

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
)

// actor is a DID of the scenario: its key (derived from its name, so runs
// make the same DIDs), its latest accepted document and transaction.
type actor struct {
	name    string
	key     *keys.PrivateKey
	did     did.DID
	primary did.URL
	second  *keys.PrivateKey // the authentication key #key2, when the actor has one
	doc     *did.Document    // the latest document sent in an accepted operation
	last    string           // the txid of its last accepted operation: hash without 0x
}

func newActor(name string) *actor {
	return &actor{name: name, key: seededKey(name)}
}

// seededKey derives a P-256 key from a name: the scenario's DIDs are the
// same on every run.
func seededKey(name string) *keys.PrivateKey {
	seed := sha256.Sum256([]byte("didlight eidtest " + name))
	k, err := keys.NewPrivateKey(seed[:])
	if err != nil {
		panic(fmt.Sprintf("scenario: the seed of %s is no P-256 scalar: %v", name, err)) // odds 2^-128
	}
	return k
}

func (a *actor) init() *actor {
	a.did = did.FromKey(a.key.Public())
	a.primary = did.URL{DID: a.did, Fragment: did.PrimaryKey}
	return a
}

// document returns a's document signed at now: one service whose endpoint
// carries version (so each update changes the document), and #key2 as a
// second authentication key when a has one.
func (a *actor) document(now, expires time.Time, version int) (*did.Document, error) {
	svc := did.NewService(did.URL{DID: a.did, Fragment: "hub"}, "LinkedDomains", fmt.Sprintf("https://%s.example.org/v%d", a.name, version))
	doc, err := did.NewDocument(a.key.Public(), expires, svc)
	if err != nil {
		return nil, err
	}
	if a.second != nil {
		if doc, err = withSecondKey(doc, a.second); err != nil {
			return nil, err
		}
	}
	return doc.Sign(a.key, a.primary, now)
}

// withSecondKey returns doc (unsigned) with key2 added as #key2, in
// publicKey and authentication.
func withSecondKey(doc *did.Document, key2 *keys.PrivateKey) (*did.Document, error) {
	var m map[string]any
	if err := json.Unmarshal(doc.Normalized(), &m); err != nil {
		return nil, err
	}
	id := doc.Subject().String() + "#key2"
	m["publicKey"] = append(m["publicKey"].([]any), map[string]any{
		"id": id, "type": did.DefaultKeyType, "controller": doc.Subject().String(), "publicKeyBase58": key2.Public().Base58(),
	})
	m["authentication"] = append(m["authentication"].([]any), id)
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return did.ParseDocument(b)
}

// create returns a's create operation for doc.
func (a *actor) create(doc *did.Document) ([]byte, error) {
	return op(idop.NewCreate(doc, a.primary, a.key))
}

// update returns a's update of doc after its last transaction, signed by
// its default key.
func (a *actor) update(doc *did.Document) ([]byte, error) {
	return op(idop.NewUpdate(doc, a.last, a.primary, a.key))
}

func op(r idop.Request, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	return r.AppendJSON(nil), nil
}

// credential returns the credential a.did#fragment, of the given type,
// issued by issuer at now, for a year, signed by the issuer's default key.
func credential(a *actor, fragment, typ string, issuer *actor, claims string, now time.Time) (*did.Credential, error) {
	types := []string{typ}
	if issuer == a {
		types = append(types, "SelfProclaimedCredential")
	}
	c, err := did.NewCredential(did.URL{DID: a.did, Fragment: fragment}, types, issuer.did, []byte(claims), now, now.AddDate(1, 0, 0))
	if err != nil {
		return nil, err
	}
	return c.Sign(issuer.key, issuer.primary, now)
}
