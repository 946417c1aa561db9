package ela

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestTxRoundTrip(t *testing.T) {
	samples := sampleTxs(t)
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range samples {
			if !yield(n) {
				return
			}
		}
	})
	for _, name := range names {
		tx := samples[name]
		t.Run(name, func(t *testing.T) {
			raw := tx.Bytes()
			parsed, err := ParseTx(raw)
			if err != nil {
				t.Fatal(err)
			}
			if diff := txDiff(tx, parsed); diff != "" {
				t.Errorf("binary round trip (-built +parsed):\n%s", diff)
			}
			if !bytes.Equal(parsed.Bytes(), raw) {
				t.Error("re-encoding the parsed transaction changed the bytes")
			}
			if parsed.Hash() != tx.Hash() || tx.Size() != len(raw) {
				t.Errorf("hash %s size %d, want %s %d", parsed.Hash(), parsed.Size(), tx.Hash(), len(raw))
			}
			checkJSONRoundTrip(t, tx, raw)
		})
	}
}

// The layout written out by hand: a coinbase with one of each list element.
func TestTxLayout(t *testing.T) {
	tx := &Tx{
		PayloadVersion: 4,
		Payload:        &CoinBase{Data: []byte("ab")},
		Attributes:     []Attribute{{Usage: AttrNonce, Data: []byte{0xee}}},
		Inputs:         []Input{{TxID: Hash{0x11}, Index: 0x0302, Sequence: 0x07060504}},
		Outputs:        []Output{{AssetID: Hash{0x22}, Value: 0x0102, OutputLock: 9, ProgramHash: ProgramHash{0x21, 0x33}}},
		LockTime:       0x0a0b0c0d,
		Programs:       []Program{{Code: []byte{0xc0, 0xde}, Parameter: []byte{0xfa}}},
	}
	want := "00" + "04" + "026162" + // type, payload version, coinbase data
		"01" + "00" + "01ee" + // one attribute
		"01" + "11" + zeros(31) + "0203" + "04050607" + // one input
		"01" + "22" + zeros(31) + "0201000000000000" + "09000000" + "2133" + zeros(19) + // one output
		"0d0c0b0a" + // lock time
		"01" + "01fa" + "02c0de" // one program: parameter, then code
	if got := hex.EncodeToString(tx.Bytes()); got != want {
		t.Errorf("encoding\n got %s\nwant %s", got, want)
	}
	if got, want := hex.EncodeToString(tx.UnsignedBytes()), want[:len(want)-len("01"+"01fa"+"02c0de")]; got != want {
		t.Errorf("unsigned encoding\n got %s\nwant %s", got, want)
	}
}

func zeros(n int) string { return hex.EncodeToString(make([]byte, n)) }

// The operation header carries previousTxid only for update and ticket only
// for transfer; other values are not written, as on the chain.
func TestOperationLayout(t *testing.T) {
	vs := func(s string) string { return hex.EncodeToString(append([]byte{byte(len(s))}, s...)) }
	for i, tc := range []struct {
		op   *Operation
		want string
	}{
		{didOp("create", "", ""), vs("elastos/did/1.0") + vs("create")},
		{didOp("update", "abc", ""), vs("elastos/did/1.0") + vs("update") + vs("abc")},
		{didOp("update", "", ""), vs("elastos/did/1.0") + vs("update") + vs("")},
		{didOp("transfer", "", "tkt"), vs("elastos/did/1.0") + vs("transfer") + vs("tkt")},
		{didOp("create", "ignored", "ignored"), vs("elastos/did/1.0") + vs("create")},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			rest := vs(tc.op.Payload) + vs(tc.op.Proof.Type) + vs(tc.op.Proof.VerificationMethod) + vs(tc.op.Proof.Signature)
			w := &writer{}
			tc.op.encode(w, 0)
			if got := hex.EncodeToString(w.b); got != tc.want+rest {
				t.Errorf("%s: encoding\n got %s\nwant %s", tc.op.Header.Operation, got, tc.want+rest)
			}
		})
	}
}

