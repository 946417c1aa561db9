package abi

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/jsontext"
	"github.com/didlight/didlight/core/keys"
)

// ValidateOperationInput is the input of validate_operation.
type ValidateOperationInput struct {
	Operation json.RawMessage `json:"operation"` // the request {header, payload, proof}
	// State is what the chain holds about the DID before the operation;
	// absent when the DID does not exist.
	State *State `json:"state,omitempty"`
	// Now is the time of the block that carries the operation; absent, the
	// expiry of the published document is not checked.
	Now time.Time `json:"now,omitzero"`
	// Detached checks a create or update whose predecessor is unknown, as
	// a light client checks the oldest transaction it has (no State).
	Detached  bool              `json:"detached,omitempty"`
	Documents []json.RawMessage `json:"documents,omitempty"`
}

func (*ValidateOperationInput) typeName() string { return "abi.ValidateOperationInput" }

func (in *ValidateOperationInput) member(d *decoder) bool {
	switch {
	case d.field("operation"):
		d.raw(&in.Operation)
	case d.field("state"):
		if d.null() {
			in.State = nil
			break
		}
		if in.State == nil {
			in.State = new(State)
		}
		d.object(in.State)
	case d.field("now"):
		d.time(&in.Now)
	case d.field("detached"):
		d.boolean(&in.Detached)
	case d.field("documents"):
		d.raws(&in.Documents)
	default:
		return false
	}
	return true
}

// State is a DID's state before an operation (idop.State).
type State struct {
	Document    json.RawMessage `json:"document"` // the latest document
	Txid        string          `json:"txid"`     // the transaction of the last operation
	Deactivated bool            `json:"deactivated,omitempty"`
}

func (*State) typeName() string { return "abi.State" }

func (s *State) member(d *decoder) bool {
	switch {
	case d.field("document"):
		d.raw(&s.Document)
	case d.field("txid"):
		d.str(&s.Txid)
	case d.field("deactivated"):
		d.boolean(&s.Deactivated)
	default:
		return false
	}
	return true
}

// ValidatedOperation is the output of validate_operation.
type ValidatedOperation struct {
	DID       string `json:"did"`       // the DID the operation changes
	Operation string `json:"operation"` // create, update, transfer, deactivate
	Method    string `json:"method"`    // the signing key, in full form
}

func (v ValidatedOperation) appendJSON(b []byte) []byte {
	o := jsontext.NewObject(b, jsontext.Std)
	o.String("did", v.DID)
	o.String("operation", v.Operation)
	o.String("method", v.Method)
	return o.End()
}

// ValidateOperation runs validate_operation: idop.Decode, then
// idop.Validate (or idop.ValidateDetached).
func ValidateOperation(in []byte, env Env) []byte { return run(in, env, validateOperation) }

func validateOperation(in *ValidateOperationInput, env Env) (ValidatedOperation, error) {
	if err := required("operation", len(in.Operation) == 0); err != nil {
		return ValidatedOperation{}, err
	}
	if in.Detached && in.State != nil {
		return ValidatedOperation{}, inputError("a detached operation has no state")
	}
	r, err := idop.ParseRequest(in.Operation)
	if err != nil {
		return ValidatedOperation{}, err
	}
	op, err := idop.Decode(r)
	if err != nil {
		return ValidatedOperation{}, err
	}
	st, err := state(in.State)
	if err != nil {
		return ValidatedOperation{}, err
	}
	docs, err := env.lookup(in.Documents)
	if err != nil {
		return ValidatedOperation{}, err
	}
	if in.Detached {
		err = idop.ValidateDetached(op, docs, env.verifier(), in.Now)
	} else {
		err = idop.Validate(op, st, docs, env.verifier(), in.Now)
	}
	if err != nil {
		return ValidatedOperation{}, err
	}
	return ValidatedOperation{DID: op.DID.String(), Operation: r.Header.Operation, Method: op.Method.String()}, nil
}

func state(s *State) (*idop.State, error) {
	if s == nil {
		return nil, nil
	}
	doc, err := document("state.document", s.Document)
	if err != nil {
		return nil, err
	}
	return &idop.State{Document: doc, Txid: s.Txid, Deactivated: s.Deactivated}, nil
}

// SignDocumentInput is the input of sign_document.
type SignDocumentInput struct {
	Document json.RawMessage `json:"document"`
	Key      string          `json:"key"` // see SignOperationInput.Key
	// Method is the signing key: absent, the document's default key; for a
	// customized DID, a controller's default key.
	Method  string    `json:"method,omitempty"`
	Created time.Time `json:"created"` // the proof's date
}

func (*SignDocumentInput) typeName() string { return "abi.SignDocumentInput" }

func (in *SignDocumentInput) member(d *decoder) bool {
	switch {
	case d.field("document"):
		d.raw(&in.Document)
	case d.field("key"):
		d.str(&in.Key)
	case d.field("method"):
		d.str(&in.Method)
	case d.field("created"):
		d.time(&in.Created)
	default:
		return false
	}
	return true
}

// SignedDocument is the output of sign_document.
type SignedDocument struct {
	Document json.RawMessage `json:"document"` // normalized, with the new proof
}

func (s SignedDocument) appendJSON(b []byte) []byte {
	o := jsontext.NewObject(b, jsontext.Std)
	o.Raw("document", s.Document)
	return o.End()
}

// SignDocument runs sign_document: did.Document.Sign.
func SignDocument(in []byte, env Env) []byte { return run(in, env, signDocument) }

