package ela

import (
	"bytes"
	"errors"
	"testing"
)

// ParseOperation reads what Operation.Bytes writes, the header's extra
// field only for the operations that carry one, and refuses anything else
// with the kind of failure.
func TestParseOperation(t *testing.T) {
	ok := map[string]*Operation{
		"create":     didOp("create", "", ""),
		"update":     didOp("update", "896fde395ee59f2ebc054d315d94878f1ecd94ac35ff1e74ce68e834d9542e61", ""),
		"transfer":   didOp("transfer", "", "eyJpZCI6ImRpZDplbGFzdG9zOmZvb2JhciJ9"),
		"deactivate": {Header: OperationHeader{Specification: "elastos/did/1.0", Operation: "deactivate"}, Payload: "did:elastos:x", Proof: OperationProof{VerificationMethod: "#primary", Signature: "c2ln"}},
	}
	for name, op := range ok {
		t.Run(name, func(t *testing.T) {
			got, err := ParseOperation(op.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			if *got != *op {
				t.Errorf("got %+v, want %+v", got, op)
			}
		})
	}
	create := didOp("create", "", "").Bytes()
	for _, tc := range []struct {
		name string
		b    []byte
		kind error
	}{
		{"empty", nil, ErrTruncated},
		{"truncated", create[:len(create)-1], ErrTruncated},
		{"trailing byte", append(bytes.Clone(create), 0), ErrTrailingData},
		{"non-canonical length", append([]byte{0xfd, 0x0f, 0x00}, create[1:]...), ErrNonCanonical},
		{"not UTF-8", append([]byte{2, 0xff, 0xfe}, create[16:]...), ErrInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseOperation(tc.b)
			if !errors.Is(err, tc.kind) {
				t.Fatalf("error %v, want %v", err, tc.kind)
			}
		})
	}
	// A previousTxid set on a create is not written, as on the chain.
	op := didOp("create", "896fde395ee59f2ebc054d315d94878f1ecd94ac35ff1e74ce68e834d9542e61", "")
	if !bytes.Equal(op.Bytes(), create) {
		t.Error("a create's previousTxid was written")
	}
}

// FuzzParseOperation: ParseOperation never panics, and what it accepts
// re-encodes byte for byte.
func FuzzParseOperation(f *testing.F) {
	for _, op := range []*Operation{didOp("create", "", ""), didOp("update", "00", ""), didOp("transfer", "", "t")} {
		f.Add(op.Bytes())
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		op, err := ParseOperation(b)
		if err != nil {
			checkDecodeError(t, err)
			return
		}
		if !bytes.Equal(op.Bytes(), b) {
			t.Fatalf("re-encoding changed the bytes:\n got %x\nwant %x", op.Bytes(), b)
		}
	})
}
