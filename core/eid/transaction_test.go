package eid

import (
	"strings"
	"testing"
)

func TestParseTransaction(t *testing.T) {
	h, _ := standard(t, 0, false)
	good := txAnswer(t, h[0], 0x1234, migrationSender)
	tx, err := ParseTransaction(good)
	if err != nil {
		t.Fatal(err)
	}
	if tx.Txid != h[0].txid || tx.Block != 0x1234 || !strings.EqualFold(tx.From, migrationSender) || tx.To != mainnetContract || tx.Request != h[0].req {
		t.Fatalf("read %+v", tx)
	}
	change := func(key string, v any) []byte {
		return edit(t, good, func(r map[string]any) { r[key] = v })
	}
	for _, tc := range []struct {
		name   string
		answer []byte
		msg    string
	}{
		{"the result alone", []byte(`{"hash":"0x` + h[0].txid + `","blockNumber":"0x1","from":"` + migrationSender + `","to":"` + PrecompileAddress + `","input":"0x` + strings.Repeat("00", 32) + `7b7d"}`), "specification"},
		{"pending", change("blockNumber", nil), "is in no block"},
		{"unknown", []byte(`{"jsonrpc":"2.0","id":1,"result":null}`), "does not know"},
		{"an error", []byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"boom"}}`), "answered an error"},
		{"block not a quantity", change("blockNumber", "1234"), "not a quantity"},
		{"block too large", change("blockNumber", "0x10000000000000000"), "not a quantity"},
		{"no sender", change("from", nil), "must be addresses"},
		{"a contract creation", change("to", nil), "must be addresses"},
		{"input not hex", change("input", "0xzz"), "input"},
		{"not a DID operation", change("input", "0xa9059cbb"), "carries no operation"},
		{"hash not 32 bytes", change("hash", "0x12"), "hash"},
		{"not JSON", []byte(`{"result":`), "eid:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseTransaction(tc.answer)
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("error %v, want one saying %q", err, tc.msg)
			}
		})
	}
}

func TestParseChainID(t *testing.T) {
	for _, tc := range []struct {
		answer string
		want   uint64
		ok     bool
	}{
		{`{"jsonrpc":"2.0","id":1,"result":"0x16"}`, 22, true},
		{`"0x17"`, 23, true},
		{`{"jsonrpc":"2.0","id":1,"result":22}`, 0, false},
		{`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}`, 0, false},
		{`{"jsonrpc":"2.0","id":1}`, 0, false},
		{`"0x"`, 0, false},
	} {
		t.Run(tc.answer, func(t *testing.T) {
			got, err := ParseChainID([]byte(tc.answer))
			if (err == nil) != tc.ok || got != tc.want {
				t.Fatalf("ParseChainID = %d, %v", got, err)
			}
			if tc.ok && NetworkOf(got).ChainID != got {
				t.Errorf("NetworkOf(%d) = %+v", got, NetworkOf(got))
			}
		})
	}
}
