package wasmrt_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/wasm/abi"
)

// parityCase is one input to one call.
type parityCase struct {
	name string
	call string
	in   []byte
	env  abi.Env
}

type cases []parityCase

func (cs *cases) add(name, call string, env abi.Env, in any) {
	b, ok := in.([]byte)
	if !ok {
		var err error
		if b, err = json.Marshal(in); err != nil {
			panic(err)
		}
	}
	*cs = append(*cs, parityCase{name: name, call: call, in: b, env: env})
}

// parityCases builds inputs for every call from core's test vectors and from
// histories made here: valid, broken, tampered and malformed alike.
func parityCases(t testing.TB) []parityCase {
	var cs cases
	controllers := sdkDocuments(t)
	withDocs := abi.Env{Lookup: controllers}

	var documents []string
	for _, pattern := range []string{"elastos-did-sdk/v1/*.json", "elastos-did-sdk/v2.2/*.json"} {
		documents = append(documents, globVectors(t, pattern)...)
	}
	for _, n := range documents {
		b := readVector(t, n)
		cs.add(n, "parse_document", abi.Env{}, abi.ParseDocumentInput{Document: b})
		cs.add(n+" verified", "parse_document", withDocs, abi.ParseDocumentInput{Document: b, Verify: true})
		if doc, err := did.ParseDocument(b); err == nil {
			cs.add(n, "parse_did", abi.Env{}, abi.ParseDIDInput{DID: doc.Subject().String()})
			cs.add(n+" bare", "parse_did", abi.Env{}, abi.ParseDIDInput{DID: doc.Subject().ID()})
		}
	}
	for _, s := range []string{"", "did:elastos:", "did:foo:bar", "did:elastos:a b", "  did:elastos:foobar ", "DID:ELASTOS:x", strings.Repeat("x", 300)} {
		cs.add(fmt.Sprintf("did %q", s), "parse_did", abi.Env{}, abi.ParseDIDInput{DID: s})
	}

	conditions := []string{
		`"{\"credential.type\":\"SelfProclaimedCredential\"}"`,
		`"{service:{$elemMatch:{type:'CarrierAddress'}}}"`,
		`"{credential:{type:['SelfProclaimedCredential'],subject:{email:{$exists:true}}}}"`,
		`"{id:/^did:elastos:i/}"`,
		`{"$or":[{"controller":{"$exists":true}},{"publicKey.1":{"$exists":true}}]}`,
		`"{a:{$where:1}}"`, `"{a:"`, `"{a:{$regex:'(?=x)'}}"`, `5`,
	}
	var sdkDocs []json.RawMessage
	for _, n := range globVectors(t, "elastos-did-sdk/v2.2/*.id*.json") {
		sdkDocs = append(sdkDocs, readVector(t, n))
	}
	for _, c := range conditions {
		for _, view := range []bool{false, true} {
			cs.add(fmt.Sprintf("match %s view %v", c, view), "match", abi.Env{}, abi.MatchInput{Condition: json.RawMessage(c), Documents: sdkDocs, View: view})
		}
	}

	addTxs(t, &cs)
	addHistories(t, &cs, withDocs)
	addW3C(t, &cs, withDocs)
	addChainW3C(t, &cs)
	addSigning(t, &cs)
	addEID(t, &cs)

	for _, c := range abi.Calls() {
		for _, in := range []string{``, `null`, `{}`, `[]`, `{"x":1}`, `{"did":1}`, `{} {}`, "\xff"} {
			cs.add(fmt.Sprintf("%s %q", c.Name, in), c.Name, abi.Env{}, []byte(in))
		}
	}
	return cs
}

