package eid

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/didlight/didlight/core/did/sdkjson"
	"github.com/didlight/didlight/host/client"
)

// FuzzDecodeAnswer checks the reading of any answer: a result only from a
// 2.0 answer with the request's id, every other answer one of the
// client's errors, of bounded length whatever the answer's.
func FuzzDecodeAnswer(f *testing.F) {
	const id = "0123456789abcdef0123456789abcdef"
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":"` + id + `","result":"0x10"}`,
		`{"jsonrpc":"2.0","id":"` + id + `","result":null}`,
		`{"jsonrpc":"2.0","id":"` + id + `","error":{"code":-32601,"message":"the method resolvedid does not exist/is not available"}}`,
		`{"jsonrpc":"2.0","id":"` + id + `","error":{"code":-32000,"message":"did is null","data":{"x":1}}}`,
		`{"jsonrpc":"2.0","id":"` + id + `","error":null,"result":{"did":"did:elastos:x","status":3}}`,
		`{"jsonrpc":"2.0","id":1,"result":"0x10"}`,
		`{"id":"` + id + `","result":"0x10"}`,
		`{"Desc":"Success","Error":0,"Result":60}`,
		`[{"jsonrpc":"2.0"}]`, `<html>`, ``, `null`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		result, err := decodeAnswer(b, id, "http://127.0.0.1:1")
		if err == nil {
			if !json.Valid(result) || !bytes.Contains(b, []byte(`"`+id+`"`)) {
				t.Fatalf("answer %q gave result %q", b, result)
			}
			return
		}
		if len(err.Error()) > 2000 {
			t.Fatalf("an error of %d bytes for an answer of %d", len(err.Error()), len(b))
		}
		_, rpc := err.(*client.RPCError)
		_, unreachable := err.(*client.UnreachableError)
		if !rpc && !(unreachable && (errors.Is(err, ErrNotJSONRPC) || errors.Is(err, ErrWrongID))) {
			t.Fatalf("answer %q: error %T %v", b, err, err)
		}
	})
}

// FuzzQuantity checks parseQuantity against the form it takes.
func FuzzQuantity(f *testing.F) {
	for _, s := range []string{"0x0", "0x11ec77", "0xffffffffffffffff", "0x10000000000000000", "0x", "11", "0X1", "0x0001", "-0x1", "0x+1", "0x_1"} {
		f.Add(s)
	}
	form := regexp.MustCompile(`^0x[0-9a-fA-F]{1,16}$`)
	f.Fuzz(func(t *testing.T, s string) {
		v, err := parseQuantity(s)
		if (err == nil) != form.MatchString(s) {
			t.Fatalf("parseQuantity(%q) = %d, %v", s, v, err)
		}
		if err != nil {
			return
		}
		want := strings.TrimLeft(strings.ToLower(s[2:]), "0")
		if got := strconv.FormatUint(v, 16); got != want && !(v == 0 && want == "") {
			t.Fatalf("parseQuantity(%q) = %#x", s, v)
		}
	})
}

