package api_test

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
)

// identity is a test DID with its key, built with core the way the SDKs
// build one.
type identity struct {
	t       testing.TB
	key     *keys.PrivateKey
	did     did.DID
	primary did.URL
}

func newIdentity(t testing.TB, name string) identity {
	t.Helper()
	h := sha256.Sum256([]byte("didlight api test " + name))
	k, err := keys.NewPrivateKey(h[:])
	if err != nil {
		t.Fatal(err)
	}
	d := did.FromKey(k.Public())
	return identity{t: t, key: k, did: d, primary: did.URL{DID: d, Fragment: did.PrimaryKey}}
}

// service is a service of id's document.
func (id identity) service(fragment, typ string) did.Service {
	return did.NewService(did.URL{DID: id.did, Fragment: fragment}, typ, "https://example.org/"+fragment)
}

// document is id's signed document.
func (id identity) document(expires time.Time, services ...did.Service) *did.Document {
	id.t.Helper()
	doc, err := did.NewDocument(id.key.Public(), expires, services...)
	if err != nil {
		id.t.Fatal(err)
	}
	if doc, err = doc.Sign(id.key, id.primary, time.Now()); err != nil {
		id.t.Fatal(err)
	}
	return doc
}

func (id identity) create(expires time.Time, services ...did.Service) idop.Request {
	id.t.Helper()
	r, err := idop.NewCreate(id.document(expires, services...), id.primary, id.key)
	if err != nil {
		id.t.Fatal(err)
	}
	return r
}

func (id identity) update(previous string, expires time.Time, services ...did.Service) idop.Request {
	id.t.Helper()
	r, err := idop.NewUpdate(id.document(expires, services...), previous, id.primary, id.key)
	if err != nil {
		id.t.Fatal(err)
	}
	return r
}

func (id identity) deactivate() idop.Request {
	id.t.Helper()
	r, err := idop.NewDeactivate(id.did, id.primary, id.key)
	if err != nil {
		id.t.Fatal(err)
	}
	return r
}

