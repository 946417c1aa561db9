package did

import (
	"crypto/sha256"
	"slices"
	"strings"
	"time"

	"github.com/didlight/didlight/core/did/sdkjson"
	"github.com/didlight/didlight/core/excerpt"
	"github.com/didlight/didlight/core/keys"
)

// TransferTicket is the consent of a customized DID's controllers that the
// DID passes to a new owner: the DID (id), the new owner (to), the DID's last
// transaction (txid) and the proofs of as many current controllers as the
// DID's multisig rule requires, each by a controller's default key (from
// Elastos.DID.JS.SDK src/transferticket.ts). A transfer request carries it,
// base64url-encoded, in its header.
type TransferTicket struct {
	Subject DID    // id: the customized DID being transferred
	To      DID    // the new owner
	Txid    string // the last transaction of Subject when the ticket was made
	Proofs  []TicketProof
}

// TicketProof is a controller's signature over a ticket's id, to and txid.
type TicketProof struct {
	Type               string
	Created            time.Time // zero when the proof does not say
	VerificationMethod URL       // the controller's default key
	Signature          string
}

// NewTransferTicket returns an unsigned ticket passing subject to to after
// its last transaction txid. Sign it with Sign.
func NewTransferTicket(subject, to DID, txid string) *TransferTicket {
	return &TransferTicket{Subject: subject, To: to, Txid: txid}
}

// ParseTransferTicket reads a ticket as the SDKs write it: id, to and txid
// (all required), and proof, one object or an array of them, each with a
// verificationMethod (relative ones are resolved against id) and a
// signature. Two proofs by keys of one DID are refused, as by the SDKs.
// Errors match [ErrMalformed].
func ParseTransferTicket(b []byte) (*TransferTicket, error) {
	d := sdkjson.NewDecoder(b)
	if d.Kind() != sdkjson.Object {
		return nil, errorf(ErrMalformed, "a transfer ticket must be a JSON object")
	}
	var id, to string
	t := &TransferTicket{}
	var raws []*rawCredentialProof
	for m := d.Object(); m.Next(); {
		if d.Null() {
			continue
		}
		switch m.Key() {
		case "id":
			id = d.Str()
		case "to":
			to = d.Str()
		case "txid":
			t.Txid = d.Str()
		case "proof":
			raws = readTicketProofs(d)
		default:
			d.Skip()
		}
	}
	if err := d.Finish(); err != nil {
		return nil, wrap(ErrMalformed, err, "transfer ticket")
	}
	if err := t.build(id, to, raws); err != nil {
		return nil, err
	}
	return t, nil
}

// readTicketProofs reads one proof object or an array of them; they have
// the members of a credential proof.
func readTicketProofs(d *sdkjson.Decoder) []*rawCredentialProof {
	if d.Kind() == sdkjson.Object {
		return []*rawCredentialProof{readCredentialProof(d)}
	}
	var ps []*rawCredentialProof
	for e := d.Array(); e.Next(); {
		ps = append(ps, readCredentialProof(d))
	}
	return ps
}

func (t *TransferTicket) build(id, to string, raws []*rawCredentialProof) error {
	var err error
	if t.Subject, err = parseFull(id); err != nil {
		return wrap(ErrMalformed, err, "transfer ticket id")
	}
	if t.To, err = parseFull(to); err != nil {
		return wrap(ErrMalformed, err, "transfer ticket %s: to", t.Subject)
	}
	if t.Txid == "" {
		return errorf(ErrMalformed, "transfer ticket %s has no txid", t.Subject)
	}
	if len(raws) == 0 {
		return errorf(ErrMalformed, "transfer ticket %s has no proof", t.Subject)
	}
	signers := seenFor[DID](len(raws))
	for _, raw := range raws {
		p, err := raw.ticketProof(t.Subject)
		if err != nil {
			return err
		}
		if signers.add(p.VerificationMethod.DID) {
			return errorf(ErrMalformed, "transfer ticket %s: two proofs by %s", t.Subject, p.VerificationMethod.DID)
		}
		t.Proofs = append(t.Proofs, p)
	}
	slices.SortFunc(t.Proofs, compareTicketProofs)
	return nil
}

func (raw *rawCredentialProof) ticketProof(subject DID) (TicketProof, error) {
	p := TicketProof{Type: raw.typ, Signature: raw.signature}
	if p.Type == "" {
		p.Type = DefaultKeyType
	}
	if raw.method == "" || p.Signature == "" {
		return p, errorf(ErrMalformed, "transfer ticket %s: a proof needs verificationMethod and signature", subject)
	}
	var err error
	if p.VerificationMethod, err = parseRef(raw.method, subject); err != nil {
		return p, wrap(ErrMalformed, err, "transfer ticket %s: proof", subject)
	}
	if raw.created != "" {
		if p.Created, err = parseTime(raw.created); err != nil {
			return p, wrap(ErrMalformed, err, "transfer ticket %s: proof created", subject)
		}
	}
	return p, nil
}