// FuzzChainAnswers checks that a block or transaction is taken only well
// formed, and only the one asked for.
func FuzzChainAnswers(f *testing.F) {
	hash := "0x" + strings.Repeat("ab", 32)
	f.Add([]byte(`{"number":"0x10","hash":"` + hash + `","parentHash":"` + hash + `","timestamp":"0x60cb7400"}`))
	f.Add([]byte(`{"number":"0x10","hash":"` + hash + `","parentHash":"` + hash + `","timestamp":"0xffffffffffffffff"}`))
	f.Add([]byte(`{"hash":"` + hash + `","blockHash":"` + hash + `","blockNumber":"0x10","from":"0x` + strings.Repeat("12", 20) + `","to":null}`))
	f.Add([]byte(`{"hash":"` + strings.ToUpper(hash) + `","blockNumber":null,"from":"0x` + strings.Repeat("12", 20) + `"}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		if b, err := decodeBlock(raw, "latest"); err == nil && b != nil {
			if len(b.Hash) != 66 || b.Hash != strings.ToLower(b.Hash) || b.Time.Location() != time.UTC || b.Time.Unix() < 0 {
				t.Fatalf("block %+v from %q", b, raw)
			}
		}
		if b, err := decodeBlock(raw, "0x10"); err == nil && b != nil && b.Number != 16 {
			t.Fatalf("asked for block 16, took %d from %q", b.Number, raw)
		}
		tx, err := decodeTransaction(raw, hash)
		if err != nil || tx == nil {
			return
		}
		placed := len(tx.BlockHash) == 66
		if tx.Pending && (tx.BlockHash != "" || tx.BlockNumber != 0) {
			placed = false
		}
		if tx.Hash != hash || len(tx.From) != 42 || (tx.To != "" && len(tx.To) != 42) || placed == tx.Pending {
			t.Fatalf("transaction %+v from %q", tx, raw)
		}
	})
}

// FuzzRetryAfter checks that a Retry-After never asks for a negative wait
// or one past maxRetryAfter.
func FuzzRetryAfter(f *testing.F) {
	for _, s := range []string{"0", "120", "4294967296", "-1", "Wed, 21 Oct 2015 07:28:00 GMT", "Fri, 31 Dec 9999 23:59:59 GMT", " 5"} {
		f.Add(s)
	}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	f.Fuzz(func(t *testing.T, v string) {
		if d := retryAfter(v, now); d < 0 || d > maxRetryAfter {
			t.Fatalf("retryAfter(%q) = %v", v, d)
		}
	})
}

// FuzzReadAnswer checks readAnswer against encoding/json, which it stands
// in for: on any JSON text that is UTF-8 and nested no deeper than the
// scanner reads, both take the same members, or both refuse it.
func FuzzReadAnswer(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":"a","result":{"did":"did:elastos:x","status":3}}`,
		`{"JSONRPC":"2.0","Id":1,"RESULT":[1,2],"result":null}`,
		`{"jsonrpc":null,"id":null,"error":{"code":-32000,"message":"did is not exist","data":{"x":[1]}}}`,
		`{"error":null,"result":"0x10","other":{"a":[{}]}}`,
		`{"error":{"code":1.5}}`, `{"jsonrpc":2}`, `null`, `[]`, `{"id":"\u00e9"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) || !utf8.Valid(b) || depth(b) > sdkjson.MaxDepth-2 {
			return
		}
		var want struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Result  json.RawMessage `json:"result"`
			Error   *struct {
				Code    int             `json:"code"`
				Message string          `json:"message"`
				Data    json.RawMessage `json:"data"`
			} `json:"error"`
		}
		werr := json.Unmarshal(b, &want)
		got, gerr := readAnswer(b)
		if (werr == nil) != (gerr == nil) && !(werr == nil && string(bytes.TrimSpace(b)) == "null") {
			t.Fatalf("%q: encoding/json %v, readAnswer %v", b, werr, gerr)
		}
		if werr != nil || gerr != nil {
			return
		}
		same := got.JSONRPC == want.JSONRPC && bytes.Equal(got.ID, want.ID) && bytes.Equal(got.Result, want.Result) && (got.Error == nil) == (want.Error == nil)
		if same && got.Error != nil {
			same = got.Error.Code == want.Error.Code && got.Error.Message == want.Error.Message && bytes.Equal(got.Error.Data, want.Error.Data)
		}
		if !same {
			t.Fatalf("%q: encoding/json %+v, readAnswer %+v", b, want, got)
		}
	})
}

// depth is how deep a JSON text nests.
func depth(b []byte) int {
	d, most, inString := 0, 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case !inString && (c == '{' || c == '['):
			d++
			most = max(most, d)
		case !inString && (c == '}' || c == ']'):
			d--
		}
	}
	return most
}

// FuzzDecodeBatch checks the reading of any answer to a batch: results
// only when each request is answered exactly once, every other answer one
// of the client's errors.
func FuzzDecodeBatch(f *testing.F) {
	ids := []string{"0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210"}
	a := func(id, rest string) string { return `{"jsonrpc":"2.0","id":"` + id + `",` + rest + `}` }
	for _, s := range []string{
		`[` + a(ids[1], `"result":null`) + `,` + a(ids[0], `"result":"0x1"`) + `]`,
		`[` + a(ids[0], `"result":1`) + `]`,
		`[` + a(ids[0], `"result":1`) + `,` + a(ids[0], `"result":1`) + `]`,
		`[` + a(ids[0], `"result":1`) + `,` + a(ids[1], `"error":{"code":-32000,"message":"x"}`) + `]`,
		a(ids[0], `"result":1`), `[]`, `[1,2]`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		results, err := decodeBatch(b, ids, "http://127.0.0.1:1")
		if err == nil {
			for i, r := range results {
				if !json.Valid(r) || !bytes.Contains(b, []byte(`"`+ids[i]+`"`)) {
					t.Fatalf("batch answer %q gave results %q", b, results)
				}
			}
			if len(results) != len(ids) {
				t.Fatalf("batch answer %q gave %d results", b, len(results))
			}
			return
		}
		_, rpc := err.(*client.RPCError)
		_, unreachable := err.(*client.UnreachableError)
		if !rpc && !(unreachable && (errors.Is(err, ErrNotJSONRPC) || errors.Is(err, ErrWrongID))) {
			t.Fatalf("batch answer %q: error %T %v", b, err, err)
		}
	})
}

// FuzzScanAnswers checks that a block with its transactions and a
// receipt are taken only well formed, and only the ones asked for.
func FuzzScanAnswers(f *testing.F) {
	hash := "0x" + strings.Repeat("ab", 32)
	addr := "0x" + strings.Repeat("12", 20)
	f.Add([]byte(`{"number":"0x10","hash":"` + hash + `","parentHash":"` + hash + `","timestamp":"0x60cb7400","transactions":[{"hash":"` + hash + `","blockHash":"` + hash + `","transactionIndex":"0x0","from":"` + addr + `","to":null}]}`))
	f.Add([]byte(`{"transactionHash":"` + hash + `","blockHash":"` + hash + `","blockNumber":"0x10","transactionIndex":"0x0","status":"0x1","didLog":{"did":"did:elastos:x","operation":"create","data":"AA==","removed":false}}`))
	f.Add([]byte(`{"transactionHash":"` + hash + `","blockHash":"` + hash + `","blockNumber":"0x10","transactionIndex":"0x3","status":"0x0"}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		if b, err := decodeTxBlock(raw, 16); err == nil && b != nil {
			if b.Number != 16 || len(b.Hash) != 66 || len(b.ParentHash) != 66 {
				t.Fatalf("block %+v from %q", b, raw)
			}
			for i, tx := range b.Txs {
				if tx.Index != uint32(i) || len(tx.Hash) != 66 || len(tx.From) != 42 || (tx.To != "" && len(tx.To) != 42) {
					t.Fatalf("transaction %d %+v from %q", i, tx, raw)
				}
			}
		}
		r, err := decodeReceipt(raw, hash)
		if err != nil || r == nil {
			return
		}
		if r.TxHash != hash || len(r.BlockHash) != 66 || r.Status > 1 || (r.DIDLog != nil && (r.Status != 1 || r.DIDLog.Data == "")) {
			t.Fatalf("receipt %+v from %q", r, raw)
		}
	})
}
