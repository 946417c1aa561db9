package abi

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/jsontext"
)

// jsonDecode is how the ABI read inputs before it had its own reader:
// encoding/json, strict.
func jsonDecode(in []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(in))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return inputError("%v", err)
	}
	if _, err := d.Token(); err != io.EOF {
		return inputError("data after the input object")
	}
	return nil
}

// inputTypes returns a new value of every input type.
func inputTypes() []input {
	return []input{
		new(ParseDIDInput), new(ParseDocumentInput), new(NewDocumentInput), new(VerifyResolveResultInput),
		new(StatusOfInput), new(ValidateOperationInput), new(MatchInput), new(DecodeTxInput),
		new(VerifyTxInput), new(SignDocumentInput), new(SignOperationInput), new(ResolveW3CInput),
		new(VerifyEIDDIDInput), new(VerifyEIDCredentialInput), new(VerifyEIDCredentialListInput), new(ResolveW3CEIDInput),
	}
}

// checkDecode decodes in into every input type with decodeInput and with
// encoding/json: the same error text, or the same value.
func checkDecode(t *testing.T, in []byte) {
	t.Helper()
	for _, v := range inputTypes() {
		want := reflect.New(reflect.TypeOf(v).Elem()).Interface()
		errWant := jsonDecode(in, want)
		errGot := decodeInput(in, v)
		if (errGot == nil) != (errWant == nil) || errGot != nil && errGot.Error() != errWant.Error() {
			t.Fatalf("%s %q: error %v, encoding/json %v", v.typeName(), in, errGot, errWant)
		}
		if errGot == nil {
			if diff := cmp.Diff(want, v, cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) && a.Location().String() == b.Location().String() })); diff != "" {
				t.Fatalf("%s %q: (-encoding/json +decodeInput)\n%s", v.typeName(), in, diff)
			}
		}
	}
}

var decodeSeeds = []string{
	``, ` `, `null`, `[]`, `5`, `"x"`, `true`, `5x`, `5 x`, `truex`, `nul`, `"x"y`, `-0.5e+3`, ` {} `, `{}}`, `{`, `{"did"`, `{"did":`, `{"did":"foo"`, `{"did":"foo"} {}`, `{"did":"foo"}x`,
	`{"did":"foo","dids":1}`, `{"did":5}`, `{"DID":"foo"}`, `{"did":"foo","did":"bar"}`, `{"did":null}`,
	`{"did":"a\"b\\c\/\b\f\n\r\t\u00e9\ud83d\ude00\ud800\udc00x\ud800"}`, "{\"did\":\"\xff<>&\u2028\"}", `{"did":"\x"}`, `{"did":"\u12"}`,
	"{\"did\":\"a\nb\"}", `{"did":-}`, `{"did":01}`, `{"did":1.}`, `{"did":1e}`, `{"did":tru}`, `{"did" "x"}`, `{"did":"x",}`, `{"did":"x" "y"}`,
	`{"document":{"a":[1,2,{"b":null}]} , "verify":true,"documents":[{},null,"x"]}`, `{"verify":1}`, `{"documents":{}}`,
	`{"expires":"2030-01-01T00:00:00Z","services":[{"id":"#a","type":"t","serviceEndpoint":"e"},null,5]}`,
	`{"expires":"2030-01-01T00:00:00+08:00"}`, `{"expires":"nope"}`, `{"expires":5,"key":1}`, `{"key":1,"expires":5}`,
	`{"result":{"x":1},"now":"2030-01-01T00:00:00.123456789Z","documents":null}`,
	`{"result":{},"did":"did:elastos:x#y","options":"versionId=1","accept":"*/*","now":"2030-01-01T00:00:00Z"}`, `{"options":5}`, `{"accept":null}`,
	`{"history":[{"txid":"a","timestamp":"2030-01-01T00:00:00Z","operation":{},"height":7,"position":-2}],"tip":null}`,
	`{"history":[{"height":-1}]}`, `{"history":[{"height":4294967296}]}`, `{"history":[{"height":1.5}]}`, `{"history":[{"position":"1"}]}`,
	`{"history":[[]]}`, `{"history":"x"}`, `{"history":[{"x":1}]}`,
	`{"operation":{},"state":{"document":{},"txid":"t","deactivated":true},"now":"2030-01-01T00:00:00Z","detached":false}`,
	`{"state":null}`, `{"state":[]}`, `{"state":{"txid":"a"},"state":{"deactivated":true}}`,
	`{"condition":"{a:1}","documents":[{"a":1}],"view":true}`, `{"condition":{"a":{"$gt":1}}}`,
	`{"tx":"00","referenced":["a",null]}`, `{"referenced":"a"}`, `{"referenced":[1]}`,
	`{"document":{},"key":"k","method":"#m","created":"2030-01-01T00:00:00Z"}`,
	`{"history":[{"txid":"a"},{"txid":"b"}],"history":[{"height":1}]}`, `{"history":[{"txid":"a"}],"history":[]}`, `{"history":[{"txid":"a"}],"history":5}`,
	`{"services":[{"id":"a","type":"t"}],"services":[null,{"type":"u"}]}`, `{"referenced":["a","b"],"referenced":[null]}`,
	`{"documents":[{},[]],"documents":[null]}`, `{"state":{"txid":"a"},"state":null,"state":{"deactivated":true}}`,
	`{"operation":"create","document":{},"previousTxid":"p","did":"d","key":"k","method":"m"}`,
	`{"answer":{"result":{}},"did":"d","all":true,"now":"2030-01-01T00:00:00Z","chainId":22,"dids":[{"did":"x","answer":{}},null],"transactions":[{}]}`,
	`{"chainId":-1}`, `{"chainId":18446744073709551615}`, `{"chainId":18446744073709551616}`, `{"chainId":"22"}`, `{"chainId":2.5}`,
	`{"dids":{}}`, `{"dids":[{"did":1}]}`, `{"dids":[{"x":1}]}`, `{"dids":[[]]}`, `{"dids":[{"did":"a"}],"dids":[{"answer":5}]}`,
	`{"answer":{},"id":"i","issuer":"j","transactions":null}`, `{"issuer":5}`,
	`{"answer":[],"did":"d","skip":-3,"limit":300}`, `{"skip":"1"}`, `{"limit":9223372036854775808}`,
}

