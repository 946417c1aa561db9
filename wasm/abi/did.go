package abi

import (
	"encoding/json"

	"didlight/core/did"
)

// ParseDIDInput is the input of parse_did.
type ParseDIDInput struct {
	DID string `json:"did"` // full (did:elastos:…) or bare
}

// ParsedDID is the output of parse_did.
type ParsedDID struct {
	DID        string `json:"did"` // full form
	ID         string `json:"id"`  // the method-specific id
	Customized bool   `json:"customized"`
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

// ParsedDocument is the output of parse_document.
type ParsedDocument struct {
	DID        string          `json:"did"`
	Expires    string          `json:"expires"`
	Customized bool            `json:"customized"`
	Document   json.RawMessage `json:"document"` // normalized form
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
