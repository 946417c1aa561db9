package abi

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/jsontext"
	"github.com/didlight/didlight/core/keys"
)

// ParseDIDInput is the input of parse_did.
type ParseDIDInput struct {
	DID string `json:"did"` // full (did:elastos:…) or bare
}

func (*ParseDIDInput) typeName() string { return "abi.ParseDIDInput" }

func (in *ParseDIDInput) member(d *decoder) bool {
	switch {
	case d.field("did"):
		d.str(&in.DID)
	default:
		return false
	}
	return true
}

// ParsedDID is the output of parse_did.
type ParsedDID struct {
	DID        string `json:"did"` // full form
	ID         string `json:"id"`  // the method-specific id
	Customized bool   `json:"customized"`
}

func (p ParsedDID) appendJSON(b []byte) []byte {
	o := jsontext.NewObject(b, jsontext.Std)
	o.String("did", p.DID)
	o.String("id", p.ID)
	o.Bool("customized", p.Customized)
	return o.End()
}

// ParseDID runs parse_did: did.Parse.
func ParseDID(in []byte, env Env) []byte { return run(in, env, parseDID) }

func parseDID(in *ParseDIDInput, _ Env) (ParsedDID, error) {
	d, err := did.Parse(in.DID)
	if err != nil {
		return ParsedDID{}, err
	}
	return ParsedDID{DID: d.String(), ID: d.ID(), Customized: d.IsCustomized()}, nil
}

// ParseDocumentInput is the input of parse_document.
type ParseDocumentInput struct {
	Document json.RawMessage `json:"document"` // any shape the SDKs write
	// Verify checks the document's proofs too, with Documents (and the
	// host's lookup) for a customized DID's controllers.
	Verify    bool              `json:"verify,omitempty"`
	Documents []json.RawMessage `json:"documents,omitempty"`
}

func (*ParseDocumentInput) typeName() string { return "abi.ParseDocumentInput" }

func (in *ParseDocumentInput) member(d *decoder) bool {
	switch {
	case d.field("document"):
		d.raw(&in.Document)
	case d.field("verify"):
		d.boolean(&in.Verify)
	case d.field("documents"):
		d.raws(&in.Documents)
	default:
		return false
	}
	return true
}

// ParsedDocument is the output of parse_document.
type ParsedDocument struct {
	DID        string          `json:"did"`
	Expires    string          `json:"expires"`
	Customized bool            `json:"customized"`
	Document   json.RawMessage `json:"document"` // normalized form
}

func (p ParsedDocument) appendJSON(b []byte) []byte {
	o := jsontext.NewObject(b, jsontext.Std)
	o.String("did", p.DID)
	o.String("expires", p.Expires)
	o.Bool("customized", p.Customized)
	o.Raw("document", p.Document)
	return o.End()
}

// ParseDocument runs parse_document: did.ParseDocument, and with verify
// Document.VerifyProofs.
func ParseDocument(in []byte, env Env) []byte { return run(in, env, parseDocument) }

func parseDocument(in *ParseDocumentInput, env Env) (ParsedDocument, error) {
	doc, err := document("document", in.Document)
	if err != nil {
		return ParsedDocument{}, err
	}
	if in.Verify {
		docs, err := env.lookup(in.Documents)
		if err != nil {
			return ParsedDocument{}, err
		}
		if err := doc.VerifyProofs(env.verifier(), docs); err != nil {
			return ParsedDocument{}, err
		}
	} else if len(in.Documents) > 0 {
		return ParsedDocument{}, inputError("documents are used only with verify")
	}
	return documentOutput(doc), nil
}

func documentOutput(doc *did.Document) ParsedDocument {
	return ParsedDocument{DID: doc.Subject().String(), Expires: did.FormatTime(doc.Expires()),
		Customized: doc.IsCustomized(), Document: doc.Normalized()}
}

// NewDocumentInput is the input of new_document.
type NewDocumentInput struct {
	// PublicKey (base58) or Key (a private key, as SignOperationInput.Key
	// takes it), exactly one: the default key, which derives the DID.
	PublicKey string    `json:"publicKey,omitempty"`
	Key       string    `json:"key,omitempty"`
	Expires   time.Time `json:"expires"`
	Services  []Service `json:"services,omitempty"`
}

func (*NewDocumentInput) typeName() string { return "abi.NewDocumentInput" }

func (in *NewDocumentInput) member(d *decoder) bool {
	switch {
	case d.field("publicKey"):
		d.str(&in.PublicKey)
	case d.field("key"):
		d.str(&in.Key)
	case d.field("expires"):
		d.time(&in.Expires)
	case d.field("services"):
		list(d, &in.Services, "[]abi.Service", func(s *Service) { d.object(s) })
	default:
		return false
	}
	return true
}

// Service is a service entry of a new document.
type Service struct {
	ID       string `json:"id"` // full, or relative to the DID ("#vault")
	Type     string `json:"type"`
	Endpoint string `json:"serviceEndpoint"`
}

func (*Service) typeName() string { return "abi.Service" }

func (s *Service) member(d *decoder) bool {
	switch {
	case d.field("id"):
		d.str(&s.ID)
	case d.field("type"):
		d.str(&s.Type)
	case d.field("serviceEndpoint"):
		d.str(&s.Endpoint)
	default:
		return false
	}
	return true
}

// NewDocument runs new_document: did.NewDocument, the unsigned document
// of a new standard DID (sign it with sign_document).
func NewDocument(in []byte, env Env) []byte { return run(in, env, newDocument) }

func newDocument(in *NewDocumentInput, _ Env) (ParsedDocument, error) {
	if err := required("expires", in.Expires.IsZero()); err != nil {
		return ParsedDocument{}, err
	}
	pub, err := publicKey(in.PublicKey, in.Key)
	if err != nil {
		return ParsedDocument{}, err
	}
	subject := did.FromKey(pub)
	services := make([]did.Service, len(in.Services))
	for i, s := range in.Services {
		id, err := did.ParseURL(s.ID, subject)
		if err != nil {
			return ParsedDocument{}, inputError("services[%d].id: %v", i, err)
		}
		services[i] = did.NewService(id, s.Type, s.Endpoint)
	}
	doc, err := did.NewDocument(pub, in.Expires, services...)
	if err != nil {
		return ParsedDocument{}, err
	}
	return documentOutput(doc), nil
}

// publicKey reads the key of a new document from exactly one of its forms.
func publicKey(base58, private string) (keys.PublicKey, error) {
	if (base58 == "") == (private == "") {
		return keys.PublicKey{}, inputError("want exactly one of publicKey and key")
	}
	if private != "" {
		priv, err := privateKey(private)
		if err != nil {
			return keys.PublicKey{}, err
		}
		return priv.Public(), nil
	}
	pub, err := keys.ParsePublicKeyBase58(base58)
	if err != nil {
		return keys.PublicKey{}, fmt.Errorf("abi: publicKey: %w", err)
	}
	return pub, nil
}
