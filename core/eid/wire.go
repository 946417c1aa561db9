package eid

import (
	"encoding/base64"
	"fmt"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/did/sdkjson"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/excerpt"
	"github.com/didlight/didlight/core/idop"
)

// DecodeLogData decodes the data member of a receipt's didLog: the standard
// base64 (Go's encoding of a []byte) of the whole signed operation in the
// ledger's serialization, var-strings of specification, operation,
// previousTxid (update only), ticket (transfer only), payload, proof type,
// verification method and signature (Elastos.ELA.SideChain.EID
// core/vm/did/payload.go and proof.go, Serialize; [ela.ParseOperation]). The
// request must have the shape [idop.Request.Check] requires. Errors are
// *idop.RuleError (RuleMalformed).
func DecodeLogData(data string) (idop.Request, error) {
	if n := base64.StdEncoding.EncodedLen(ela.MaxBlockSize); len(data) > n {
		return idop.Request{}, malformed("didLog data is %d bytes of base64, at most %d", len(data), n)
	}
	b, err := base64.StdEncoding.Strict().DecodeString(data)
	if err != nil {
		return idop.Request{}, malformed("didLog data is not standard base64: %v", err)
	}
	op, err := ela.ParseOperation(b)
	if err != nil {
		return idop.Request{}, malformed("didLog data: %v", err)
	}
	r := idop.Request{Header: idop.Header(op.Header), Payload: op.Payload, Proof: idop.Proof(op.Proof)}
	return r, r.Check()
}

// Log is a receipt's didLog member: what EID recorded of one operation
// (core/types/didlog.go; internal/ethapi/api.go adds it to receipts).
type Log struct {
	// Subject is the did member as the chain wrote it: the id of the
	// document a create, update or transfer publishes, the DID a
	// deactivate names, the credential id a declare or revoke is about.
	Subject string
	// Operation is the operation member, the request's operation.
	Operation string
	// Request is the operation, decoded from the data member.
	Request idop.Request
	// Txid is the transaction hash in the form EID's answers use ([TxidOf]).
	Txid string
	// Removed reports a log of a block a reorganisation dropped.
	Removed bool
}

// ParseLog reads a didLog object ({"did", "operation", "data",
// "transactionHash", "removed"}) and decodes its data; the operation member
// must be the request's. Errors are *idop.RuleError (RuleMalformed).
func ParseLog(b []byte) (*Log, error) {
	var l Log
	var data, hash string
	d := sdkjson.NewDecoder(b)
	for m := d.Object(); m.Next(); {
		switch m.Key() {
		case "did":
			l.Subject = d.Str()
		case "operation":
			l.Operation = d.Str()
		case "data":
			data = d.Str()
		case "transactionHash":
			hash = d.Str()
		case "removed":
			l.Removed = d.Bool()
		default:
			d.Skip()
		}
	}
	if err := d.Finish(); err != nil {
		return nil, malformed("didLog: %v", err)
	}
	var err error
	if l.Txid, err = TxidOf(hash); err != nil {
		return nil, malformed("didLog transactionHash: %v", err)
	}
	if l.Request, err = DecodeLogData(data); err != nil {
		return nil, err
	}
	if l.Operation != l.Request.Header.Operation {
		return nil, malformed("didLog says %s, its data holds a %s", excerpt.Quote(l.Operation), l.Request.Header.Operation)
	}
	return &l, nil
}

// Decode decodes the log's request and checks that the log's did member
// names what the operation is about: the DID (as [did.DID.Key] compares
// them) or, for credential operations, the credential id.
func (l *Log) Decode() (*idop.Op, error) {
	op, err := idop.Decode(l.Request)
	if err != nil {
		return nil, err
	}
	if err := l.checkSubject(op); err != nil {
		return nil, &idop.RuleError{Rule: idop.RuleDocID, Err: err}
	}
	return op, nil
}

func (l *Log) checkSubject(op *idop.Op) error {
	if l.Request.Header.Specification == idop.SpecCredential {
		id, err := did.ParseCredentialID(l.Subject)
		if err != nil {
			return fmt.Errorf("didLog did: %w", err)
		}
		if id.Key() != op.CredentialID.Key() {
			return fmt.Errorf("didLog names %s, its operation is about %s", id, op.CredentialID)
		}
		return nil
	}
	d, err := did.Parse(l.Subject)
	if err != nil {
		return fmt.Errorf("didLog did: %w", err)
	}
	if d.Key() != op.DID.Key() {
		return fmt.Errorf("didLog names %s, its operation is about %s", d, op.DID)
	}
	return nil
}

// TxidOf returns an EVM transaction hash as EID's resolve answers write a
// txid: 64 lower-case hex digits without 0x, not byte-reversed (the retired
// ID chain reversed its txids). It takes the hash as EVM JSON writes it
// (0x and 64 hex digits) or already in that form.
func TxidOf(hash string) (string, error) {
	h := hash
	if len(h) >= 2 && h[0] == '0' && (h[1] == 'x' || h[1] == 'X') {
		h = h[2:]
	}
	if len(h) != 64 {
		return "", fmt.Errorf("hash %s is not 32 bytes of hex", excerpt.Quote(hash))
	}
	b := []byte(h)
	for i, c := range b {
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f':
		case c >= 'A' && c <= 'F':
			b[i] = c + 'a' - 'A'
		default:
			return "", fmt.Errorf("hash %s is not 32 bytes of hex", excerpt.Quote(hash))
		}
	}
	return string(b), nil
}

// isTxid reports whether s is a txid as EID's answers write one.
func isTxid(s string) bool {
	t, err := TxidOf(s)
	return err == nil && t == s
}

func malformed(format string, args ...any) *idop.RuleError {
	return &idop.RuleError{Rule: idop.RuleMalformed, Err: fmt.Errorf(format, args...)}
}
