package ela

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"testing"
)

// isDecodeError reports whether err is a *DecodeError of the given kind,
// field and offset.
func isDecodeError(err error, kind error, field string, offset int) bool {
	var de *DecodeError
	return errors.As(err, &de) && errors.Is(err, kind) && de.Field == field && de.Offset == offset
}

// decodeCase is a malformed input and the error it must get.
type decodeCase struct {
	name   string
	in     []byte
	kind   error
	field  string
	offset int
}

func checkDecodeErrors[T any](t *testing.T, parse func([]byte) (T, error), cases []decodeCase) {
	t.Helper()
	for _, tc := range cases {
		_, err := parse(tc.in)
		if !isDecodeError(err, tc.kind, tc.field, tc.offset) {
			t.Errorf("%s: error %v; want %v at %s, offset %d", tc.name, err, tc.kind, tc.field, tc.offset)
		}
	}
}

// patched returns a copy of b with v written at offset at.
func patched(b []byte, at int, v ...byte) []byte {
	c := bytes.Clone(b)
	copy(c[at:], v)
	return c
}

// transfer returns a TransferAsset transaction with no attributes or inputs
// and the given outputs, whose encoding is easy to count: type, payload
// version, attribute count, input count at offsets 0-3, output count at 4,
// the first output's value at 4+1+32 = 37.
func transfer(outputs ...Output) *Tx {
	return &Tx{Payload: &TransferAsset{}, Outputs: outputs}
}

func TestParseTxErrors(t *testing.T) {
	valid := transfer(Output{Value: 5}).Bytes()
	withPayload := func(p Payload, version byte) []byte {
		return (&Tx{PayloadVersion: version, Payload: p}).Bytes()
	}
	longCode := (&Tx{Payload: &TransferAsset{}, Programs: []Program{{Code: make([]byte, MaxProgramCodeSize+1)}}}).Bytes()
	checkDecodeErrors(t, ParseTx, []decodeCase{
		{"empty", nil, ErrTruncated, "type", 0},
		{"trailing byte", append(bytes.Clone(valid), 0), ErrTrailingData, "end", len(valid)},
		{"non-canonical count", append([]byte{0x02, 0x00, 0xfd, 0x01, 0x00}, valid[3:]...), ErrNonCanonical, "attributes", 2},
		{"count beyond the input", []byte{0x02, 0x00, 0xfe, 0x00, 0x00, 0x00, 0x01, 0, 0}, ErrTruncated, "attributes", 2},
		{"count beyond the limit", []byte{0x02, 0x00, 0xfe, 0xff, 0xff, 0xff, 0xff, 0, 0}, ErrTooLarge, "attributes", 2},
		{"negative amount", transfer(Output{Value: -1}).Bytes(), ErrInvalid, "outputs[0].value", 37},
		{"unknown attribute usage", (&Tx{Payload: &TransferAsset{}, Attributes: []Attribute{{Usage: 0x55}}}).Bytes(), ErrInvalid, "attributes[0].usage", 3},
		{"main-chain-only attribute", (&Tx{Payload: &TransferAsset{}, Attributes: []Attribute{{Usage: AttrConfirmations}}}).Bytes(), ErrInvalid, "attributes[0].usage", 3},
		{"withdraw type", []byte{0x07, 0x00}, ErrUnsupported, "type", 0},
		{"retired identification type", []byte{0x09, 0x00}, ErrUnsupported, "type", 0},
		{"unknown type", []byte{0xf0, 0x00}, ErrUnsupported, "type", 0},
		{"oversized program code", longCode, ErrTooLarge, "programs[0].code", 11},
		{"recharge version 2", withPayload(&RechargeToSideChain{}, 2), ErrUnsupported, "payload.version", 2},
		{"negative asset amount", withPayload(&RegisterAsset{Amount: -5}, 0), ErrInvalid, "payload.amount", 7},
		{"negative cross-chain amount", withPayload(&TransferCrossChainAsset{Assets: []CrossChainAsset{{Amount: -1}}}, 0), ErrInvalid, "payload.crosschainassets[0].crosschainamount", 5},
		{"operation text not UTF-8", withPayload(&Operation{Header: OperationHeader{Specification: "\xff"}}, 0), ErrInvalid, "payload.header.specification", 2},
		{"oversized input", make([]byte, MaxBlockSize+1), ErrTooLarge, "size", 0},
	})
}

