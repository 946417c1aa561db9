package idop

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/internal/vectors"
	"github.com/didlight/didlight/core/keys"
)

// blockTime is the time of the block carrying the operations below.
var blockTime = time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)

func privateKey(t testing.TB, name string) *keys.PrivateKey {
	t.Helper()
	k, err := keys.ParseExtendedPrivateKey(vectors.String("elastos-did-sdk/v2.2/" + name + ".sk"))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// fixture is a standard DID (user4's key) with a signed document.
type fixture struct {
	priv *keys.PrivateKey
	doc  *did.Document
	key  did.URL // its default key
}

func newFixture(t testing.TB, services ...did.Service) fixture {
	t.Helper()
	priv := privateKey(t, "user4.id.primary")
	doc, err := did.NewDocument(priv.Public(), blockTime.AddDate(5, 0, 0), services...)
	if err != nil {
		t.Fatal(err)
	}
	def, _ := doc.DefaultKey()
	if doc, err = doc.Sign(priv, def.ID, blockTime); err != nil {
		t.Fatal(err)
	}
	return fixture{priv: priv, doc: doc, key: def.ID}
}

// decoded returns a function that decodes a freshly built request:
// decoded(t)(NewCreate(...)).
func decoded(t testing.TB) func(Request, error) *Op {
	return func(r Request, err error) *Op {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		op, err := Decode(r)
		if err != nil {
			t.Fatal(err)
		}
		return op
	}
}

const txid1 = "23df5f7d0befb743899c22357f774df3d9ce809917b07559c59f12771e67aa31"

func TestLifecycle(t *testing.T) {
	f := newFixture(t)
	create := decoded(t)(NewCreate(f.doc, f.key, f.priv))
	if err := Validate(create, nil, nil, keys.Native{}, blockTime); err != nil {
		t.Fatalf("create: %v", err)
	}
	updated, err := did.NewDocument(f.priv.Public(), blockTime.AddDate(6, 0, 0), did.NewService(did.URL{Fragment: "hive"}, "HiveVault", "https://h/"))
	if err != nil {
		t.Fatal(err)
	}
	updated, _ = updated.Sign(f.priv, f.key, blockTime)
	update := decoded(t)(NewUpdate(updated, txid1, f.key, f.priv))
	st := &State{Document: f.doc, Txid: strings.ToUpper(txid1)}
	if err := Validate(update, st, nil, keys.Native{}, blockTime); err != nil {
		t.Fatalf("update: %v", err)
	}
	deactivate := decoded(t)(NewDeactivate(f.doc.Subject(), f.key, f.priv))
	st = &State{Document: updated, Txid: "00" + txid1[2:]}
	if err := Validate(deactivate, st, nil, keys.Native{}, blockTime); err != nil {
		t.Fatalf("deactivate: %v", err)
	}
	st.Deactivated = true
	for _, op := range []*Op{create, update, deactivate} {
		if err := Validate(op, st, nil, keys.Native{}, blockTime); RuleOf(err) != RuleDeactivated {
			t.Errorf("%s after deactivation: %v, want rule %s", op.Request.Header.Operation, err, RuleDeactivated)
		}
	}
}

// The oldest on-chain format: a proofless document whose key derives the
// DID with 0xAC, a signature in standard base64 over spec ‖ op ‖ payload.
func TestMainnetCreateVerifies(t *testing.T) {
	var v struct {
		Timestamp time.Time
		Operation json.RawMessage
	}
	if err := json.Unmarshal(vectors.Read("idchain/create-op-mainnet-format.json"), &v); err != nil {
		t.Fatal(err)
	}
	r, err := ParseRequest(v.Operation)
	if err != nil {
		t.Fatal(err)
	}
	op, err := Decode(r)
	if err != nil {
		t.Fatal(err)
	}
	if op.DID.String() != "did:elastos:ifawgWFmZRLXN1JVmqpXcNRurhB1zyHNcf" || !op.Document.Legacy() {
		t.Fatalf("decoded %s, legacy %v", op.DID, op.Document.Legacy())
	}
	if err := Validate(op, nil, nil, keys.Native{}, v.Timestamp); err != nil {
		t.Fatalf("mainnet create: %v", err)
	}
	doc, _ := keys.DecodeBase64(r.Payload)
	tampered := strings.Replace(string(doc), "17:00:00Z", "17:00:01Z", 1)
	if tampered == string(doc) {
		t.Fatal("the payload was not changed")
	}
	r.Payload = base64.RawURLEncoding.EncodeToString([]byte(tampered))
	op, err = Decode(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(op, nil, nil, keys.Native{}, v.Timestamp); RuleOf(err) != RuleSignature {
		t.Errorf("tampered mainnet create: %v, want rule %s", err, RuleSignature)
	}
}

func TestSigningInput(t *testing.T) {
	for i, tc := range []struct {
		h    Header
		want string
	}{
		{Header{SpecDID, Create, "", ""}, "elastos/did/1.0createP"},
		{Header{SpecDID, Update, "ab", ""}, "elastos/did/1.0updateabP"},
		{Header{SpecDID, Transfer, "", "T"}, "elastos/did/1.0transferTP"},
		{Header{SpecDID, Deactivate, "", ""}, "elastos/did/1.0deactivateP"},
		{Header{SpecCredential, Declare, "", ""}, "elastos/credential/1.0declareP"},
		{Header{SpecDID, Create, "ignored", "ignored"}, "elastos/did/1.0createP"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if got := string(Request{Header: tc.h, Payload: "P"}.SigningInput()); got != tc.want {
				t.Errorf("%+v: signing input %q, want %q", tc.h, got, tc.want)
			}
		})
	}
}

func TestParseRequestRoundTrip(t *testing.T) {
	f := newFixture(t)
	r, err := NewUpdate(f.doc, txid1, f.key, f.priv)
	if err != nil {
		t.Fatal(err)
	}
	b := r.AppendJSON(nil)
	want := `{"header":{"specification":"elastos/did/1.0","operation":"update","previousTxid":"` + txid1 + `"},"payload":"` + r.Payload +
		`","proof":{"type":"ECDSAsecp256r1","verificationMethod":"` + f.key.String() + `","signature":"` + r.Proof.Signature + `"}}`
	if string(b) != want {
		t.Errorf("JSON\n got %s\nwant %s", b, want)
	}
	back, err := ParseRequest(b)
	if err != nil || back != r {
		t.Errorf("ParseRequest(AppendJSON) = %+v, %v; want %+v", back, err, r)
	}
	if m, _ := r.MarshalJSON(); string(m) != want {
		t.Error("MarshalJSON differs from AppendJSON")
	}
	var std struct{ Payload string }
	if err := json.Unmarshal(b, &std); err != nil || std.Payload != r.Payload {
		t.Errorf("encoding/json reads %q, %v", std.Payload, err)
	}
}

func TestMalformed(t *testing.T) {
	f := newFixture(t)
	good, _ := NewCreate(f.doc, f.key, f.priv)
	for _, tc := range []struct {
		name   string
		change func(r *Request)
		rule   Rule
		msg    string
	}{
		{"specification", func(r *Request) { r.Header.Specification = "elastos/did/2.0" }, RuleMalformed, `specification "elastos/did/2.0"`},
		{"operation", func(r *Request) { r.Header.Operation = "delete" }, RuleMalformed, `operation "delete"`},
		{"credential operation under the DID specification", func(r *Request) { r.Header.Operation = Declare }, RuleMalformed, `operation "declare"`},
		{"update without previousTxid", func(r *Request) { r.Header.Operation = Update }, RuleMalformed, "update needs previousTxid"},
		{"previousTxid on create", func(r *Request) { r.Header.PreviousTxid = txid1 }, RuleMalformed, "previousTxid is only for update"},
		{"ticket on create", func(r *Request) { r.Header.Ticket = "x" }, RuleMalformed, "a ticket is only for transfer"},
		{"transfer without ticket", func(r *Request) { r.Header.Operation = Transfer }, RuleMalformed, "transfer needs a ticket"},
		{"no payload", func(r *Request) { r.Payload = "" }, RuleMalformed, "no payload"},
		{"no signature", func(r *Request) { r.Proof.Signature = "" }, RuleMalformed, "proof needs"},
		{"proof type", func(r *Request) { r.Proof.Type = "RSA" }, RuleMalformed, `proof type "RSA"`},
		{"payload not base64", func(r *Request) { r.Payload = "!" }, RuleMalformed, "payload is not base64"},
		{"payload not a document", func(r *Request) { r.Payload = base64.RawURLEncoding.EncodeToString([]byte(`{"id":1}`)) }, RuleMalformed, "want string"},
		{"deactivate payload not a DID", func(r *Request) { r.Header.Operation = Deactivate; r.Payload = "foo" }, RuleMalformed, "not a DID in full form"},
		{"verification method", func(r *Request) { r.Proof.VerificationMethod = "#a b" }, RuleMalformed, "verificationMethod"},
		{"signature length", func(r *Request) { r.Proof.Signature = "AAAA" }, RuleSignature, "3 bytes"},
		{"expires format", func(r *Request) {
			r.Payload = payloadOf(t, f.doc, `"expires":"2029-06-01T00:00:00Z"`, `"expires":"2029-06-01"`)
		}, RuleExpiresFormat, "expires"},
		{"no default key", func(r *Request) {
			r.Payload = payloadOf(t, f.doc, `"id":"did:elastos:igHbSCez6H3gTuVPzwNZRrdj92GCJ6hD5d"`, `"id":"did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y"`)
		}, RuleDefaultKey, "no key derives"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := good
			tc.change(&r)
			_, err := Decode(r)
			if RuleOf(err) != tc.rule || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("%s: %v, want rule %s containing %q", tc.name, err, tc.rule, tc.msg)
			}
		})
	}
	for _, in := range []string{`[]`, `{"header":7}`, `{"header":{}} x`} {
		if _, err := ParseRequest([]byte(in)); RuleOf(err) != RuleMalformed {
			t.Errorf("ParseRequest(%s): %v", in, err)
		}
	}
}