func TestDecodeLikeEncodingJSON(t *testing.T) {
	for _, in := range decodeSeeds {
		checkDecode(t, []byte(in))
	}
	for _, n := range []int{jsontext.MaxDepth, jsontext.MaxDepth + 1} {
		deep := `{"documents":[` + strings.Repeat("[", n-2) + strings.Repeat("]", n-2) + "]}"
		checkDecode(t, []byte(deep))
	}
}

func FuzzDecodeLikeEncodingJSON(f *testing.F) {
	for _, in := range decodeSeeds {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, in []byte) { checkDecode(t, in) })
}

// jsonEncode is how the ABI wrote outputs before it had its own writer.
func jsonEncode(v any) []byte {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		panic(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// Every output type writes what encoding/json writes.
func TestOutputsLikeEncodingJSON(t *testing.T) {
	index, offset := 3, 0
	for _, v := range []output{
		ParsedDID{DID: "did:elastos:i", ID: "i\u2028", Customized: true},
		ParsedDocument{DID: "d", Expires: "e", Document: json.RawMessage(`{"a":"<b>"}`)},
		VerifiedResult{DID: "d", Status: 2, StatusName: "deactivated", Complete: true},
		VerifiedResult{DID: "d", Txid: "t", Document: json.RawMessage(`{}`)},
		Status{Status: 1, StatusName: "expired"},
		W3CAnswer{Status: 303, Location: "https://example.org/a?b=<c>"},
		W3CAnswer{Status: 200, ContentType: "application/did-resolution", Body: json.RawMessage(`{"didDocument":{"id":"x"}}`)},
		ValidatedOperation{DID: "d", Operation: "update", Method: "d#primary"},
		Matches{}, Matches{Matches: []bool{}}, Matches{Matches: []bool{true, false}},
		VerifiedTx{Txid: "ab"},
		txJSON{TxID: "<t>", Size: 7, Version: 9, LockTime: 1 << 31, Type: ela.TxTransferAsset, PayloadVersion: 1, Payload: json.RawMessage(`null`)},
		txJSON{Inputs: []ela.InputJSON{{TxID: "i", VOut: 65535, Sequence: 1}}, Outputs: []ela.OutputJSON{{Value: "1.0", N: 1, Address: "a", AssetID: "x", OutputLock: 2}},
			Attributes: []ela.AttributeJSON{{Usage: 0x81, Data: "00"}}, Programs: []ela.ProgramJSON{{Code: "c", Parameter: "p"}}, BlockHash: "b", Confirmations: 3, Time: 4, BlockTime: 5},
		SignedDocument{Document: json.RawMessage(`{"x":1}`)}, SignedOperation{},
		&Error{Type: TypeVerify, Message: "m\x01", Rule: "r", Detail: "d", Index: &index, Txid: "t", Offset: &offset,
			Field: "f", Expected: "e", Found: "&", Operator: "$o", Path: "p"},
		&Error{Type: TypeInput, Message: ""},
		&Error{Type: TypeNeed, Message: "n", DIDs: []string{"did:elastos:a"}, Txids: []string{"t<"}},
		&Error{Type: TypeNeed, Message: "n", DIDs: []string{}, Txids: []string{}},
		VerifiedEIDDID{}, VerifiedEIDDID{VerifiedResult: VerifiedResult{DID: "d", Status: 2, StatusName: "deactivated", Txid: "t", Document: json.RawMessage(`{}`), Complete: true}, Expired: true,
			Migrated: []string{"a", "b"}, Report: Report{Outcome: "migrated", Checked: []string{"c"}, Trusted: []string{}, Unchecked: []string{"u"}}},
		VerifiedEIDDID{Migrated: []string{}},
		VerifiedEIDCredential{}, VerifiedEIDCredential{ID: "i", Status: 2, StatusName: "revoked", Txid: "t", Credential: json.RawMessage(`{"a":1}`), RevokedBy: "r", Shown: 2,
			Report: Report{Outcome: "verified"}},
		VerifiedEIDCredentialList{}, VerifiedEIDCredentialList{DID: "d", IDs: []string{"d#a", "d#b"}, Report: Report{Checked: []string{}}},
		EIDW3CAnswer{W3CAnswer: W3CAnswer{Status: 501, ContentType: "application/did-resolution", Body: json.RawMessage(`{}`)}},
		EIDW3CAnswer{W3CAnswer: W3CAnswer{Status: 200}, Report: &Report{Outcome: "verified", Checked: []string{"x"}}},
	} {
		if got, want := v.appendJSON(nil), jsonEncode(v); !bytes.Equal(got, want) {
			t.Errorf("%T:\n got  %s\n want %s", v, got, want)
		}
	}
}