// addTxs adds the ledger transactions of core/ela's test data, one signed
// here, and broken copies.
func addTxs(t testing.TB, cs *cases) {
	var raws [][]byte
	for _, n := range []string{"idchain-did-update-tx.hex", "token-transfer-tx.hex"} {
		b, err := os.ReadFile("../../core/ela/testdata/" + n)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := hex.DecodeString(strings.TrimSpace(string(b)))
		if err != nil {
			t.Fatal(err)
		}
		raws = append(raws, raw)
	}
	var objs []ela.TxJSON
	b, err := os.ReadFile("../../core/ela/testdata/didchain-transfer-txs.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &objs); err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		tx, err := o.Tx()
		if err != nil {
			t.Fatal(err)
		}
		raws = append(raws, tx.Bytes())
	}
	signed, referenced := signedTx(t, "user2.id.primary")
	other, otherReferenced := signedTx(t, "user3.id.primary")
	cs.add("signed tx", "verify_tx", abi.Env{}, abi.VerifyTxInput{Tx: hex.EncodeToString(other.Bytes()), Referenced: otherReferenced})
	cs.add("signed tx, other referenced", "verify_tx", abi.Env{}, abi.VerifyTxInput{Tx: hex.EncodeToString(other.Bytes()), Referenced: referenced})
	raws = append(raws, signed.Bytes())
	for i, raw := range raws {
		for j, r := range [][]byte{raw, raw[:len(raw)/2], append(slices.Clone(raw), 0)} {
			cs.add(fmt.Sprintf("tx %d form %d", i, j), "decode_tx", abi.Env{}, abi.DecodeTxInput{Tx: hex.EncodeToString(r)})
			cs.add(fmt.Sprintf("tx %d form %d", i, j), "verify_tx", abi.Env{}, abi.VerifyTxInput{Tx: hex.EncodeToString(r), Referenced: referenced})
		}
	}
	tampered := signed.Bytes()
	tampered[len(tampered)-5] ^= 1 // in the signature
	cs.add("tampered tx", "verify_tx", abi.Env{}, abi.VerifyTxInput{Tx: hex.EncodeToString(tampered), Referenced: referenced})
	cs.add("tx not hex", "decode_tx", abi.Env{}, abi.DecodeTxInput{Tx: "0g"})
	cs.add("referenced not a hash", "verify_tx", abi.Env{}, abi.VerifyTxInput{Tx: hex.EncodeToString(raws[0]), Referenced: []string{"00"}})
}

// signedTx is a DID operation in a transaction spending one output of the
// signer's standard address, signed.
func signedTx(t testing.TB, key string) (*ela.Tx, []string) {
	h := newHistory(t, key, 0, false)
	r := h.entries[0].Request
	priv := h.priv
	addr := ela.ToProgramHash(ela.PrefixStandard, ela.SingleKeyScript(priv.Public(), ela.OpCheckSig))
	tx := &ela.Tx{
		Payload: &ela.Operation{
			Header:  ela.OperationHeader{Specification: r.Header.Specification, Operation: r.Header.Operation},
			Payload: r.Payload,
			Proof:   ela.OperationProof{Type: r.Proof.Type, VerificationMethod: r.Proof.VerificationMethod, Signature: r.Proof.Signature},
		},
		Attributes: []ela.Attribute{{Usage: ela.AttrNonce, Data: []byte("didlight")}},
		Inputs:     []ela.Input{{TxID: ela.ELAAssetID(), Index: 0}},
		Outputs:    []ela.Output{{AssetID: ela.ELAAssetID(), Value: ela.OneELA, ProgramHash: addr}},
	}
	tx.SignStandard(priv)
	return tx, []string{addr.Hex()}
}

