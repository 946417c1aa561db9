package ela

// Operation is the payload of a [TxDIDOperation] transaction: an identity-chain
// request (a DID or credential operation) as the ledger stores it. It is a
// plain wire struct; package idop gives it meaning, and the node converts
// between the two by copying fields. Its JSON form is the request JSON the
// chain's APIs show: {"header":{...},"payload":"...","proof":{...}}.
//
// On the wire every field is a varstring, in order: specification,
// operation, previousTxid (only when the operation is "update"), ticket
// (only for "transfer"), payload, then proof type, verificationMethod and
// signature (Elastos.ELA.SideChain.EID core/vm/did/payload.go,
// Header.Serialize and DIDPayload.Serialize). A PreviousTxid or Ticket set
// for another operation is not written, as on the chain.
type Operation struct {
	Header  OperationHeader `json:"header"`
	Payload string          `json:"payload"`
	Proof   OperationProof  `json:"proof"`
}

// OperationHeader is the header of an Operation.
type OperationHeader struct {
	Specification string `json:"specification"`
	Operation     string `json:"operation"`
	PreviousTxid  string `json:"previousTxid,omitempty"`
	Ticket        string `json:"ticket,omitempty"`
}

// OperationProof is the proof of an Operation.
type OperationProof struct {
	Type               string `json:"type,omitempty"`
	VerificationMethod string `json:"verificationMethod"`
	Signature          string `json:"signature"`
}

// The operations whose header carries an extra field.
const (
	opUpdate   = "update"
	opTransfer = "transfer"
)

// TxType implements Payload.
func (*Operation) TxType() TxType { return TxDIDOperation }

// ParseOperation decodes an Operation on its own, as EID keeps one in a
// receipt's DID log (Elastos.ELA.SideChain.EID core/types/didlog.go, Data:
// DIDPayload.Serialize). Like ParseTx it rejects truncated input, trailing
// bytes, non-canonical varints, oversized fields and text that is not
// UTF-8, with a *DecodeError.
func ParseOperation(b []byte) (*Operation, error) {
	if err := checkInputSize("operation", b); err != nil {
		return nil, err
	}
	r := newReader("operation", b)
	p := new(Operation)
	p.decode(r, 0)
	if err := r.end(); err != nil {
		return nil, err
	}
	return p, nil
}

// Bytes returns the encoding of p on its own, which [ParseOperation] reads.
func (p *Operation) Bytes() []byte {
	w := &writer{b: make([]byte, 0, p.size())}
	p.encode(w, 0)
	return w.b
}

func (p *Operation) encode(w *writer, _ byte) {
	w.varString(p.Header.Specification)
	w.varString(p.Header.Operation)
	switch p.Header.Operation {
	case opUpdate:
		w.varString(p.Header.PreviousTxid)
	case opTransfer:
		w.varString(p.Header.Ticket)
	}
	w.varString(p.Payload)
	w.varString(p.Proof.Type)
	w.varString(p.Proof.VerificationMethod)
	w.varString(p.Proof.Signature)
}

// size implements sizer: the fields and a varint of at most 9 bytes each.
func (p *Operation) size() int {
	h, f := p.Header, p.Proof
	return 8*9 + len(h.Specification) + len(h.Operation) + len(h.PreviousTxid) + len(h.Ticket) +
		len(p.Payload) + len(f.Type) + len(f.VerificationMethod) + len(f.Signature)
}

func (p *Operation) decode(r *reader, _ byte) {
	const limit = MaxPayloadDataSize
	p.Header.Specification = r.varString("header.specification", limit)
	p.Header.Operation = r.varString("header.operation", limit)
	switch p.Header.Operation {
	case opUpdate:
		p.Header.PreviousTxid = r.varString("header.previousTxid", limit)
	case opTransfer:
		p.Header.Ticket = r.varString("header.ticket", limit)
	}
	p.Payload = r.varString("payload", limit)
	p.Proof.Type = r.varString("proof.type", limit)
	p.Proof.VerificationMethod = r.varString("proof.verificationMethod", limit)
	p.Proof.Signature = r.varString("proof.signature", limit)
}
