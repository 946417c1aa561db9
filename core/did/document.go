package did

import (
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/didlight/didlight/core/did/sdkjson"
)

// Document is a parsed DID document. It is immutable: slices returned by its
// methods are shared with it and must not be modified.
type Document struct {
	context        []string
	subject        DID
	controllers    []DID // sorted
	multisig       Multisig
	publicKeys     []PublicKey // sorted by id
	authentication []URL       // sorted
	authorization  []URL       // sorted
	credentials    []Credential
	services       []Service
	expires        time.Time
	proofs         []Proof // sorted by the creator's DID
	defaultKey     int     // index into publicKeys, or -1 for a customized DID
	derivation     Derivation
	memo           *normalizedMemo // a parsed document's normalized form, written once
}

// Service is a service entry of a document. Properties other than id, type
// and serviceEndpoint are kept, sorted, and written back.
type Service struct {
	ID       URL
	Type     string
	Endpoint string // serviceEndpoint
	props    []sdkjson.Member
}

// NewService returns a service entry without extra properties.
func NewService(id URL, typ, endpoint string) Service {
	return Service{ID: id, Type: typ, Endpoint: endpoint}
}

// Properties returns the service's members other than id, type and
// serviceEndpoint, sorted by key.
func (s Service) Properties() []sdkjson.Member { return s.props }

// Subject returns the DID the document describes (its id).
func (doc *Document) Subject() DID { return doc.subject }

// Context returns the JSON-LD contexts (v2 documents), in their order.
func (doc *Document) Context() []string { return doc.context }

// Controllers returns the controllers of a customized DID, sorted.
func (doc *Document) Controllers() []DID { return doc.controllers }

// HasController reports whether c is a controller of the document.
func (doc *Document) HasController(c DID) bool {
	_, ok := slices.BinarySearchFunc(doc.controllers, c, func(a, b DID) int { return strings.Compare(a.id, b.id) })
	return ok
}

// Multisig returns the m:n rule; the zero value when there is none.
func (doc *Document) Multisig() Multisig { return doc.multisig }

// RequiredProofs returns how many proofs the document must carry: m of a
// multisig rule, else 1.
func (doc *Document) RequiredProofs() int {
	if doc.multisig.M > 0 {
		return doc.multisig.M
	}
	return 1
}

// IsCustomized reports whether the document has no default key of its own
// and is governed by its controllers.
func (doc *Document) IsCustomized() bool { return doc.defaultKey < 0 }

// PublicKeys returns every key of the document, sorted by id.
func (doc *Document) PublicKeys() []PublicKey { return doc.publicKeys }

// PublicKey returns the key with the given id.
func (doc *Document) PublicKey(id URL) (PublicKey, bool) {
	i, ok := slices.BinarySearchFunc(doc.publicKeys, id, func(k PublicKey, id URL) int { return compareURL(k.ID, id) })
	if !ok {
		return PublicKey{}, false
	}
	return doc.publicKeys[i], true
}

// DefaultKey returns the key that derives a standard DID; false for a
// customized DID.
func (doc *Document) DefaultKey() (PublicKey, bool) {
	if doc.defaultKey < 0 {
		return PublicKey{}, false
	}
	return doc.publicKeys[doc.defaultKey], true
}

// Authentication returns the ids of the authentication keys (the default
// key included), sorted.
func (doc *Document) Authentication() []URL { return doc.authentication }

// IsAuthentication reports whether id is one of the document's own
// authentication keys.
func (doc *Document) IsAuthentication(id URL) bool {
	_, ok := slices.BinarySearchFunc(doc.authentication, id, compareURL)
	return ok
}

// Authorization returns the ids of the authorization (recovery) keys, keys
// held by other DIDs that may deactivate this one, sorted.
func (doc *Document) Authorization() []URL { return doc.authorization }

// IsAuthorization reports whether id is an authorization key.
func (doc *Document) IsAuthorization(id URL) bool {
	_, ok := slices.BinarySearchFunc(doc.authorization, id, compareURL)
	return ok
}

// Credentials returns the embedded credentials, sorted by id.
func (doc *Document) Credentials() []Credential { return doc.credentials }

// Services returns the services, sorted by id.
func (doc *Document) Services() []Service { return doc.services }

// ServiceTypes returns the distinct types of the document's services, sorted.
func (doc *Document) ServiceTypes() []string {
	types := make([]string, 0, len(doc.services))
	for _, s := range doc.services {
		types = append(types, s.Type)
	}
	slices.Sort(types)
	return slices.Compact(types)
}

// CredentialTypes returns the distinct types of the embedded credentials, sorted.
func (doc *Document) CredentialTypes() []string {
	var types []string
	for _, c := range doc.credentials {
		types = append(types, c.Types...)
	}
	slices.Sort(types)
	return slices.Compact(types)
}

// Expires returns when the document expires.
func (doc *Document) Expires() time.Time { return doc.expires }

// Proofs returns the proofs, sorted by the DID of their creator.
func (doc *Document) Proofs() []Proof { return doc.proofs }

// Legacy reports whether the document is in the oldest on-chain format: no
// proof, and a default key that derives the DID with the 0xAC suffix. Such a
// document is authenticated only by the signature of the operation carrying
// it, made by its default key.
func (doc *Document) Legacy() bool {
	return len(doc.proofs) == 0 && doc.derivation == DerivedLegacy
}

// normalizedMemo keeps the normalized form of the document that owns it,
// written on first use: a parsed document (the chain keeps them) is
// written again for every W3C resolution of it. The copies Sign and the
// With methods make share the pointer but not the owner, and never use it.
type normalizedMemo struct {
	owner    *Document
	once     sync.Once
	b        []byte
	unsigned int // the length of b before its proofs (appendSplitJSON)

	// the SHA-256 of the owner's signing input, hashed on first use
	// (proofDigest): the chain checks a document's proofs when the
	// operation arrives and again when its block is made.
	digestOnce sync.Once
	digest     [32]byte
}

// written returns the normalized form of doc, the memo's owner, writing it
// on first use. The bytes are shared: callers copy them.
func (m *normalizedMemo) written(doc *Document) []byte {
	m.once.Do(func() { m.b, m.unsigned = doc.appendSplitJSON(nil, DID{}, true) })
	return m.b
}