// addHistories adds resolve results, their statuses and their operations,
// as they are and broken.
func addHistories(t testing.TB, cs *cases, withDocs abi.Env) {
	tip := t0.AddDate(0, 0, 30)
	late := t0.AddDate(3, 0, 0)
	for _, hc := range []struct {
		updates    int
		deactivate bool
	}{{0, false}, {3, false}, {9, false}, {2, true}} {
		h := newHistory(t, "user4.id.primary", hc.updates, hc.deactivate)
		name := fmt.Sprintf("history %d updates deactivated %v", hc.updates, hc.deactivate)
		for _, all := range []bool{true, false} {
			for _, at := range []time.Time{tip, late} {
				result := h.result(t, all, at)
				cs.add(fmt.Sprintf("%s all %v at %v", name, all, at), "verify_resolve_result", abi.Env{},
					abi.VerifyResolveResultInput{Result: result, Now: tip})
				rpc := `{"jsonrpc":"2.0","id":1,"result":` + string(result) + `}`
				cs.add(name+" rpc", "verify_resolve_result", abi.Env{}, abi.VerifyResolveResultInput{Result: json.RawMessage(rpc), Now: at})
				var parsed struct {
					Transaction []abi.HistoryEntry `json:"transaction"`
				}
				if err := json.Unmarshal(result, &parsed); err != nil {
					t.Fatal(err)
				}
				cs.add(name+" status", "status_of", abi.Env{}, abi.StatusOfInput{History: parsed.Transaction, Tip: at})
			}
		}
		tampered := slices.Clone(h.entries)
		tampered[len(tampered)-1].Request.Proof.Signature = tampered[0].Request.Proof.Signature
		b, _ := resolve.Result(h.subject, tampered, true, tip.Unix())
		cs.add(name+" tampered", "verify_resolve_result", abi.Env{}, abi.VerifyResolveResultInput{Result: b, Now: tip})
		good := string(h.result(t, true, tip))
		for _, s := range []string{"1", "2", "3", "7"} {
			claimed := strings.Replace(good, `"status":`, `"status":`+s+`,"x":`, 1)
			cs.add(name+" claims "+s, "verify_resolve_result", abi.Env{}, abi.VerifyResolveResultInput{Result: json.RawMessage(claimed), Now: tip})
		}
		addOperations(cs, name, h)
	}
	cs.add("no now", "verify_resolve_result", abi.Env{}, abi.VerifyResolveResultInput{Result: json.RawMessage(`{"did":"did:elastos:foo","status":3}`)})
	cs.add("not found", "verify_resolve_result", abi.Env{}, abi.VerifyResolveResultInput{Result: json.RawMessage(`{"did":"did:elastos:foo","status":3}`), Now: tip})
	cs.add("node error", "verify_resolve_result", abi.Env{}, abi.VerifyResolveResultInput{Result: json.RawMessage(`{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"x"}}`), Now: tip})

	mainnet, result := mainnetCreate(t)
	cs.add("mainnet create", "verify_resolve_result", abi.Env{}, abi.VerifyResolveResultInput{Result: result, Now: tip})
	cs.add("mainnet create", "validate_operation", abi.Env{}, abi.ValidateOperationInput{Operation: mainnet.Operation, Now: mainnet.Timestamp})

	foobar := readVector(t, "elastos-did-sdk/v2.2/foobar.id.json")
	doc := parseDocument(t, foobar)
	key2, _ := did.ParseURL("#key2", doc.Subject())
	create, err := idop.NewCreate(doc, key2, privateKey(t, "foobar.id.key2"))
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC)
	decoded, err := idop.Decode(create)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := resolve.Result(doc.Subject(), []resolve.Entry{resolve.NewEntry(decoded, txid(0), 0, 0, at.Unix())}, true, at.Unix())
	in := abi.VerifyResolveResultInput{Result: b, Now: at}
	cs.add("customized without controllers", "verify_resolve_result", abi.Env{}, in)
	cs.add("customized, controllers looked up", "verify_resolve_result", withDocs, in)
	for _, n := range globVectors(t, "elastos-did-sdk/v2.2/user*.id.json") {
		in.Documents = append(in.Documents, readVector(t, n))
	}
	cs.add("customized, controllers given", "verify_resolve_result", abi.Env{}, in)
	op := abi.ValidateOperationInput{Operation: create.AppendJSON(nil), Now: at, Documents: in.Documents}
	cs.add("customized create", "validate_operation", abi.Env{}, op)
}

// mainnetOp is the create operation of the idchain vector, as a node
// recorded it.
type mainnetOp struct {
	DID, Txid string
	Timestamp time.Time
	Operation json.RawMessage
}

// mainnetCreate returns the vector's create and the resolve result of its
// DID, as a node would give it today (expired).
func mainnetCreate(t testing.TB) (mainnetOp, json.RawMessage) {
	var op mainnetOp
	if err := json.Unmarshal(readVector(t, "idchain/create-op-mainnet-format.json"), &op); err != nil {
		t.Fatal(err)
	}
	result := fmt.Sprintf(`{"did":%q,"status":1,"transaction":[{"txid":%q,"timestamp":%q,"operation":%s}]}`,
		op.DID, op.Txid, did.FormatTime(op.Timestamp), op.Operation)
	return op, json.RawMessage(result)
}

// addOperations adds each operation of a history validated against the
// state before it, against a wrong state, and detached.
func addOperations(cs *cases, name string, h *history) {
	for i, e := range h.entries {
		op := abi.ValidateOperationInput{Operation: e.Request.AppendJSON(nil), Now: time.Unix(e.Time, 0)}
		if i > 0 {
			prev := h.docs[min(i, len(h.docs))-1]
			op.State = &abi.State{Document: prev.Normalized(), Txid: h.entries[i-1].Txid}
		}
		cs.add(fmt.Sprintf("%s op %d", name, i), "validate_operation", abi.Env{}, op)
		wrong := op
		wrong.State = &abi.State{Document: h.docs[0].Normalized(), Txid: txid(77), Deactivated: i%2 == 0}
		cs.add(fmt.Sprintf("%s op %d wrong state", name, i), "validate_operation", abi.Env{}, wrong)
		detached := op
		detached.State, detached.Detached = nil, true
		cs.add(fmt.Sprintf("%s op %d detached", name, i), "validate_operation", abi.Env{}, detached)
	}
}

