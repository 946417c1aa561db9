package synth

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
)

// Subject returns the DID that DID d of the plan is.
func (p *Plan) Subject(d DID) (did.DID, error) {
	if d.Name == "" {
		return did.FromKey(Key(p.Seed, d.Index).Public()), nil
	}
	return did.Parse("did:elastos:" + d.Name)
}

// Request returns the signed request of operation k of DID d (see Ops),
// for the block stamped at; prev is the txid of the DID's last operation,
// which an update names.
func (p *Plan) Request(d DID, k int, prev string, at time.Time) (idop.Request, error) {
	ops := d.Ops()
	if k < 0 || k >= len(ops) {
		return idop.Request{}, fmt.Errorf("synth: DID %d has %d operations, no operation %d", d.Index, len(ops), k)
	}
	subject, err := p.Subject(d)
	if err != nil {
		return idop.Request{}, fmt.Errorf("synth: DID %d: %w", d.Index, err)
	}
	signer, method := p.signer(d, subject)
	switch ops[k] {
	case idop.Create, idop.Update:
		doc, err := p.document(d, subject, k, at)
		if err != nil {
			return idop.Request{}, fmt.Errorf("synth: DID %d (%s), version %d: %w", d.Index, subject, k, err)
		}
		if ops[k] == idop.Create {
			return idop.NewCreate(doc, method, signer)
		}
		return idop.NewUpdate(doc, prev, method, signer)
	case idop.Declare:
		vc, err := p.credential(d, subject, d.Credentials[0], at, at.Add(d.Lifetime))
		if err != nil {
			return idop.Request{}, err
		}
		return idop.NewDeclare(vc, method, signer)
	case idop.Revoke:
		return idop.NewRevoke(did.URL{DID: subject, Fragment: d.Credentials[0].Fragment}, method, signer)
	}
	return idop.NewDeactivate(subject, method, signer)
}

// signer returns the key that signs DID d's operations and its id: the
// DID's own primary key, or its controller's for a customized DID.
func (p *Plan) signer(d DID, subject did.DID) (*keys.PrivateKey, did.URL) {
	if d.Controller >= 0 {
		key := p.issuers[d.Controller]
		return key, did.URL{DID: did.FromKey(key.Public()), Fragment: did.PrimaryKey}
	}
	return Key(p.Seed, d.Index), did.URL{DID: subject, Fragment: did.PrimaryKey}
}

// document returns version v of DID d's document (0 for its create),
// signed at at: its services, whose endpoints name the version after the
// first, and its credentials.
func (p *Plan) document(d DID, subject did.DID, v int, at time.Time) (*did.Document, error) {
	expires := at.Add(d.Lifetime)
	services := make([]did.Service, len(d.Services))
	for i, s := range d.Services {
		endpoint := s.Endpoint
		if v > 0 {
			endpoint += "?v=" + strconv.Itoa(v)
		}
		services[i] = did.NewService(did.URL{DID: subject, Fragment: s.Fragment}, s.Type, endpoint)
	}
	doc, err := p.newDocument(d, subject, expires, services)
	if err != nil {
		return nil, err
	}
	if len(d.Credentials) > 0 {
		list := make([]*did.Credential, len(d.Credentials))
		for i, c := range d.Credentials {
			if list[i], err = p.credential(d, subject, c, at, expires); err != nil {
				return nil, err
			}
		}
		if doc, err = doc.WithCredentials(list...); err != nil {
			return nil, err
		}
	}
	signer, method := p.signer(d, subject)
	return doc.Sign(signer, method, at)
}

// newDocument returns the unsigned document of DID d without credentials.
func (p *Plan) newDocument(d DID, subject did.DID, expires time.Time, services []did.Service) (*did.Document, error) {
	if d.Controller < 0 {
		return did.NewDocument(Key(p.Seed, d.Index).Public(), expires, services...)
	}
	// A customized DID with one controller and no keys of its own: the
	// form the DID SDKs publish for a name a user's DID controls.
	controller := did.FromKey(p.issuers[d.Controller].Public())
	var b strings.Builder
	fmt.Fprintf(&b, `{"id":%q,"controller":%q,"expires":%q`, subject, controller, did.FormatTime(expires))
	if len(services) > 0 {
		b.WriteString(`,"service":[`)
		for i, s := range services {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"id":%q,"type":%q,"serviceEndpoint":%q}`, s.ID.String(), s.Type, s.Endpoint)
		}
		b.WriteByte(']')
	}
	b.WriteByte('}')
	return did.ParseDocument([]byte(b.String()))
}

// credential returns credential c of DID d, issued at issued and expiring
// at expires, signed by its issuer.
func (p *Plan) credential(d DID, subject did.DID, c Credential, issued, expires time.Time) (*did.Credential, error) {
	id := did.URL{DID: subject, Fragment: c.Fragment}
	signer, method := p.signer(d, subject)
	issuer := subject
	if c.Issuer >= 0 {
		signer = p.issuers[c.Issuer]
		issuer = did.FromKey(signer.Public())
		method = did.URL{DID: issuer, Fragment: did.PrimaryKey}
	}
	vc, err := did.NewCredential(id, c.Types, issuer, c.Subject, issued, expires)
	if err != nil {
		return nil, fmt.Errorf("synth: DID %d: %w", d.Index, err)
	}
	return vc.Sign(signer, method, time.Time{})
}
