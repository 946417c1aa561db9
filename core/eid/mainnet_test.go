package eid

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/internal/vectors"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/resolve"
)

// mainnetRecord is the genuine mainnet record kept as a vector: the
// operation as it was sent, and the receipt of its transaction with the
// receipt's didLog (see core/internal/vectors/README.md).
type mainnetRecord struct {
	DID        string          `json:"did"`
	DIDRequest json.RawMessage `json:"didRequest"`
	TxHash     string          `json:"blockchainTxHash"`
	Receipt    struct {
		BlockNumber uint64          `json:"blockNumber"`
		DIDLog      json.RawMessage `json:"didLog"`
		From        string          `json:"from"`
		To          string          `json:"to"`
		Status      bool            `json:"status"`
	} `json:"blockchainTxReceipt"`
}

func readMainnet(t testing.TB) mainnetRecord {
	t.Helper()
	var m mainnetRecord
	if err := json.Unmarshal(vectors.Read("eid/mainnet-create-fb861dda.json"), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// sentAround is between the operation's document proof (23:19:56Z) and
// the service's record of the receipt (23:20:21Z): the block's time, to
// the vector's precision.
var sentAround = time.Date(2021, 8, 31, 23, 20, 0, 0, time.UTC)

// The genuine mainnet create: its operation, rebuilt from the receipt's
// didLog alone, is the one that was sent; the DID derives from its key;
// the operation's signature and the document's proof verify; and any
// change to it is refused.
func TestMainnetVector(t *testing.T) {
	m := readMainnet(t)
	l, err := ParseLog(m.Receipt.DIDLog)
	if err != nil {
		t.Fatal(err)
	}
	txid, _ := TxidOf(m.TxHash)
	if l.Txid != txid || l.Txid != "fb861ddaf27b371a66d0ac456bebe88b23ac95fbfa1f3bfe7e4a8b4b71caa78d" || l.Removed || !m.Receipt.Status {
		t.Fatalf("log of %s, removed %v, status %v", l.Txid, l.Removed, m.Receipt.Status)
	}
	var raw struct{ Data string }
	if err := json.Unmarshal(m.Receipt.DIDLog, &raw); err != nil {
		t.Fatal(err)
	}
	if logData(l.Request) != raw.Data {
		t.Fatalf("the operation re-encodes to\n%s\nnot the chain's\n%s", logData(l.Request), raw.Data)
	}
	sent, err := idop.ParseRequest(m.DIDRequest)
	if err != nil {
		t.Fatal(err)
	}
	if l.Request != sent || !bytes.Equal(l.Request.AppendJSON(nil), sent.AppendJSON(nil)) {
		t.Fatalf("the didLog holds\n%s\nthe service sent\n%s", l.Request.AppendJSON(nil), sent.AppendJSON(nil))
	}
	op, err := l.Decode()
	if err != nil {
		t.Fatal(err)
	}
	def, ok := op.Document.DefaultKey()
	pub, err := def.Decode(keys.Native{})
	if !ok || err != nil || did.FromKey(pub) != op.DID || op.DID.String() != "did:elastos:"+m.DID || l.Subject != op.DID.String() {
		t.Fatalf("DID %s, key %s (%v), log names %s", op.DID, def.PublicKeyBase58, err, l.Subject)
	}
	if op.Document.Legacy() || len(op.Document.Proofs()) != 1 {
		t.Fatalf("the document has %d proofs, legacy %v", len(op.Document.Proofs()), op.Document.Legacy())
	}
	if err := idop.Validate(op, nil, nil, keys.Native{}, sentAround); err != nil {
		t.Fatalf("the mainnet create does not verify: %v", err)
	}
	if !strings.EqualFold(m.Receipt.To, mainnetContract) || m.Receipt.BlockNumber != 1_174_647 {
		t.Errorf("sent to %s in block %d", m.Receipt.To, m.Receipt.BlockNumber)
	}

	doc, _ := keys.DecodeBase64(sent.Payload)
	for _, tc := range []struct {
		name   string
		change func(r *idop.Request)
		rule   idop.Rule
	}{
		{"a flipped signature byte", func(r *idop.Request) { r.Proof.Signature = "H" + r.Proof.Signature[1:] }, idop.RuleSignature},
		{"another expiry in the document", func(r *idop.Request) {
			r.Payload = b64url(strings.Replace(string(doc), "2026-08-31T23:19:56Z", "2027-08-31T23:19:56Z", 1))
		}, idop.RuleSignature},
		{"a previousTxid, as an update", func(r *idop.Request) {
			r.Header.Operation, r.Header.PreviousTxid = idop.Update, l.Txid
		}, idop.RuleNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := l.Request
			tc.change(&r)
			op, err := idop.Decode(r)
			if err == nil {
				err = idop.Validate(op, nil, nil, keys.Native{}, sentAround)
			}
			if idop.RuleOf(err) != tc.rule {
				t.Fatalf("error %v, want rule %s", err, tc.rule)
			}
		})
	}
}

// The mainnet create in an answer shaped as EID's did_resolveDID writes
// one (synthetic: the vector holds no resolve answer; the timestamp is
// sentAround) verifies as an EVM transaction of mainnet.
func TestMainnetVectorResolves(t *testing.T) {
	m := readMainnet(t)
	l, err := ParseLog(m.Receipt.DIDLog)
	if err != nil {
		t.Fatal(err)
	}
	h := history{{txid: l.Txid, at: sentAround, req: l.Request}}
	e := Env{Network: Mainnet, Verifier: keys.Native{}, Now: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	r, err := VerifyDID(eidAnswer(t, h, l.Subject, true), Request{l.Subject, true}, e)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != resolve.Valid || !r.Complete || r.Txid != l.Txid || r.Report.Outcome != OutcomeVerified {
		t.Errorf("status %v, complete %v, txid %s, outcome %s", r.Status, r.Complete, r.Txid, r.Report.Outcome)
	}
	var ve *resolve.VerifyError
	if _, err := VerifyDID(eidAnswer(t, h, l.Subject, true), Request{"did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y", true}, e); err == nil || errors.As(err, &ve) {
		t.Errorf("the answer for another DID than asked: %v", err)
	}
}