// addSigning adds documents and operations to sign with the SDK's keys.
func addSigning(t testing.TB, cs *cases) {
	for _, sk := range globVectors(t, "elastos-did-sdk/v2.2/*.sk") {
		base := strings.TrimSuffix(sk, ".sk")                        // elastos-did-sdk/v2.2/user1.id.primary
		docName := base[:strings.LastIndexByte(base, '.')] + ".json" // elastos-did-sdk/v2.2/user1.id.json
		key := strings.TrimSpace(string(readVector(t, sk)))
		doc := readVector(t, docName)
		method := "#" + base[strings.LastIndexByte(base, '.')+1:]
		cs.add(sk+" sign document", "sign_document", abi.Env{}, abi.SignDocumentInput{Document: doc, Key: key, Created: t0})
		cs.add(sk+" sign document as "+method, "sign_document", abi.Env{}, abi.SignDocumentInput{Document: doc, Key: key, Method: method, Created: t0})
		cs.add(sk+" create", "sign_operation", abi.Env{}, abi.SignOperationInput{Operation: idop.Create, Document: doc, Key: key, Method: method})
		cs.add(sk+" update", "sign_operation", abi.Env{}, abi.SignOperationInput{Operation: idop.Update, Document: doc, Key: key, PreviousTxid: txid(1)})
		subject := parseDocument(t, doc).Subject().String()
		cs.add(sk+" deactivate", "sign_operation", abi.Env{}, abi.SignOperationInput{Operation: idop.Deactivate, DID: subject, Key: key, Method: method})
	}
	raw := hex.EncodeToString(privateKey(t, "user3.id.primary").Bytes())
	pub := privateKey(t, "user4.id.primary").Public().Base58()
	expires := t0.AddDate(5, 0, 0)
	for _, in := range []abi.NewDocumentInput{
		{Key: raw, Expires: expires},
		{PublicKey: pub, Expires: expires, Services: []abi.Service{{ID: "#vault", Type: "HiveVault", Endpoint: "https://hive.example"}}},
		{PublicKey: pub, Expires: expires, Services: []abi.Service{{ID: "#a", Type: "T", Endpoint: "x"}, {ID: "#a", Type: "T", Endpoint: "y"}}},
		{PublicKey: pub, Expires: expires, Services: []abi.Service{{ID: "#a b", Type: "T", Endpoint: "x"}}},
		{PublicKey: pub, Key: raw, Expires: expires},
		{PublicKey: "0OIl", Expires: expires},
		{Key: raw},
	} {
		cs.add(fmt.Sprintf("new document %.8s %.8s %d", in.PublicKey, in.Key, len(in.Services)), "new_document", abi.Env{}, in)
	}
	doc := readVector(t, "elastos-did-sdk/v2.2/user3.id.json")
	for _, in := range []abi.SignOperationInput{
		{Operation: idop.Create, Document: doc, Key: raw},
		{Operation: idop.Create, Document: doc, Key: "xprvnotakey"},
		{Operation: idop.Create, Document: doc, Key: strings.Repeat("00", keys.PrivateKeySize)},
		{Operation: idop.Create, Document: doc, Key: "abc"},
		{Operation: idop.Update, Document: doc, Key: raw},
		{Operation: idop.Deactivate, Key: raw, DID: "foo"},
		{Operation: idop.Deactivate, Key: raw, DID: "foo", Method: "#a b"},
		{Operation: idop.Transfer, Document: doc, Key: raw},
		{Operation: idop.Create, Key: raw},
	} {
		cs.add(fmt.Sprintf("sign %s %.12s %s", in.Operation, in.Key, in.Method), "sign_operation", abi.Env{}, in)
	}
}

// TestParity runs every case natively and in the module, with the host's
// crypto and with the module's own: the answers must be the same bytes.
func TestParity(t *testing.T) {
	host, fallback := runtimes(t)
	ctx := context.Background()
	run := map[string]abi.Func{}
	for _, c := range abi.Calls() {
		run[c.Name] = c.Run
	}
	counts := map[string][2]int{} // per call: results, errors
	for _, c := range parityCases(t) {
		native := run[c.call](c.in, c.env)
		for i, r := range []interface {
			Call(context.Context, string, []byte, abi.Env) ([]byte, error)
		}{host, fallback} {
			got, err := r.Call(ctx, c.call, c.in, c.env)
			if err != nil || !bytes.Equal(got, native) {
				t.Errorf("%s (%s), runtime %d:\n wasm   %s (%v)\n native %s", c.name, c.call, i, got, err, native)
			}
		}
		var e abi.Envelope
		if err := json.Unmarshal(native, &e); err != nil {
			t.Fatalf("%s: %v: %s", c.name, err, native)
		}
		n := counts[c.call]
		if e.Error != nil {
			n[1]++
		} else {
			n[0]++
		}
		counts[c.call] = n
	}
	for _, c := range abi.Calls() {
		if n := counts[c.Name]; n[0] < 2 || n[1] < 2 {
			t.Errorf("%s: %d results and %d errors; the cases should have both", c.Name, n[0], n[1])
		}
	}
}
