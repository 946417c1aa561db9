package eid

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
)

// logData returns the didLog data EID writes for r.
func logData(r idop.Request) string {
	op := ela.Operation{Header: ela.OperationHeader(r.Header), Payload: r.Payload, Proof: ela.OperationProof(r.Proof)}
	return base64.StdEncoding.EncodeToString(op.Bytes())
}

// DecodeLogData reads back every operation of the synthetic histories,
// field for field, and refuses data that is not an operation.
func TestDecodeLogData(t *testing.T) {
	h, _ := standard(t, 1, true)
	h = append(h, foobar(t)...)
	for _, r := range h {
		t.Run(r.req.Header.Operation+" "+r.txid[:8], func(t *testing.T) {
			got, err := DecodeLogData(logData(r.req))
			if err != nil {
				t.Fatal(err)
			}
			if got != r.req {
				t.Errorf("got %+v, want %+v", got, r.req)
			}
		})
	}
	create := h[0].req
	unpadded := strings.TrimRight(logData(create), "=")
	if unpadded == logData(create) {
		unpadded = logData(create)[:len(logData(create))-4]
	}
	noPrevious := h[1].req
	noPrevious.Header.PreviousTxid = ""
	for _, tc := range []struct {
		name, data, msg string
	}{
		{"base64url", base64.URLEncoding.EncodeToString([]byte{0xfb, 0xff}), "not standard base64"},
		{"unpadded", unpadded, "not standard base64"},
		{"empty", "", "truncated"},
		{"trailing bytes", base64.StdEncoding.EncodeToString(append(mustDecode(t, logData(create)), 0)), "trailing data"},
		{"an update without previousTxid", logData(noPrevious), "previousTxid as 64 hex digits"},
		{"too long", strings.Repeat("A", base64.StdEncoding.EncodedLen(ela.MaxBlockSize)+4), "at most"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeLogData(tc.data)
			if idop.RuleOf(err) != idop.RuleMalformed || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("error %v, want a malformed one saying %q", err, tc.msg)
			}
		})
	}
}

func mustDecode(t testing.TB, s string) []byte {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ParseLog reads a didLog and checks that its members agree with its data.
func TestParseLog(t *testing.T) {
	h, subject := standard(t, 0, true)
	fb := foobar(t)
	logOf := func(subject, operation string, r record) []byte {
		return marshal(t, map[string]any{"did": subject, "operation": operation, "data": mustDecode(t, logData(r.req)), "transactionHash": "0x" + r.txid, "removed": false})
	}
	for _, tc := range []struct {
		name string
		log  []byte
		rule idop.Rule // "" accepted
	}{
		{"create", logOf(subject.String(), "create", h[0]), ""},
		{"deactivate", logOf(subject.String(), "deactivate", h[1]), ""},
		{"customized, as written", logOf("did:elastos:foobar", "transfer", fb[1]), ""},
		{"customized, in capitals", logOf("did:elastos:FooBar", "transfer", fb[1]), ""},
		{"operation member differs", logOf(subject.String(), "update", h[0]), idop.RuleMalformed},
		{"another DID", logOf("did:elastos:foobar", "create", h[0]), idop.RuleDocID},
		{"hash not 32 bytes", marshal(t, map[string]any{"did": subject.String(), "operation": "create", "data": mustDecode(t, logData(h[0].req)), "transactionHash": "0x1234"}), idop.RuleMalformed},
		{"not an object", []byte(`[]`), idop.RuleMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := ParseLog(tc.log)
			if err == nil {
				_, err = l.Decode()
			}
			if idop.RuleOf(err) != tc.rule {
				t.Fatalf("error %v, want rule %q", err, tc.rule)
			}
		})
	}
}

func TestTxidOf(t *testing.T) {
	const want = "fb861ddaf27b371a66d0ac456bebe88b23ac95fbfa1f3bfe7e4a8b4b71caa78d"
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{"0x" + want, true},
		{want, true},
		{"0X" + strings.ToUpper(want), true},
		{"0x" + want[:62], false},
		{"0x" + want + "00", false},
		{"0x" + want[:63] + "g", false},
		{"", false},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := TxidOf(tc.in)
			if (err == nil) != tc.ok || tc.ok && got != want {
				t.Fatalf("TxidOf = %q, %v", got, err)
			}
		})
	}
}
