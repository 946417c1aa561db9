package demo

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/keys"
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
func (p *person) withCredentials(doc *did.Document, now, expires time.Time) (*did.Document, error) {
	list := make([]*did.Credential, len(p.credentials))
	for i, spec := range p.credentials {
		var err error
		if list[i], err = p.credential(doc, spec, now, expires); err != nil {
			return nil, err
		}
	}
	return doc.WithCredentials(list...)
}

// credential returns a self-proclaimed credential about doc's DID, issued
// by it and signed with its primary key, and checks that it verifies.
func (p *person) credential(doc *did.Document, spec credentialSpec, now, expires time.Time) (*did.Credential, error) {
	subject := doc.Subject()
	claims, err := json.Marshal(spec.subject)
	if err != nil {
		return nil, err
	}
	id := did.URL{DID: subject, Fragment: spec.fragment}
	c, err := did.NewCredential(id, append([]string{"SelfProclaimedCredential"}, spec.types...), subject, claims, now, expires)
	if err != nil {
		return nil, err
	}
	primary, _ := doc.DefaultKey()
	if c, err = c.Sign(p.key, primary.ID, time.Time{}); err != nil {
		return nil, err
	}
	if err := c.VerifyProof(keys.Native{}, did.NewDocuments(doc)); err != nil {
		return nil, fmt.Errorf("demo: credential %s does not verify: %w", id, err)
	}
	return c, nil
}
