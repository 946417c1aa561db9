package demo

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"didlight/core/did"
	"didlight/core/keys"
)

// document returns p's document, signed at now: its services (and the
// website an update adds) and its self-proclaimed credentials.
func (p *person) document(now, expires time.Time, updated bool) (*did.Document, error) {
	subject := did.FromKey(p.key.Public())
	specs := p.services
	if updated {
		specs = append(specs[:len(specs):len(specs)], serviceSpec{"website", "LinkedDomains", "https://www." + strings.ToLower(p.name) + ".example.org"})
	}
	services := make([]did.Service, len(specs))
	for i, s := range specs {
		services[i] = did.NewService(did.URL{DID: subject, Fragment: s.fragment}, s.typ, s.endpoint)
	}
	doc, err := did.NewDocument(p.key.Public(), expires, services...)
	if err != nil {
		return nil, err
	}
	if len(p.credentials) > 0 {
		if doc, err = p.withCredentials(doc, now, expires); err != nil {
			return nil, err
		}
	}
	primary, _ := doc.DefaultKey()
	return doc.Sign(p.key, primary.ID, now)
}

// withCredentials returns doc (unsigned) with p's credentials embedded.
// core/did builds documents with services only, so the credentials are
// added to its JSON and the result parsed back.
func (p *person) withCredentials(doc *did.Document, now, expires time.Time) (*did.Document, error) {
	var list [][]byte
	for _, spec := range p.credentials {
		c, err := p.credential(doc, spec, now, expires)
		if err != nil {
			return nil, err
		}
		list = append(list, c)
	}
	unsigned := doc.Normalized()
	var b bytes.Buffer
	b.Write(unsigned[:len(unsigned)-1]) // without the closing brace
	b.WriteString(`,"verifiableCredential":[`)
	b.Write(bytes.Join(list, []byte(",")))
	b.WriteString("]}")
	return did.ParseDocument(b.Bytes())
}

// credentialJSON is a self-proclaimed credential as the SDKs write one.
type credentialJSON struct {
	ID             string            `json:"id"`
	Type           []string          `json:"type"`
	Issuer         string            `json:"issuer"`
	IssuanceDate   string            `json:"issuanceDate"`
	ExpirationDate string            `json:"expirationDate"`
	Subject        map[string]string `json:"credentialSubject"`
	Proof          credentialProof   `json:"proof"`
}

type credentialProof struct {
	Type               string `json:"type"`
	VerificationMethod string `json:"verificationMethod"`
	Signature          string `json:"signature"`
}

// credential returns the JSON of a credential about doc's DID, issued by
// it and signed with its primary key over the credential's normalized
// form without its proof, and checks the proof verifies.
func (p *person) credential(doc *did.Document, spec credentialSpec, now, expires time.Time) ([]byte, error) {
	subject := doc.Subject()
	claims := map[string]string{"id": subject.String()}
	for k, v := range spec.subject {
		claims[k] = v
	}
	primary, _ := doc.DefaultKey()
	c := credentialJSON{
		ID:             subject.String() + "#" + spec.fragment,
		Type:           append([]string{"SelfProclaimedCredential"}, spec.types...),
		Issuer:         subject.String(),
		IssuanceDate:   did.FormatTime(now),
		ExpirationDate: did.FormatTime(expires),
		Subject:        claims,
		Proof:          credentialProof{did.DefaultKeyType, primary.ID.String(), keys.Signature{}.Text()},
	}
	placeholder, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	parsed, err := did.ParseCredential(placeholder)
	if err != nil {
		return nil, err
	}
	// The normalized form ends with the proof member: what precedes it,
	// closed, is the form without the proof that the issuer signs.
	norm := parsed.Normalized()
	cut := bytes.LastIndex(norm, []byte(`,"proof":{`))
	if cut < 0 {
		return nil, fmt.Errorf("demo: credential %s: no proof in its normalized form", c.ID)
	}
	input := append(norm[:cut:cut], '}')
	c.Proof.Signature = p.key.Sign(sha256.Sum256(input)).Text()
	signed, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	check, err := did.ParseCredential(signed)
	if err != nil {
		return nil, err
	}
	if err := check.VerifyProof(keys.Native{}, did.NewDocuments(doc)); err != nil {
		return nil, fmt.Errorf("demo: credential %s does not verify: %w", c.ID, err)
	}
	return signed, nil
}