func TestOperationJSON(t *testing.T) {
	for i, tc := range []struct {
		op   *Operation
		want string
	}{
		{&Operation{Header: OperationHeader{Specification: "elastos/did/1.0", Operation: "deactivate"}, Payload: "did:elastos:x", Proof: OperationProof{VerificationMethod: "#recovery", Signature: "s"}},
			`{"header":{"specification":"elastos/did/1.0","operation":"deactivate"},"payload":"did:elastos:x","proof":{"verificationMethod":"#recovery","signature":"s"}}`},
		{didOp("update", "prev", ""),
			`{"header":{"specification":"elastos/did/1.0","operation":"update","previousTxid":"prev"},"payload":"` + didOp("", "", "").Payload + `","proof":{"type":"ECDSAsecp256r1","verificationMethod":"#primary","signature":"c2lnbmF0dXJl"}}`},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			got, err := json.Marshal(tc.op)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("JSON\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestTxTypeString(t *testing.T) {
	for typ, want := range map[TxType]string{
		TxCoinBase: "CoinBase", TxTransferCrossChainAsset: "TransferCrossChainAsset",
		TxDIDOperation: "DIDOperation", 0xf0: "TxType(0xf0)",
	} {
		if got := typ.String(); got != want {
			t.Errorf("TxType(%d).String() = %q, want %q", typ, got, want)
		}
	}
}

// A main-chain transaction of version 0x09 writes its version before its
// type and a type byte after each output; ParseTx, for the identity chain,
// reads that first byte as a type it does not carry.
func TestMainChainVersionedTx(t *testing.T) {
	tx := &Tx{
		Version:  TxVersion09,
		Payload:  &SideChainPow{BlockHeight: 5},
		Outputs:  []Output{{Value: 1}},
		LockTime: 3,
	}
	raw := tx.Bytes()
	if raw[0] != TxVersion09 || raw[1] != byte(TxSideChainPow) {
		t.Fatalf("encoding starts %x, want version 09 then type 05", raw[:2])
	}
	r := newReader("tx", raw)
	parsed := decodeTx(r, mainChain)
	if err := r.end(); err != nil {
		t.Fatal(err)
	}
	if diff := txDiff(tx, parsed); diff != "" {
		t.Errorf("main-chain round trip (-built +parsed):\n%s", diff)
	}
	if !bytes.Equal(parsed.Bytes(), raw) {
		t.Error("re-encoding changed the bytes")
	}
	if _, err := ParseTx(raw); !isDecodeError(err, ErrUnsupported, "type", 0) {
		t.Errorf("ParseTx of a main-chain version byte: %v", err)
	}
}

func TestTypeOf(t *testing.T) {
	for name, tx := range sampleTxs(t) {
		if got, err := TypeOf(tx.Bytes()); err != nil || got != tx.Type() {
			t.Errorf("%s: TypeOf = %v, %v; want %v", name, got, err, tx.Type())
		}
	}
	if _, err := TypeOf(nil); !isDecodeError(err, ErrTruncated, "type", 0) {
		t.Errorf("TypeOf(nil): error %v", err)
	}
}

// Encoding a DID operation's transaction, kilobytes long, allocates its
// buffer once (and the writer, which its payload's encoder is handed).
func TestTxEncodingAllocatesOnce(t *testing.T) {
	for _, n := range []int{0, 200, 3000, 70_000} {
		op := didOp("create", "", "")
		op.Payload = strings.Repeat("p", n)
		tx := &Tx{Payload: op, Inputs: []Input{{TxID: Hash{1}}}, Outputs: []Output{{Value: 5}}, LockTime: 9,
			Programs: []Program{{Code: make([]byte, 35), Parameter: make([]byte, 65)}}}
		if a := testing.AllocsPerRun(10, func() { tx.UnsignedBytes() }); a != 2 {
			t.Errorf("payload of %d bytes: UnsignedBytes made %v allocations, want 2", n, a)
		}
		if a := testing.AllocsPerRun(10, func() { tx.Bytes() }); a != 2 {
			t.Errorf("payload of %d bytes: Bytes made %v allocations, want 2", n, a)
		}
	}
}
