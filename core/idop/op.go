package idop

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/excerpt"
	"github.com/didlight/didlight/core/keys"
)

// Op is a decoded request: what it is about and who signed it.
type Op struct {
	Request Request

	// DID is the DID the operation changes: the document's subject, or the
	// payload of a deactivate. For credential operations, the DID of the
	// credential's id.
	DID did.DID

	// Document is the document a create, update or transfer publishes.
	Document *did.Document

	// Ticket is the transfer ticket of a transfer, decoded from the header.
	Ticket *did.TransferTicket

	// Credential is the credential a declare publishes; CredentialID the
	// credential a declare or revoke is about.
	Credential   *did.Credential
	CredentialID did.URL

	// Method is the signing key, relative references resolved against DID,
	// and Signature the decoded signature.
	Method    did.URL
	Signature keys.Signature

	// subject is what Subject returns, found once by Decode: telling a
	// standard DID's key from a customized one's decodes its base58check
	// id, and the mempool asks at every step of an operation's way.
	subject string

	// signed keeps the request's Digest once checkSignature hashed it: the
	// chain checks an operation when it arrives and again in its block.
	signed *signedDigest
}

// signedDigest is an Op's request digest, hashed on first use.
type signedDigest struct {
	once   sync.Once
	digest [32]byte
}

// Decode checks the request's shape and decodes its payload and proof.
// Errors are *RuleError: [RuleMalformed], [RuleSignature] (a signature that is
// not 64 bytes of base64), or for the document a create or update carries
// [RuleExpiresFormat] or [RuleDefaultKey].
func Decode(r Request) (*Op, error) {
	if err := r.Check(); err != nil {
		return nil, err
	}
	op := &Op{Request: r}
	var err error
	switch r.Header.Operation {
	case Create, Update:
		err = op.decodeDocument()
	case Transfer:
		if err = op.decodeDocument(); err == nil {
			err = op.decodeTicket()
		}
	case Deactivate:
		op.DID, err = parseFullDID(r.Payload)
	case Declare:
		err = op.decodeCredential()
	case Revoke:
		op.CredentialID, err = did.ParseCredentialID(r.Payload)
		op.DID = op.CredentialID.DID
		if err != nil {
			err = fmt.Errorf("revoke payload: %w", err)
		}
	}
	if err != nil {
		return nil, asRule(err)
	}
	if op.Method, err = did.ParseURL(r.Proof.VerificationMethod, op.DID); err != nil {
		return nil, malformed("proof verificationMethod: %v", err)
	}
	if op.Signature, err = keys.ParseSignatureText(r.Proof.Signature); err != nil {
		return nil, broken(RuleSignature, err)
	}
	op.subject = op.subjectKey()
	op.signed = new(signedDigest)
	return op, nil
}

func (op *Op) decodeDocument() error {
	var buf [4096]byte // most documents fit: ParseDocument copies what it keeps
	b, err := decodePayload(buf[:0], op.Request.Payload)
	if err != nil {
		return err
	}
	if op.Document, err = did.ParseDocument(b); err != nil {
		return err
	}
	op.DID = op.Document.Subject()
	return nil
}

// decodeTicket decodes the base64url ticket of a transfer's header.
func (op *Op) decodeTicket() error {
	b, err := decodePayload(nil, op.Request.Header.Ticket)
	if err != nil {
		return fmt.Errorf("ticket: %w", err)
	}
	op.Ticket, err = did.ParseTransferTicket(b)
	return err
}

// decodeCredential decodes a declared credential. It must lie under its
// subject's DID (Elastos.DID.JS.SDK src/verifiablecredential.ts, isGenuine)
// and say when it expires (Elastos.ELA.SideChain.EID core/vm/didvalidator.go,
// checkCredentialTX parses expirationDate).
func (op *Op) decodeCredential() error {
	b, err := decodePayload(nil, op.Request.Payload)
	if err != nil {
		return err
	}
	c, err := did.ParseCredential(b)
	switch {
	case err != nil:
		return err
	case c.ID.DID != c.Subject:
		return fmt.Errorf("credential %s is not under its subject %s", c.ID, c.Subject)
	case c.ExpirationDate.IsZero():
		return fmt.Errorf("credential %s has no expirationDate, which a declare needs", c.ID)
	}
	op.Credential, op.CredentialID, op.DID = c, c.ID, c.ID.DID
	return nil
}

// decodePayload appends the decoded base64 payload s to dst: base64url
// without padding as the SDKs write it, in one pass, or else any form
// [keys.DecodeBase64] accepts.
func decodePayload(dst []byte, s string) ([]byte, error) {
	enc := base64.RawURLEncoding
	if n := enc.DecodedLen(len(s)); cap(dst)-len(dst) >= n {
		if m, err := enc.Decode(dst[len(dst):len(dst)+n], []byte(s)); err == nil {
			return dst[:len(dst)+m], nil
		}
	}
	b, err := keys.DecodeBase64(s)
	if err != nil {
		return nil, fmt.Errorf("payload is not base64: %w", err)
	}
	return append(dst, b...), nil
}

// parseFullDID reads the payload of a deactivate: a DID in full form.
func parseFullDID(s string) (did.DID, error) {
	if !strings.HasPrefix(s, "did:") {
		return did.DID{}, fmt.Errorf("deactivate payload %s is not a DID in full form", excerpt.Quote(s))
	}
	return did.Parse(s)
}

// asRule maps an error from decoding a payload to the rule it breaks.
func asRule(err error) *RuleError {
	switch {
	case errors.Is(err, did.ErrExpires):
		return broken(RuleExpiresFormat, err)
	case errors.Is(err, did.ErrDefaultKey):
		return broken(RuleDefaultKey, err)
	}
	return broken(RuleMalformed, err)
}

// Subject returns the key of what the operation changes, which at most one
// pending operation may change at a time (ledger.Pool): the DID's key
// ([did.DID.Key]) for a DID operation, the credential id's ([did.URL.Key]) for
// a credential one. For an Op Decode made, it was found then.
func (op *Op) Subject() string {
	if op.subject != "" {
		return op.subject
	}
	return op.subjectKey()
}

func (op *Op) subjectKey() string {
	if op.Request.Header.Specification == SpecCredential {
		return op.CredentialID.Key()
	}
	return op.DID.Key()
}
