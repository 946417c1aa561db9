package idop

import (
	"encoding/base64"
	"fmt"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/keys"
)

// NewCreate returns a create request publishing doc, signed with priv as the
// document's authentication key method (usually its default key).
func NewCreate(doc *did.Document, method did.URL, priv *keys.PrivateKey) (Request, error) {
	return newDocumentRequest(Create, "", doc, method, priv)
}

// NewUpdate returns an update request publishing doc after the DID's last
// transaction previousTxid, signed with priv as method, an authentication
// key of the current document.
func NewUpdate(doc *did.Document, previousTxid string, method did.URL, priv *keys.PrivateKey) (Request, error) {
	return newDocumentRequest(Update, previousTxid, doc, method, priv)
}

// NewTransfer returns a transfer request publishing doc, the new document
// of a customized DID, with ticket (signed by the DID's current
// controllers), signed with priv as method: an authentication key of doc or
// of one of its controllers, usually the new owner's default key.
func NewTransfer(doc *did.Document, ticket *did.TransferTicket, method did.URL, priv *keys.PrivateKey) (Request, error) {
	r := Request{
		Header:  Header{Specification: SpecDID, Operation: Transfer, Ticket: base64.RawURLEncoding.EncodeToString(ticket.Normalized())},
		Payload: base64.RawURLEncoding.EncodeToString(doc.Normalized()),
	}
	return sign(r, method, priv)
}

// NewDeclare returns a request declaring the credential c, signed with priv
// as method: an authentication key of its owner (its subject), or of a
// controller of a customized owner.
func NewDeclare(c *did.Credential, method did.URL, priv *keys.PrivateKey) (Request, error) {
	r := Request{
		Header:  Header{Specification: SpecCredential, Operation: Declare},
		Payload: base64.RawURLEncoding.EncodeToString(c.Normalized()),
	}
	return sign(r, method, priv)
}

// NewRevoke returns a request revoking the credential id, signed with priv
// as method: an authentication key of the revoker (the owner, the issuer,
// a controller of either, or anyone before the credential is declared).
func NewRevoke(id did.URL, method did.URL, priv *keys.PrivateKey) (Request, error) {
	r := Request{
		Header:  Header{Specification: SpecCredential, Operation: Revoke},
		Payload: id.String(),
	}
	return sign(r, method, priv)
}

// NewDeactivate returns a request deactivating target, signed with priv as
// method: an authentication key of target, an authorization key it lists,
// or a controller's key.
func NewDeactivate(target did.DID, method did.URL, priv *keys.PrivateKey) (Request, error) {
	r := Request{
		Header:  Header{Specification: SpecDID, Operation: Deactivate},
		Payload: target.String(),
	}
	return sign(r, method, priv)
}

func newDocumentRequest(operation, previousTxid string, doc *did.Document, method did.URL, priv *keys.PrivateKey) (Request, error) {
	if k, ok := doc.PublicKey(method); ok && k.PublicKeyBase58 != priv.Public().Base58() {
		return Request{}, fmt.Errorf("idop: the private key is not that of %s", method)
	}
	r := Request{
		Header:  Header{Specification: SpecDID, Operation: operation, PreviousTxid: previousTxid},
		Payload: base64.RawURLEncoding.EncodeToString(doc.Normalized()),
	}
	return sign(r, method, priv)
}

// sign fills in the proof, as the SDKs write it: the full key id and a
// base64url signature.
func sign(r Request, method did.URL, priv *keys.PrivateKey) (Request, error) {
	r.Proof = Proof{Type: did.DefaultKeyType, VerificationMethod: method.String(), Signature: "-"}
	if err := r.Check(); err != nil {
		return Request{}, err
	}
	r.Proof.Signature = priv.Sign(r.Digest()).Text()
	return r, nil
}
