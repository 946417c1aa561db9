package eid

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/internal/vectors"
	"github.com/didlight/didlight/core/keys"
)

// Until answers recorded from a real EID node land, the answers these
// tests verify are synthetic: histories made here with the project's own
// core, written as EID's internal/ethapi/didapi.go writes them (eidAnswer).
// The one genuine record is the mainnet vector (mainnet_test.go).

// t0 is the block time of the first operation of the synthetic histories,
// when every SDK vector document is valid.
var t0 = time.Date(2022, 3, 1, 0, 0, 0, 0, time.UTC)

func privateKey(t testing.TB, name string) *keys.PrivateKey {
	t.Helper()
	k, err := keys.ParseExtendedPrivateKey(vectors.String("elastos-did-sdk/v2.2/" + name + ".sk"))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func sdkDoc(t testing.TB, name string) *did.Document {
	t.Helper()
	doc, err := did.ParseDocument(vectors.Read("elastos-did-sdk/v2.2/" + name))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func mustDID(t testing.TB, s string) did.DID {
	t.Helper()
	d, err := did.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// evmTxid returns a made-up EVM transaction hash in EID's answer form.
func evmTxid(label string) string {
	sum := sha256.Sum256([]byte(label))
	return hex.EncodeToString(sum[:])
}

// record is one operation of a synthetic EID chain: the transaction
// carrying it and its block time.
type record struct {
	txid string
	at   time.Time
	req  idop.Request
}

// history is a DID's records, oldest first.
type history []record

// add appends req, made by build from the txid of the record before it
// (empty for the first), stamped a day after that record.
func (h *history) add(t testing.TB, label string, build func(prev string) (idop.Request, error)) {
	t.Helper()
	prev, at := "", t0
	if n := len(*h); n > 0 {
		prev, at = (*h)[n-1].txid, (*h)[n-1].at.AddDate(0, 0, 1)
	}
	req, err := build(prev)
	if err != nil {
		t.Fatal(err)
	}
	*h = append(*h, record{txid: evmTxid(label), at: at, req: req})
}

// The members of EID's answers, in the order its Go structs write them
// (internal/didapi/didtype.go, core/vm/did/payload.go and proof.go).
type (
	eidResult struct {
		DID         string  `json:"did"`
		Status      int     `json:"status"`
		Transaction []eidTx `json:"transaction,omitempty"`
	}
	eidTx struct {
		Txid      string `json:"txid"`
		Timestamp string `json:"timestamp"`
		Operation eidOp  `json:"operation"`
	}
	eidOp struct {
		Header  eidHeader `json:"header"`
		Payload string    `json:"payload"`
		Proof   eidProof  `json:"proof"`
	}
	eidHeader struct {
		Specification string `json:"specification"`
		Operation     string `json:"operation"`
		PreviousTxid  string `json:"previousTxid,omitempty"`
		Ticket        string `json:"ticket,omitempty"`
	}
	eidProof struct {
		Type               string `json:"type,omitempty"`
		VerificationMethod string `json:"verificationMethod"`
		Signature          string `json:"signature"`
	}
	eidResponse struct {
		JSONRPC string `json:"jsonrpc"`
		ID      string `json:"id"`
		Result  any    `json:"result"`
	}
)

// eidAnswer writes the did_resolveDID response EID gives for h when asked
// for asked: the latest create, update or transfer (all of them with all),
// after the deactivate when there is one; the did member is the document
// id of the last transaction listed; a DID with no history is not found,
// named as asked (internal/ethapi/didapi.go, ResolveDID).
func eidAnswer(t testing.TB, h history, asked string, all bool) []byte {
	t.Helper()
	res := eidResult{DID: asked, Status: 3}
	var deactivate *record
	var docs []record
	for i := len(h) - 1; i >= 0; i-- {
		if h[i].req.Header.Operation == idop.Deactivate {
			deactivate = &h[i]
			continue
		}
		docs = append(docs, h[i])
	}
	if len(docs) > 0 {
		if !all {
			docs = docs[:1]
		}
		res.Status = 0
		if deactivate != nil {
			res.Status = 2
			res.Transaction = append(res.Transaction, eidTxOf(*deactivate))
		}
		for _, r := range docs {
			res.Transaction = append(res.Transaction, eidTxOf(r))
		}
		op, err := idop.Decode(docs[len(docs)-1].req)
		if err != nil {
			t.Fatal(err)
		}
		res.DID = op.Document.Subject().String()
	}
	return marshal(t, eidResponse{JSONRPC: "2.0", ID: "7a3c", Result: res})
}

func eidTxOf(r record) eidTx {
	h, p := r.req.Header, r.req.Proof
	return eidTx{Txid: r.txid, Timestamp: r.at.UTC().Format(time.RFC3339), Operation: eidOp{
		Header:  eidHeader{Specification: h.Specification, Operation: h.Operation, PreviousTxid: h.PreviousTxid, Ticket: h.Ticket},
		Payload: r.req.Payload,
		Proof:   eidProof{Type: p.Type, VerificationMethod: p.VerificationMethod, Signature: p.Signature},
	}}
}

func marshal(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// edit returns answer changed by f, which edits it as JSON.
func edit(t testing.TB, answer []byte, f func(r map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(answer, &m); err != nil {
		t.Fatal(err)
	}
	f(m["result"].(map[string]any))
	return marshal(t, m)
}

// txs returns the transaction array of an answer's result, for edit.
func txs(r map[string]any) []any { return r["transaction"].([]any) }

// opOf returns the operation object of transaction i, for edit.
func opOf(r map[string]any, i int) map[string]any {
	return txs(r)[i].(map[string]any)["operation"].(map[string]any)
}

// fetched is an Env.Docs over the documents the caller has fetched: any
// other DID is unfetched.
type fetched map[string]*did.Document

func fetchedOf(docs ...*did.Document) fetched {
	f := fetched{}
	for _, d := range docs {
		f[d.Subject().Key()] = d
	}
	return f
}

func (f fetched) Document(d did.DID) (*did.Document, error) {
	doc, ok := f[d.Key()]
	if !ok {
		return nil, fmt.Errorf("%s: %w", d, ErrUnfetched)
	}
	return doc, nil
}

// sdkDocs is the SDK users' documents, fetched.
func sdkDocs(t testing.TB) fetched {
	t.Helper()
	var docs []*did.Document
	for _, n := range []string{"user1", "user2", "user3", "user4", "issuer", "foobar", "examplecorp"} {
		docs = append(docs, sdkDoc(t, n+".id.json"))
	}
	return fetchedOf(docs...)
}

// standard returns the history of a standard DID (user4's key): a create
// and n updates, each publishing a document that expires three years on,
// and a deactivate when deactivated.
func standard(t testing.TB, n int, deactivated bool) (history, did.DID) {
	t.Helper()
	return standardOf(t, "user4", n, deactivated)
}

// standardOf is standard with the named user's key.
func standardOf(t testing.TB, user string, n int, deactivated bool) (history, did.DID) {
	t.Helper()
	priv := privateKey(t, user+".id.primary")
	var h history
	var subject did.DID
	for i := 0; i <= n; i++ {
		at := t0.AddDate(0, 0, i)
		doc, err := did.NewDocument(priv.Public(), at.AddDate(3, 0, 0),
			did.NewService(did.URL{Fragment: "s"}, "Counter", fmt.Sprintf("https://example.com/%d", i)))
		if err != nil {
			t.Fatal(err)
		}
		def, _ := doc.DefaultKey()
		if doc, err = doc.Sign(priv, def.ID, at); err != nil {
			t.Fatal(err)
		}
		subject = doc.Subject()
		h.add(t, fmt.Sprintf("standard %s %d", user, i), func(prev string) (idop.Request, error) {
			if prev == "" {
				return idop.NewCreate(doc, def.ID, priv)
			}
			return idop.NewUpdate(doc, prev, def.ID, priv)
		})
	}
	if deactivated {
		h.add(t, "standard deactivate "+user, func(string) (idop.Request, error) {
			return idop.NewDeactivate(subject, did.URL{DID: subject, Fragment: did.PrimaryKey}, priv)
		})
	}
	return h, subject
}

// foobar returns the history of the SDK's customized DID foobar: created
// by its controllers (user1 signs), passed to user4 with a ticket user1 and
// user3 signed naming the create's txid, then renewed by user4.
func foobar(t testing.TB) history {
	t.Helper()
	user1, user3, user4 := privateKey(t, "user1.id.primary"), privateKey(t, "user3.id.primary"), privateKey(t, "user4.id.primary")
	primary := func(k *keys.PrivateKey) did.URL {
		return did.URL{DID: did.FromKey(k.Public()), Fragment: did.PrimaryKey}
	}
	next := sdkDoc(t, "foobar.new-id.json")
	renewed, err := did.ParseDocument([]byte(strings.Replace(string(next.Normalized()), `"expires":"2026`, `"expires":"2027`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if renewed, err = renewed.Sign(user4, primary(user4), t0.AddDate(0, 0, 2)); err != nil {
		t.Fatal(err)
	}
	var h history
	h.add(t, "foobar create", func(string) (idop.Request, error) {
		return idop.NewCreate(sdkDoc(t, "foobar.id.json"), primary(user1), user1)
	})
	h.add(t, "foobar transfer", func(prev string) (idop.Request, error) {
		tt := did.NewTransferTicket(mustDID(t, "did:elastos:foobar"), did.FromKey(user4.Public()), prev)
		tt = tt.Sign(user1, primary(user1), t0).Sign(user3, primary(user3), t0)
		return idop.NewTransfer(next, tt, primary(user4), user4)
	})
	h.add(t, "foobar update", func(prev string) (idop.Request, error) {
		return idop.NewUpdate(renewed, prev, primary(user4), user4)
	})
	return h
}

// env is the environment of the synthetic answers: mainnet, the SDK users'
// documents fetched, the chain tip ten days after t0.
func env(t testing.TB) Env {
	return Env{Network: Mainnet, Docs: sdkDocs(t), Verifier: keys.Native{}, Now: t0.AddDate(0, 0, 10)}
}

func b64url(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
