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

// party is DID d as its requests need it, its keys derived once (Key
// costs a scalar multiplication): its DID, its own key (nil for a
// customized DID, which has none), and the key that signs its operations
// and that key's id: its own primary key, or its controller's.
type party struct {
	d       DID
	subject did.DID
	own     *keys.PrivateKey
	signer  *keys.PrivateKey
	method  did.URL
}

func (p *Plan) party(d DID) (party, error) {
	if d.Controller >= 0 {
		subject, err := p.Subject(d)
		key := p.issuers[d.Controller]
		return party{d: d, subject: subject, signer: key, method: did.URL{DID: did.FromKey(key.Public()), Fragment: did.PrimaryKey}}, err
	}
	own := Key(p.Seed, d.Index)
	subject := did.FromKey(own.Public())
	return party{d: d, subject: subject, own: own, signer: own, method: did.URL{DID: subject, Fragment: did.PrimaryKey}}, nil
}

// Request returns the signed request of operation k of DID d (see Ops),
// for the block stamped at; prev is the txid of the DID's last operation,
// which an update names.
func (p *Plan) Request(d DID, k int, prev string, at time.Time) (idop.Request, error) {
	ops := d.Ops()
	if k < 0 || k >= len(ops) {
		return idop.Request{}, fmt.Errorf("synth: DID %d has %d operations, no operation %d", d.Index, len(ops), k)
	}
	w, err := p.party(d)
	if err != nil {
		return idop.Request{}, fmt.Errorf("synth: DID %d: %w", d.Index, err)
	}
	switch ops[k] {
	case idop.Create, idop.Update:
		doc, err := p.document(w, k, at)
		if err != nil {
			return idop.Request{}, fmt.Errorf("synth: DID %d (%s), version %d: %w", d.Index, w.subject, k, err)
		}
		if ops[k] == idop.Create {
			return idop.NewCreate(doc, w.method, w.signer)
		}
		return idop.NewUpdate(doc, prev, w.method, w.signer)
	case idop.Declare:
		vc, err := p.credential(w, d.Credentials[0], at, at.Add(d.Lifetime))
		if err != nil {
			return idop.Request{}, err
		}
		return idop.NewDeclare(vc, w.method, w.signer)
	case idop.Revoke:
		return idop.NewRevoke(did.URL{DID: w.subject, Fragment: d.Credentials[0].Fragment}, w.method, w.signer)
	}
	return idop.NewDeactivate(w.subject, w.method, w.signer)
}

// document returns version v of w's document (0 for its create), signed
// at at: its services, whose endpoints name the version after the first,
// and its credentials.
func (p *Plan) document(w party, v int, at time.Time) (*did.Document, error) {
	expires := at.Add(w.d.Lifetime)
	services := make([]did.Service, len(w.d.Services))
	for i, s := range w.d.Services {
		endpoint := s.Endpoint
		if v > 0 {
			endpoint += "?v=" + strconv.Itoa(v)
		}
		services[i] = did.NewService(did.URL{DID: w.subject, Fragment: s.Fragment}, s.Type, endpoint)
	}
	doc, err := p.newDocument(w, expires, services)
	if err != nil {
		return nil, err
	}
	if len(w.d.Credentials) > 0 {
		list := make([]*did.Credential, len(w.d.Credentials))
		for i, c := range w.d.Credentials {
			if list[i], err = p.credential(w, c, at, expires); err != nil {
				return nil, err
			}
		}
		if doc, err = doc.WithCredentials(list...); err != nil {
			return nil, err
		}
	}
	return doc.Sign(w.signer, w.method, at)
}

// newDocument returns the unsigned document of w without credentials.
func (p *Plan) newDocument(w party, expires time.Time, services []did.Service) (*did.Document, error) {
	if w.own != nil {
		return did.NewDocument(w.own.Public(), expires, services...)
	}
	// A customized DID with one controller and no keys of its own: the
	// form the DID SDKs publish for a name a user's DID controls.
	var b strings.Builder
	fmt.Fprintf(&b, `{"id":%q,"controller":%q,"expires":%q`, w.subject, w.method.DID, did.FormatTime(expires))
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

// credential returns credential c of w, issued at issued and expiring at
// expires, signed by its issuer.
func (p *Plan) credential(w party, c Credential, issued, expires time.Time) (*did.Credential, error) {
	id := did.URL{DID: w.subject, Fragment: c.Fragment}
	signer, method := w.signer, w.method
	issuer := w.subject
	if c.Issuer >= 0 {
		signer = p.issuers[c.Issuer]
		issuer = did.FromKey(signer.Public())
		method = did.URL{DID: issuer, Fragment: did.PrimaryKey}
	}
	vc, err := did.NewCredential(id, c.Types, issuer, c.Subject, issued, expires)
	if err != nil {
		return nil, fmt.Errorf("synth: DID %d: %w", w.d.Index, err)
	}
	return vc.Sign(signer, method, time.Time{})
}