// compareTicketProofs orders proofs by the DID of their key, as the SDKs
// keep them (a map keyed by DID, written sorted).
func compareTicketProofs(a, b TicketProof) int {
	return strings.Compare(a.VerificationMethod.DID.id, b.VerificationMethod.DID.id)
}

// Normalized returns the ticket as the SDKs serialize it into a transfer
// request: id, to, txid, then the proof, an object when there is one and an
// array otherwise, each with its type, created (when set), full
// verificationMethod and signature.
func (t *TransferTicket) Normalized() []byte {
	w := t.appendData()
	if len(t.Proofs) > 0 {
		writeProofs(w, t.Proofs, w.ticketProof)
	}
	return append(w.dst, '}')
}

// signingInput returns what a ticket proof signs: the ticket without its
// proofs, {"id":…,"to":…,"txid":…} (the SDK's serialize(true) of the ticket
// without proofs; Elastos.ELA.SideChain.EID core/vm/did/payload.go,
// CustomIDTicketData.GetData).
func (t *TransferTicket) signingInput() []byte {
	w := t.appendData()
	return append(w.dst, '}')
}

// appendData starts the ticket's object with its id, to and txid.
func (t *TransferTicket) appendData() *writer {
	w := &writer{dst: make([]byte, 0, 256+200*len(t.Proofs))}
	w.dst = append(w.dst, '{')
	w.key("id")
	w.did(t.Subject)
	w.key("to")
	w.did(t.To)
	w.key("txid")
	w.str(t.Txid)
	return w
}

func (w *writer) ticketProof(p TicketProof) {
	w.proofObject(p.Type, p.Created, "verificationMethod", p.VerificationMethod, false, "signature", p.Signature)
}

// Sign returns a copy of the ticket with a proof by priv as method, the
// default key of a controller of the DID, dated created (whole seconds,
// UTC). Signing again as the same controller replaces its proof.
func (t *TransferTicket) Sign(priv *keys.PrivateKey, method URL, created time.Time) *TransferTicket {
	signed := *t
	signed.Proofs = slices.DeleteFunc(slices.Clone(t.Proofs), func(p TicketProof) bool { return p.VerificationMethod.DID == method.DID })
	sig := priv.Sign(sha256.Sum256(t.signingInput()))
	signed.Proofs = append(signed.Proofs, TicketProof{
		Type:               DefaultKeyType,
		Created:            created.UTC().Truncate(time.Second),
		VerificationMethod: method,
		Signature:          sig.Text(),
	})
	slices.SortFunc(signed.Proofs, compareTicketProofs)
	return &signed
}

// VerifyProofs checks that the ticket carries the consent of the current
// controllers of the DID whose current document is doc: doc is a
// customized DID's and the ticket's subject; there are exactly as many
// proofs as doc requires (m of its multisig rule, else one), each of the
// default key type and by the default key of a distinct controller of doc
// (looked up in docs), each a valid signature over the ticket's id, to and
// txid (Elastos.DID.JS.SDK src/transferticket.ts, isGenuine; EID
// core/vm/didvalidator.go, checkCustomIDTicketProof). Whether txid names
// the DID's last transaction is the caller's check. Errors match [ErrProof],
// or [ErrNoDocument] when a controller's document is missing.
func (t *TransferTicket) VerifyProofs(doc *Document, docs Lookup, v keys.Verifier) error {
	switch {
	case !doc.IsCustomized():
		return errorf(ErrProof, "transfer ticket: %s is not a customized DID", doc.subject)
	case t.Subject != doc.subject:
		return errorf(ErrProof, "transfer ticket of %s checked against the document of %s", t.Subject, doc.subject)
	case len(t.Proofs) != doc.RequiredProofs():
		return errorf(ErrProof, "transfer ticket of %s: %d proofs, want %d", t.Subject, len(t.Proofs), doc.RequiredProofs())
	}
	digest := keys.Digest(v, t.signingInput())
	for _, p := range t.Proofs {
		if p.Type != DefaultKeyType {
			return errorf(ErrProof, "transfer ticket of %s: proof by %s has type %s, want %q", t.Subject, p.VerificationMethod, excerpt.Quote(p.Type), DefaultKeyType)
		}
		key, err := doc.proofKey(p.VerificationMethod, docs)
		if err != nil {
			return err
		}
		if err := verify(v, key, digest, p.Signature); err != nil {
			return wrap(ErrProof, err, "transfer ticket of %s: proof by %s", t.Subject, p.VerificationMethod)
		}
	}
	return nil
}