func signDocument(in *SignDocumentInput, _ Env) (SignedDocument, error) {
	if err := required("created", in.Created.IsZero()); err != nil {
		return SignedDocument{}, err
	}
	doc, err := document("document", in.Document)
	if err != nil {
		return SignedDocument{}, err
	}
	priv, method, err := signer(in.Key, in.Method, doc)
	if err != nil {
		return SignedDocument{}, err
	}
	if doc, err = doc.Sign(priv, method, in.Created); err != nil {
		return SignedDocument{}, err
	}
	return SignedDocument{Document: doc.Normalized()}, nil
}

// SignOperationInput is the input of sign_operation.
type SignOperationInput struct {
	Operation string `json:"operation"` // create, update or deactivate
	// Document is the document a create or update publishes, with its
	// proofs (see sign_document).
	Document     json.RawMessage `json:"document,omitempty"`
	PreviousTxid string          `json:"previousTxid,omitempty"` // update: the DID's last transaction
	DID          string          `json:"did,omitempty"`          // deactivate: the DID to deactivate
	// Key is the private key: a BIP32 extended private key ("xprv…", as
	// the SDKs export keys) or the 32-byte scalar in hex.
	Key string `json:"key"`
	// Method is the signing key's id, full or relative to the DID
	// ("#primary"); absent, the document's default key.
	Method string `json:"method,omitempty"`
}

func (*SignOperationInput) typeName() string { return "abi.SignOperationInput" }

func (in *SignOperationInput) member(d *decoder) bool {
	switch {
	case d.field("operation"):
		d.str(&in.Operation)
	case d.field("document"):
		d.raw(&in.Document)
	case d.field("previousTxid"):
		d.str(&in.PreviousTxid)
	case d.field("did"):
		d.str(&in.DID)
	case d.field("key"):
		d.str(&in.Key)
	case d.field("method"):
		d.str(&in.Method)
	default:
		return false
	}
	return true
}

// SignedOperation is the output of sign_operation.
type SignedOperation struct {
	Request json.RawMessage `json:"request"` // {header, payload, proof}
}

func (s SignedOperation) appendJSON(b []byte) []byte {
	o := jsontext.NewObject(b, jsontext.Std)
	o.Raw("request", s.Request)
	return o.End()
}

// SignOperation runs sign_operation: idop.NewCreate, NewUpdate or
// NewDeactivate.
func SignOperation(in []byte, env Env) []byte { return run(in, env, signOperation) }

func signOperation(in *SignOperationInput, _ Env) (SignedOperation, error) {
	var r idop.Request
	switch in.Operation {
	case idop.Create, idop.Update:
		if err := required("previousTxid", in.Operation == idop.Update && in.PreviousTxid == ""); err != nil {
			return SignedOperation{}, err
		}
		if in.DID != "" || in.Operation == idop.Create && in.PreviousTxid != "" {
			return SignedOperation{}, inputError("a %s takes a document, not did or previousTxid", in.Operation)
		}
		doc, err := document("document", in.Document)
		if err != nil {
			return SignedOperation{}, err
		}
		priv, method, err := signer(in.Key, in.Method, doc)
		if err != nil {
			return SignedOperation{}, err
		}
		if in.Operation == idop.Create {
			r, err = idop.NewCreate(doc, method, priv)
		} else {
			r, err = idop.NewUpdate(doc, in.PreviousTxid, method, priv)
		}
		if err != nil {
			return SignedOperation{}, err
		}
	case idop.Deactivate:
		if len(in.Document) > 0 || in.PreviousTxid != "" {
			return SignedOperation{}, inputError("a deactivate takes did, not a document or previousTxid")
		}
		target, err := did.Parse(in.DID)
		if err != nil {
			return SignedOperation{}, fmt.Errorf("abi: did: %w", err)
		}
		priv, err := privateKey(in.Key)
		if err != nil {
			return SignedOperation{}, err
		}
		method, err := methodURL(in.Method, target)
		if err != nil {
			return SignedOperation{}, err
		}
		if r, err = idop.NewDeactivate(target, method, priv); err != nil {
			return SignedOperation{}, err
		}
	default:
		return SignedOperation{}, inputError("operation %q: want create, update or deactivate", in.Operation)
	}
	return SignedOperation{Request: r.AppendJSON(nil)}, nil
}

// signer reads the private key and the signing key's id for doc: the given
// method, or the document's default key.
func signer(key, method string, doc *did.Document) (*keys.PrivateKey, did.URL, error) {
	priv, err := privateKey(key)
	if err != nil {
		return nil, did.URL{}, err
	}
	if method == "" {
		def, ok := doc.DefaultKey()
		if !ok {
			return nil, did.URL{}, inputError("method is required: %s has no default key", doc.Subject())
		}
		return priv, def.ID, nil
	}
	u, err := methodURL(method, doc.Subject())
	return priv, u, err
}

func methodURL(method string, base did.DID) (did.URL, error) {
	if err := required("method", method == ""); err != nil {
		return did.URL{}, err
	}
	u, err := did.ParseURL(method, base)
	if err != nil {
		return did.URL{}, inputError("method: %v", err)
	}
	return u, nil
}

// privateKey reads a private key as an extended key or a hex scalar.
// Errors never quote the key.
func privateKey(s string) (*keys.PrivateKey, error) {
	if err := required("key", s == ""); err != nil {
		return nil, err
	}
	if strings.HasPrefix(s, "xprv") {
		k, err := keys.ParseExtendedPrivateKey(s)
		if err != nil {
			return nil, inputError("key: %v", err)
		}
		return k, nil
	}
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != keys.PrivateKeySize {
		return nil, inputError("key: want an extended private key (xprv…) or %d hex digits", 2*keys.PrivateKeySize)
	}
	k, err := keys.NewPrivateKey(b)
	if err != nil {
		return nil, inputError("key: %v", err)
	}
	return k, nil
}