// requestJSON is the request as the SDK posts it to /idtx.
func requestJSON(t testing.TB, r idop.Request) []byte {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// publish posts r to /idtx, which must answer 202 once it is in a block,
// and returns the txid the DID's history then shows as its newest.
func (n *node) publish(id identity, r idop.Request) string {
	n.t.Helper()
	return n.publishFor(id.did, r)
}

// publishFor posts r, an operation on d, to /idtx, and returns the txid
// d's history then shows as its newest.
func (n *node) publishFor(d did.DID, r idop.Request) string {
	n.t.Helper()
	status, _, body := n.do("POST", n.rpcURL+"idtx", "application/json", requestJSON(n.t, r))
	if status != http.StatusAccepted || len(body) != 0 {
		n.t.Fatalf("/idtx %s %s: %d %s, want 202 and no body", r.Header.Operation, d, status, body)
	}
	res := n.resolve("resolvedid", d.String(), true)
	if len(res.Transaction) == 0 {
		n.t.Fatalf("%s: not resolvable after /idtx", d)
	}
	return res.Transaction[0].Txid
}

// resolved is a resolve result; Transaction is nil when the member is absent.
type resolved struct {
	DID         string  `json:"did"`
	Status      int     `json:"status"`
	Transaction []resTx `json:"transaction"`
}

type resTx struct {
	Txid      string          `json:"txid"`
	Timestamp string          `json:"timestamp"`
	Operation json.RawMessage `json:"operation"`
}

// op decodes the transaction's operation.
func (x resTx) op(t testing.TB) idop.Request {
	t.Helper()
	r, err := idop.ParseRequest(x.Operation)
	if err != nil {
		t.Fatalf("operation %s: %v", x.Operation, err)
	}
	return r
}

// resolve calls method (resolvedid or did_resolveDID, with the params form
// each is sent with) and returns its result.
func (n *node) resolve(method, d string, all bool) resolved {
	n.t.Helper()
	var params any = map[string]any{"did": d, "all": all}
	if method == "did_resolveDID" {
		params = []any{params}
	}
	var r resolved
	n.result(method, params, &r)
	return r
}

// devTx builds a transaction of the given payload spending in, an output
// of the dev account: pay goes to each payee, the rest minus fee back to
// the dev account. It is signed by the dev account.
func (n *node) devTx(in devOutput, payload ela.Payload, fee ela.Fixed64, pay map[ela.ProgramHash]ela.Fixed64) *ela.Tx {
	n.t.Helper()
	acct := n.chain.DevAccount()
	dev, err := ela.ParseAddress(acct.Address)
	if err != nil {
		n.t.Fatal(err)
	}
	change := in.value - fee
	tx := &ela.Tx{
		Payload:    payload,
		Attributes: []ela.Attribute{{Usage: ela.AttrNonce, Data: []byte(fmt.Sprint(time.Now().UnixNano()))}},
		Inputs:     []ela.Input{{TxID: in.txid, Index: in.index, Sequence: 0xffffffff}},
	}
	for to, v := range pay {
		tx.Outputs = append(tx.Outputs, ela.Output{AssetID: ela.ELAAssetID(), Value: v, ProgramHash: to})
		change -= v
	}
	tx.Outputs = append(tx.Outputs, ela.Output{AssetID: ela.ELAAssetID(), Value: change, ProgramHash: dev})
	tx.SignStandard(acct.PrivateKey)
	return tx
}

type devOutput struct {
	txid  ela.Hash
	index uint16
	value ela.Fixed64
}

// devUTXOs returns the dev account's unspent outputs in the chain (pooled
// spends do not count), largest first, read over REST.
func (n *node) devUTXOs() []devOutput {
	n.t.Helper()
	var groups []struct {
		AssetId, AssetName string
		Utxo               []utxo
	}
	n.ok("/asset/utxos/"+n.chain.DevAccount().Address, &groups)
	var outs []devOutput
	for _, g := range groups {
		for _, u := range g.Utxo {
			v, err := ela.ParseFixed64(u.Value)
			if err != nil {
				n.t.Fatal(err)
			}
			h, err := ela.ParseHash(u.Txid)
			if err != nil {
				n.t.Fatal(err)
			}
			outs = append(outs, devOutput{h, u.Index, v})
		}
	}
	if len(outs) == 0 {
		n.t.Fatalf("the dev account has no unspent output: %+v", groups)
	}
	slices.SortFunc(outs, func(a, b devOutput) int { return cmp.Compare(b.value, a.value) })
	return outs
}

// splitDev gives the dev account k more outputs of 1000 ELA, mined, so that
// a test can spend several outputs before the next block.
func (n *node) splitDev(k int) {
	n.t.Helper()
	dev, _ := ela.ParseAddress(n.chain.DevAccount().Address)
	tx := n.devTx(n.devUTXOs()[0], &ela.TransferAsset{}, 100, nil)
	change := tx.Outputs[0]
	for range k {
		tx.Outputs = append(tx.Outputs, ela.Output{AssetID: ela.ELAAssetID(), Value: 1000 * ela.OneELA, ProgramHash: dev})
		change.Value -= 1000 * ela.OneELA
	}
	tx.Outputs[0] = change
	tx.SignStandard(n.chain.DevAccount().PrivateKey)
	if e := n.broadcast(tx.Bytes()); e.Error != 0 {
		n.t.Fatalf("splitting the dev account's output: %+v", e)
	}
	n.result("dev_mine", nil, &struct{}{})
}

func yearFromNow() time.Time { return time.Now().Add(365 * 24 * time.Hour) }

// operation is r as a ledger payload: the same fields.
func operation(r idop.Request) *ela.Operation {
	return &ela.Operation{
		Header: ela.OperationHeader{Specification: r.Header.Specification, Operation: r.Header.Operation,
			PreviousTxid: r.Header.PreviousTxid, Ticket: r.Header.Ticket},
		Payload: r.Payload,
		Proof:   ela.OperationProof{Type: r.Proof.Type, VerificationMethod: r.Proof.VerificationMethod, Signature: r.Proof.Signature},
	}
}

// broadcast posts a raw transaction and returns the envelope.
func (n *node) broadcast(raw []byte) envelope {
	n.t.Helper()
	body := fmt.Sprintf(`{"Action":"sendrawtransaction","data":%q}`, hex.EncodeToString(raw))
	status, _, b := n.do("POST", n.rest+"/transaction", "application/json", []byte(body))
	return n.envelope(status, b)
}

// address is the standard address of a key.
func address(k *keys.PrivateKey) ela.ProgramHash {
	return ela.ToProgramHash(ela.PrefixStandard, ela.SingleKeyScript(k.Public(), ela.OpCheckSig))
}
