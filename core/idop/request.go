package idop

import (
	"crypto/sha256"
	"fmt"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/did/sdkjson"
	"github.com/didlight/didlight/core/excerpt"
	"github.com/didlight/didlight/core/jsontext"
)

// Specifications of requests.
const (
	SpecDID        = "elastos/did/1.0"
	SpecCredential = "elastos/credential/1.0"
)

// Operations, the header's operation member.
const (
	Create     = "create"
	Update     = "update"
	Transfer   = "transfer"
	Deactivate = "deactivate"
	Declare    = "declare"
	Revoke     = "revoke"
)

// Request is an identity-chain request as it travels: the JSON object
// {header, payload, proof} and, field for field, the ledger payload.
type Request struct {
	Header  Header
	Payload string // base64url document or credential; the DID (deactivate); the credential id (revoke)
	Proof   Proof
}

// Header says what the request does.
type Header struct {
	Specification string
	Operation     string
	PreviousTxid  string // update only: the DID's last transaction
	Ticket        string // transfer only: base64url transfer ticket
}

// Proof is the request's signature.
type Proof struct {
	Type               string // empty means ECDSAsecp256r1
	VerificationMethod string // the signing key, a DID URL, possibly relative ("#primary")
	Signature          string // r‖s, base64url (standard base64 accepted)
}

// ParseRequest reads a request from JSON. Unknown members are ignored and a
// JSON null counts as absent. The shape is checked as by Check.
func ParseRequest(b []byte) (Request, error) {
	var r Request
	d := sdkjson.NewDecoder(b)
	for m := d.Object(); m.Next(); {
		if d.Null() {
			continue
		}
		switch m.Key() {
		case "header":
			r.Header = readHeader(d)
		case "payload":
			r.Payload = d.Str()
		case "proof":
			r.Proof = readProof(d)
		default:
			d.Skip()
		}
	}
	if err := d.Finish(); err != nil {
		return Request{}, broken(RuleMalformed, err)
	}
	return r, r.Check()
}

func readHeader(d *sdkjson.Decoder) Header {
	var h Header
	d.Fields(sdkjson.Field{Key: "specification", Dst: &h.Specification}, sdkjson.Field{Key: "operation", Dst: &h.Operation},
		sdkjson.Field{Key: "previousTxid", Dst: &h.PreviousTxid}, sdkjson.Field{Key: "ticket", Dst: &h.Ticket})
	return h
}

func readProof(d *sdkjson.Decoder) Proof {
	var p Proof
	d.Fields(sdkjson.Field{Key: "type", Dst: &p.Type}, sdkjson.Field{Key: "verificationMethod", Dst: &p.VerificationMethod},
		sdkjson.Field{Key: "signature", Dst: &p.Signature})
	return p
}

// Check checks the request's shape: a known specification and operation,
// previousTxid (64 hex digits) exactly for update, a ticket exactly for
// transfer (the ledger encoding carries them for those operations only), a
// payload, and a proof with a verification method and a signature.
func (r Request) Check() error {
	h := r.Header
	switch h.Specification {
	case SpecDID:
		switch h.Operation {
		case Create, Update, Transfer, Deactivate:
		default:
			return malformed("operation %s is not one of %s's create, update, transfer, deactivate", excerpt.Quote(h.Operation), SpecDID)
		}
	case SpecCredential:
		if h.Operation != Declare && h.Operation != Revoke {
			return malformed("operation %s is not one of %s's declare, revoke", excerpt.Quote(h.Operation), SpecCredential)
		}
	default:
		return malformed("specification %s, want %q or %q", excerpt.Quote(h.Specification), SpecDID, SpecCredential)
	}
	switch {
	case h.Operation == Update && !isTxid(h.PreviousTxid):
		return malformed("update needs previousTxid as 64 hex digits, got %s", excerpt.Quote(h.PreviousTxid))
	case h.Operation != Update && h.PreviousTxid != "":
		return malformed("previousTxid is only for update, not %s", h.Operation)
	case h.Operation == Transfer && h.Ticket == "":
		return malformed("transfer needs a ticket")
	case h.Operation != Transfer && h.Ticket != "":
		return malformed("a ticket is only for transfer, not %s", h.Operation)
	case r.Payload == "":
		return malformed("no payload")
	case r.Proof.VerificationMethod == "" || r.Proof.Signature == "":
		return malformed("proof needs verificationMethod and signature")
	case r.Proof.Type != "" && r.Proof.Type != did.DefaultKeyType:
		return malformed("proof type %s, want %q", excerpt.Quote(r.Proof.Type), did.DefaultKeyType)
	}
	return nil
}

func malformed(format string, args ...any) *RuleError {
	return broken(RuleMalformed, fmt.Errorf(format, args...))
}

func isTxid(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// SigningInput returns what the request's signature signs:
// specification ‖ operation ‖ previousTxid (update) ‖ ticket (transfer) ‖ payload.
func (r Request) SigningInput() []byte { return r.appendSigningInput(nil) }

// Digest returns SHA-256 of the signing input.
func (r Request) Digest() [32]byte {
	var buf [2048]byte // most requests fit: no garbage for the collector
	return sha256.Sum256(r.appendSigningInput(buf[:0]))
}

func (r Request) appendSigningInput(dst []byte) []byte {
	for _, part := range r.signed() {
		dst = append(dst, part...)
	}
	return dst
}

// signed returns the parts of the signing input.
func (r Request) signed() [5]string {
	h := r.Header
	parts := [5]string{h.Specification, h.Operation, "", "", r.Payload}
	switch h.Operation {
	case Update:
		parts[2] = h.PreviousTxid
	case Transfer:
		parts[3] = h.Ticket
	}
	return parts
}

// MarshalJSON writes the request as the SDKs do: header (specification,
// operation, then previousTxid and ticket when set), payload, proof (type
// when set, verificationMethod, signature).
func (r Request) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil), nil }

// AppendJSON appends the JSON form of the request to dst.
func (r Request) AppendJSON(dst []byte) []byte {
	h, p := r.Header, r.Proof
	dst = append(dst, `{"header":{"specification":`...)
	dst = jsontext.JS.AppendString(dst, h.Specification)
	dst = append(dst, `,"operation":`...)
	dst = jsontext.JS.AppendString(dst, h.Operation)
	if h.PreviousTxid != "" {
		dst = append(dst, `,"previousTxid":`...)
		dst = jsontext.JS.AppendString(dst, h.PreviousTxid)
	}
	if h.Ticket != "" {
		dst = append(dst, `,"ticket":`...)
		dst = jsontext.JS.AppendString(dst, h.Ticket)
	}
	dst = append(dst, `},"payload":`...)
	dst = jsontext.JS.AppendString(dst, r.Payload)
	dst = append(dst, `,"proof":{`...)
	if p.Type != "" {
		dst = append(dst, `"type":`...)
		dst = jsontext.JS.AppendString(dst, p.Type)
		dst = append(dst, ',')
	}
	dst = append(dst, `"verificationMethod":`...)
	dst = jsontext.JS.AppendString(dst, p.VerificationMethod)
	dst = append(dst, `,"signature":`...)
	dst = jsontext.JS.AppendString(dst, p.Signature)
	return append(dst, "}}"...)
}
