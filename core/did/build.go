package did

import (
	"slices"
	"time"

	"github.com/didlight/didlight/core/keys"
)

// PrimaryKey is the fragment [NewDocument] gives the default key, as the SDKs do.
const PrimaryKey = "primary"

// NewDocument returns the unsigned document of a new standard DID: the DID
// derived from pub, pub as its default key #primary (in publicKey and
// authentication), the given services (ids relative to the DID are resolved
// against it) and expires (whole seconds, UTC). Sign it with Sign, creator
// Document.DefaultKey().ID.
func NewDocument(pub keys.PublicKey, expires time.Time, services ...Service) (*Document, error) {
	subject := FromKey(pub)
	primary := URL{DID: subject, Fragment: PrimaryKey}
	key, err := newPublicKey(primary, DefaultKeyType, subject, pub.Base58())
	if err != nil {
		return nil, err
	}
	doc := &Document{
		subject:        subject,
		publicKeys:     []PublicKey{key},
		authentication: []URL{primary},
		expires:        expires.UTC().Truncate(time.Second),
		derivation:     Derived,
	}
	for _, s := range services {
		if s.ID.DID.IsZero() {
			s.ID.DID = subject
		}
		if s.ID.Fragment == "" || s.Type == "" || s.Endpoint == "" {
			return nil, errorf(ErrMalformed, "%s: a service needs an id with a fragment, a type and an endpoint", subject)
		}
		if slices.ContainsFunc(doc.services, func(o Service) bool { return o.ID == s.ID }) {
			return nil, errorf(ErrMalformed, "%s: service %s is listed twice", subject, s.ID)
		}
		doc.services = append(doc.services, s)
	}
	slices.SortFunc(doc.services, func(a, b Service) int { return compareURL(a.ID, b.ID) })
	return doc, nil
}

// WithCredentials returns an unsigned copy of the document (its proofs
// left out) that also embeds the credentials cs, as the SDKs' document
// builder adds them: each about the document's DID, each id once, sorted
// by id. Sign the copy. Errors match [ErrMalformed].
func (doc *Document) WithCredentials(cs ...*Credential) (*Document, error) {
	out := *doc
	out.proofs = nil
	out.credentials = slices.Clone(doc.credentials)
	for _, c := range cs {
		if c.Subject != doc.subject || c.ID.DID != doc.subject {
			return nil, errorf(ErrMalformed, "%s: credential %s is about %s, not the document's DID", doc.subject, c.ID, c.Subject)
		}
		if slices.ContainsFunc(out.credentials, func(o Credential) bool { return o.ID == c.ID }) {
			return nil, errorf(ErrMalformed, "%s: credential %s is listed twice", doc.subject, c.ID)
		}
		out.credentials = append(out.credentials, *c)
	}
	slices.SortFunc(out.credentials, func(a, b Credential) int { return compareURL(a.ID, b.ID) })
	return &out, nil
}
