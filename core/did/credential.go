package did

import (
	"slices"
	"time"

	"github.com/didlight/didlight/core/did/sdkjson"
	"github.com/didlight/didlight/core/excerpt"
	"github.com/didlight/didlight/core/keys"
)

// Credential is a verifiable credential, embedded in a document or on its own.
type Credential struct {
	Context        []string
	ID             URL
	Types          []string // sorted
	Issuer         DID
	IssuanceDate   time.Time
	ExpirationDate time.Time // zero when the credential does not say
	Subject        DID       // credentialSubject.id, the DID the claims are about
	Proof          CredentialProof

	props []sdkjson.Member
}

// CredentialProof is the issuer's signature over the normalized credential
// without its proof.
type CredentialProof struct {
	Type               string
	Created            time.Time // zero when the proof does not say
	VerificationMethod URL
	Signature          string
}

// ParseCredential parses a credential on its own (not in a document); its
// subject must then name its id.
func ParseCredential(b []byte) (*Credential, error) {
	d := sdkjson.NewDecoder(b)
	if d.Kind() != sdkjson.Object {
		return nil, errorf(ErrMalformed, "a credential must be a JSON object")
	}
	raw := readCredential(d)
	if err := d.Finish(); err != nil {
		return nil, wrap(ErrMalformed, err, "credential")
	}
	c, err := raw.build(DID{})
	if err != nil {
		return nil, wrap(ErrMalformed, err, "credential")
	}
	return c, nil
}

// SubjectProperties returns the claims of credentialSubject other than its
// id, sorted by key at every depth.
func (c *Credential) SubjectProperties() []sdkjson.Member { return c.props }

// AppendSubject appends the credentialSubject object: its id, then its
// other claims.
func (c *Credential) AppendSubject(dst []byte) []byte {
	id := [...]sdkjson.Member{{Key: "id", Value: sdkjson.StringValue(c.Subject.String())}}
	return sdkjson.AppendObject(dst, id[:], c.props)
}

// IsSelfProclaimed reports whether the subject issued the credential.
func (c *Credential) IsSelfProclaimed() bool { return c.Issuer == c.Subject }

// build resolves a credential. Relative ids are resolved against the
// subject's DID, which defaults to holder (the document's subject), and the
// proof's verification method against the issuer, which defaults to the
// subject.
func (raw *rawCredential) build(holder DID) (*Credential, error) {
	c := &Credential{Context: raw.context}
	if raw.subject.Kind() != sdkjson.Object {
		return nil, errorf(ErrMalformed, "credential has no credentialSubject")
	}
	c.Subject = holder
	for _, m := range raw.subject.Members() {
		if m.Key != "id" {
			c.props = append(c.props, m)
			continue
		}
		if m.Value.Kind() != sdkjson.String {
			return nil, errorf(ErrMalformed, "credentialSubject.id must be a string")
		}
		var err error
		if c.Subject, err = parseFull(m.Value.Str()); err != nil {
			return nil, wrap(ErrMalformed, err, "credentialSubject.id")
		}
	}
	if c.Subject.IsZero() {
		return nil, errorf(ErrMalformed, "credentialSubject has no id")
	}
	var err error
	if raw.id == "" {
		return nil, errorf(ErrMalformed, "credential has no id")
	}
	if c.ID, err = parseRef(raw.id, c.Subject); err != nil {
		return nil, wrap(ErrMalformed, err, "credential id")
	}
	if raw.types == nil {
		return nil, errorf(ErrMalformed, "credential %s has no type", c.ID)
	}
	c.Types = raw.types // raw's own, read for this credential alone
	slices.SortFunc(c.Types, sdkjson.CompareUTF16)
	c.Issuer = c.Subject
	if raw.issuer != "" {
		if c.Issuer, err = parseFull(raw.issuer); err != nil {
			return nil, wrap(ErrMalformed, err, "credential %s issuer", c.ID)
		}
	}
	if raw.issuanceDate == "" {
		return nil, errorf(ErrMalformed, "credential %s has no issuanceDate", c.ID)
	}
	if c.IssuanceDate, err = parseTime(raw.issuanceDate); err != nil {
		return nil, wrap(ErrMalformed, err, "credential %s issuanceDate", c.ID)
	}
	if raw.expiration != "" {
		if c.ExpirationDate, err = parseTime(raw.expiration); err != nil {
			return nil, wrap(ErrMalformed, err, "credential %s expirationDate", c.ID)
		}
	}
	if err := c.buildProof(raw.proof); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Credential) buildProof(raw *rawCredentialProof) error {
	if raw == nil {
		return errorf(ErrMalformed, "credential %s has no proof", c.ID)
	}
	p := CredentialProof{Type: raw.typ, Signature: raw.signature}
	if p.Type == "" {
		p.Type = DefaultKeyType
	}
	if raw.method == "" || p.Signature == "" {
		return errorf(ErrMalformed, "credential %s: proof needs verificationMethod and signature", c.ID)
	}
	var err error
	if p.VerificationMethod, err = parseRef(raw.method, c.Issuer); err != nil {
		return wrap(ErrMalformed, err, "credential %s proof", c.ID)
	}
	if raw.created != "" {
		if p.Created, err = parseTime(raw.created); err != nil {
			return wrap(ErrMalformed, err, "credential %s proof created", c.ID)
		}
	}
	c.Proof = p
	return nil
}

// Normalized returns the credential as the SDKs serialize it for signing.
func (c *Credential) Normalized() []byte { return c.appendJSON(DID{}, true) }

// Compact returns the credential in the SDKs' compact form, references
// relative to its subject.
func (c *Credential) Compact() []byte { return c.appendJSON(c.Subject, true) }

func (c *Credential) appendJSON(base DID, withProof bool) []byte {
	w := writer{dst: make([]byte, 0, 512), base: base}
	w.credentialWithProof(c, withProof)
	return w.dst
}

// VerifyProof checks that the credential is genuine: its id lies under its
// subject's DID, and its proof is a signature over the normalized credential
// without proof by an authentication key of the issuer, whose document (and,
// for a customized issuer, its controllers' documents) docs supplies. Errors
// match [ErrProof], [ErrKey] or [ErrNoDocument].
func (c *Credential) VerifyProof(v keys.Verifier, docs Lookup) error {
	if c.ID.DID != c.Subject {
		return errorf(ErrProof, "credential %s is not under its subject %s", c.ID, c.Subject)
	}
	if c.Proof.Type != DefaultKeyType {
		return errorf(ErrProof, "credential %s: proof type %s, want %q", c.ID, excerpt.Quote(c.Proof.Type), DefaultKeyType)
	}
	issuer, err := controllerDocument(c.Issuer, docs)
	if err != nil {
		return wrap(ErrNoDocument, err, "credential %s: issuer", c.ID)
	}
	key, err := issuer.AuthenticationKey(c.Proof.VerificationMethod, docs)
	if err != nil {
		return wrap(ErrKey, err, "credential %s", c.ID)
	}
	digest := keys.Digest(v, c.appendJSON(DID{}, false))
	if err := verify(v, key, digest, c.Proof.Signature); err != nil {
		return wrap(ErrProof, err, "credential %s: proof by %s", c.ID, key.ID)
	}
	return nil
}