// Every proper prefix of a valid transaction is truncated, at an offset
// within the prefix.
func TestParseTxTruncated(t *testing.T) {
	for name, tx := range sampleTxs(t) {
		raw := tx.Bytes()
		for n := range len(raw) {
			_, err := ParseTx(raw[:n])
			var de *DecodeError
			if !errors.Is(err, ErrTruncated) || !errors.As(err, &de) || de.Offset > n {
				t.Fatalf("%s cut to %d of %d bytes: error %v, want truncated within the input", name, n, len(raw), err)
			}
		}
	}
}

func TestDecodeErrorMessage(t *testing.T) {
	_, err := ParseTx(transfer(Output{Value: -1}).Bytes())
	const want = "ela: tx: outputs[0].value at offset 37: invalid value: negative amount -0.00000001"
	if err == nil || err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
}

func TestParseBlockErrors(t *testing.T) {
	genesis := GenesisBlock().Bytes()
	headerLen := headerBaseSize + len(GenesisBlock().Header.AuxPow) + 1
	withCount := func(n uint32) []byte {
		b := bytes.Clone(genesis[:headerLen])
		return binary.LittleEndian.AppendUint32(b, n)
	}
	badTx := (&Block{Header: GenesisBlock().Header, Transactions: []*Tx{transfer(Output{Value: -1})}}).Bytes()
	// The AuxPow starts with the main-chain transaction (37 bytes when
	// empty), then the 4-byte Merkle branch count.
	branchCount := headerBaseSize + (&Tx{Payload: &SideChainPow{}}).Size()
	checkDecodeErrors(t, ParseBlock, []decodeCase{
		{"header end byte", patched(genesis, headerLen-1, 0x02), ErrInvalid, "header.end", headerLen - 1},
		{"too many transactions", withCount(MaxTxPerBlock + 1), ErrTooLarge, "transactions", headerLen},
		{"count beyond the input", withCount(2), ErrTruncated, "transactions", headerLen},
		{"AuxPow branch too deep", patched(genesis, branchCount, 65), ErrTooLarge, "header.auxpow.sideauxmerklebranch", branchCount},
		{"AuxPow transaction type", patched(genesis, headerBaseSize, byte(TxRechargeToSideChain)), ErrUnsupported, "header.auxpow.sideauxblocktx.type", headerBaseSize},
		{"bad transaction", badTx, ErrInvalid, "transactions[0].outputs[0].value", headerLen + 4 + 37},
		{"trailing byte", append(bytes.Clone(genesis), 1), ErrTrailingData, "end", len(genesis)},
		{"truncated header", genesis[:50], ErrTruncated, "header.merkleroot", 36},
	})
	for n := range len(genesis) {
		if _, err := ParseBlock(genesis[:n]); !errors.Is(err, ErrTruncated) {
			t.Fatalf("genesis cut to %d bytes: error %v, want truncated", n, err)
		}
	}
}

func TestVarintForms(t *testing.T) {
	for i, tc := range []struct {
		v    uint64
		want string
	}{
		{0, "00"}, {0xfc, "fc"}, {0xfd, "fdfd00"}, {0xffff, "fdffff"},
		{0x10000, "fe00000100"}, {0xffffffff, "feffffffff"}, {0x100000000, "ff0000000001000000"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			w := &writer{}
			w.varint(tc.v)
			if got := hex.EncodeToString(w.b); got != tc.want {
				t.Errorf("varint(%d) = %s, want %s", tc.v, got, tc.want)
			}
			r := newReader("test", w.b)
			if got := r.varint("v"); got != tc.v || r.end() != nil {
				t.Errorf("reading %s: %d, %v", tc.want, got, r.err)
			}
		})
	}
	for _, in := range []string{"fdfc00", "feffff0000", "ffffffffff00000000"} {
		b, _ := hex.DecodeString(in)
		r := newReader("test", b)
		r.varint("v")
		if !errors.Is(r.end(), ErrNonCanonical) {
			t.Errorf("reading %s: error %v, want non-canonical", in, r.err)
		}
	}
}