// payloadOf returns doc's normalized form with one string replaced, as a payload.
func payloadOf(t *testing.T, doc *did.Document, old, new string) string {
	t.Helper()
	s := string(doc.Normalized())
	if !strings.Contains(s, old) {
		t.Fatalf("%s not in %s", old, s)
	}
	return base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(s, old, new, 1)))
}

// failingLookup is a Lookup whose store is broken.
type failingLookup struct{}

func (failingLookup) Document(did.DID) (*did.Document, error) { return nil, errors.New("disk on fire") }

// The ledger's wire struct converts to a Request field for field.
func TestWireConversion(t *testing.T) {
	wire := ela.Operation{
		Header:  ela.OperationHeader{Specification: SpecDID, Operation: Update, PreviousTxid: txid1},
		Payload: "p",
		Proof:   ela.OperationProof{Type: did.DefaultKeyType, VerificationMethod: "#primary", Signature: "s"},
	}
	r := Request{Header: Header(wire.Header), Payload: wire.Payload, Proof: Proof(wire.Proof)}
	back, _ := json.Marshal(wire)
	if got := string(r.AppendJSON(nil)); got != string(back) {
		t.Errorf("idop writes %s, ela %s", got, back)
	}
}

// Payloads are base64url without padding as the SDKs write them; older
// samples use standard base64 with padding, and both decode alike.
func TestPayloadEncodings(t *testing.T) {
	f := newFixture(t, did.NewService(did.URL{Fragment: "x"}, "T", "https://e/?a=b>"))
	r, err := NewCreate(f.doc, f.key, f.priv)
	if err != nil {
		t.Fatal(err)
	}
	norm := f.doc.Normalized()
	for _, enc := range []*base64.Encoding{base64.RawURLEncoding, base64.URLEncoding, base64.StdEncoding, base64.RawStdEncoding} {
		r.Payload = enc.EncodeToString(norm)
		op, err := Decode(r)
		if err != nil {
			t.Errorf("%q: %v", r.Payload[len(r.Payload)-4:], err)
			continue
		}
		if got := op.Document.Normalized(); string(got) != string(norm) {
			t.Errorf("decoded %s", got)
		}
	}
}

// Subject is the key the mempool holds one pending operation for: a
// standard DID's id as it is, a customized DID's in lower case, a
// credential id with its DID in lower case; Decode finds it once, and an Op
// built by hand finds it when asked, alike.
func TestSubject(t *testing.T) {
	f := newFixture(t)
	fooBar, err := did.Parse("did:elastos:FooBar")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		op   *Op
		want string
	}{
		{"create", decoded(t)(NewCreate(f.doc, f.key, f.priv)), f.doc.Subject().ID()},
		{"customized deactivate", decoded(t)(NewDeactivate(fooBar, f.key, f.priv)), "foobar"},
		{"revoke", revoke(t, url(t, "did:elastos:FooBar#Cred"), byFoobarKey2), "did:elastos:foobar#Cred"},
	} {
		t.Run(c.name, func(t *testing.T) {
			byHand := &Op{Request: c.op.Request, DID: c.op.DID, CredentialID: c.op.CredentialID}
			if got, built := c.op.Subject(), byHand.Subject(); got != c.want || built != c.want {
				t.Errorf("%s: Subject %q, of the Op built by hand %q, want %q", c.name, got, built, c.want)
			}
		})
	}
}
