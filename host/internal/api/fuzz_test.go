package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/jsonrpc"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// The fuzz targets send arbitrary input to the handlers of a server on a
// real chain, in process: whatever arrives, the answer is well-formed JSON
// with the status the interface promises, never a 500 or a panic.

func fuzzServer(f *testing.F) *Server {
	c, err := chain.Open(chain.Config{DB: mem.New()})
	if err != nil {
		f.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	f.Cleanup(func() {
		cancel()
		<-done
		c.Close()
	})
	return New(c, Options{})
}

func serve(h http.Handler, method, path string, body []byte) *httptest.ResponseRecorder {
	r := &http.Request{Method: method, URL: &url.URL{Path: path}, Header: http.Header{}, Body: http.NoBody,
		ContentLength: int64(len(body)), RemoteAddr: "192.0.2.1:1", Host: "node"}
	if len(body) > 0 {
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r.WithContext(context.Background()))
	return w
}

func FuzzRPC(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","method":"resolvedid","params":{"did":"did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y","all":true},"id":1}`,
		`[{"method":"did_resolveDID","params":[{"did":"foo"}],"id":"a"},{"method":"query","params":{"query":"{credential.type:'X'}"}}]`,
		`{"method":"query","params":{"service":"HiveVault","skip":3,"limit":300}}`,
		`{"method":"listcredentials","params":{"did":"x","skip":-1}}`,
		`{"method":"dev_increaseTime","params":{"seconds":0}}`,
		`{"method":"dev_setNextBlockTime","params":{"time":"2025-06-01T00:00:00Z"}}`,
		`{"method":"dev_reset","params":[{"time":1}]}`,
		`{"method":"dev_revert","params":{"id":"0xffffffffffffffff1"}}`,
		`{"method":"dev_mine","params":["0x2",60]}`, `{"method":"evm_increaseTime","params":["0x3c"]}`,
		`{"method":"evm_mine","params":[{"timestamp":1,"blocks":2}]}`, `{"method":"evm_revert","params":["0x1"]}`,
		`{"method":"resolvecredential","params":{"id":"#a","issuer":5}}`,
		`{"id":null,"jsonrpc":"","method":"getblock","params":{"blockhash":"` + strings.Repeat("0", 64) + `","verbosity":"2"}}`,
		`[{"method":"getblockhash","params":["0"]},{"method":"listunspent","params":[["EYGSgJEYrhjKe3vgiazVWR8RnAtiqERGjK"]]}]`,
		`[]`, `{`, `null`, `[1,2]`, `{"id":1.5}`,
		`{"jsonrpc":"2.0","method":"resolvedid","params":{"did":"x"}}`, `[{"jsonrpc":"2.0","method":"x"},{"jsonrpc":"","method":"query","id":1}]`,
	} {
		f.Add([]byte(seed))
	}
	h := fuzzServer(f).rpcHandler()
	f.Fuzz(func(t *testing.T, body []byte) {
		w := serve(h, "POST", "/", body)
		if strings.Contains(w.Body.String(), "Go struct") || strings.Contains(w.Body.String(), "json: ") {
			t.Fatalf("%q: answer %s speaks Go", body, w.Body)
		}
		if w.Code == http.StatusNoContent && w.Body.Len() == 0 && onlyNotifications(body) {
			return
		}
		if w.Code != http.StatusOK {
			t.Fatalf("%q: status %d", body, w.Code)
		}
		var one map[string]json.RawMessage
		var many []map[string]json.RawMessage
		if json.Unmarshal(w.Body.Bytes(), &one) != nil && (json.Unmarshal(w.Body.Bytes(), &many) != nil || len(many) == 0) {
			t.Fatalf("%q: answer %s is neither a response nor a batch", body, w.Body)
		}
	})
}

// FuzzChainParams sends the chain's general methods arbitrary params: the
// answer is a result, or an error with one of the codes they answer bad
// input with.
func FuzzChainParams(f *testing.F) {
	methods := []string{"getblockhash", "getblock", "getblockbyheight", "getrawtransaction", "sendrawtransaction",
		"getreceivedbyaddress", "listunspent", "getblockcount", "eth_blockNumber", "getutxosbyamount"}
	for i, seed := range []string{
		`[0]`, `["` + strings.Repeat("0", 64) + `", 0]`, `{"height":"4294967295"}`, `["` + strings.Repeat("0", 64) + `", 1]`,
		`["0a00"]`, `{"address":"EYGSgJEYrhjKe3vgiazVWR8RnAtiqERGjK","spendable":true}`, `[["EYGSgJEYrhjKe3vgiazVWR8RnAtiqERGjK", 5]]`, `{}`, `[]`,
		`{"addresses":["EYGSgJEYrhjKe3vgiazVWR8RnAtiqERGjK"],"utxotype":"mixed","spendable":true}`,
		`{"address":"EYGSgJEYrhjKe3vgiazVWR8RnAtiqERGjK","amount":"1.5","utxotype":"unused"}`,
	} {
		f.Add(byte(i), []byte(seed))
	}
	h := fuzzServer(f).rpcHandler()
	f.Fuzz(func(t *testing.T, which byte, params []byte) {
		if !json.Valid(params) {
			return // a body that is not JSON is FuzzRPC's
		}
		method := methods[int(which)%len(methods)]
		body := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":1,"method":%q,"params":%s}`, method, params)
		w := serve(h, "POST", "/", body)
		var r struct {
			Result json.RawMessage
			Error  *struct{ Code int }
		}
		if w.Code != http.StatusOK || json.Unmarshal(w.Body.Bytes(), &r) != nil || (r.Error == nil) == (r.Result == nil) {
			t.Fatalf("%s %s: %d %s", method, params, w.Code, w.Body)
		}
		if r.Error != nil {
			switch c := r.Error.Code; {
			case c == -32602, c == -32004, c == -32002, c == -32000, c >= 45000 && c < 46000:
			default:
				t.Fatalf("%s %s: code %d: %s", method, params, c, w.Body)
			}
		}
	})
}

func FuzzRESTPath(f *testing.F) {
	for _, seed := range []string{
		"block/height", "block/hash/0", "block/details/height/4294967296", "block/details/hash/" + strings.Repeat("0", 64),
		"confirm/details/height/x", "confirm/details/hash/zz", "transaction/" + strings.Repeat("f", 64),
		"asset/balances/EYGSgJEYrhjKe3vgiazVWR8RnAtiqERGjK", "asset/utxo/E/" + strings.Repeat("a", 64), "asset/", "node/state",
	} {
		f.Add(seed)
	}
	h := fuzzServer(f).restHandler()
	f.Fuzz(func(t *testing.T, path string) {
		w := serve(h, "GET", "/api/v1/"+path, nil)
		switch {
		case w.Code/100 == 3 && w.Header().Get("Location") != "": // the mux redirects a//b and a/../b to the clean path
		case w.Code != http.StatusOK || !json.Valid(w.Body.Bytes()):
			t.Fatalf("GET %q: %d %s", path, w.Code, w.Body)
		}
	})
}

func FuzzBroadcast(f *testing.F) {
	for _, seed := range []string{
		`{"Action":"sendrawtransaction","data":"00"}`, `{"data":"0a00000000"}`, `{"Action":5}`, `[]`, ``,
	} {
		f.Add([]byte(seed))
	}
	h := fuzzServer(f).restHandler()
	f.Fuzz(func(t *testing.T, body []byte) {
		w := serve(h, "POST", "/api/v1/transaction", body)
		var e envelope
		if w.Code != http.StatusOK || json.Unmarshal(w.Body.Bytes(), &e) != nil || e.Desc == "" {
			t.Fatalf("%q: %d %s", body, w.Code, w.Body)
		}
	})
}

func FuzzIDTx(f *testing.F) {
	for _, seed := range []string{
		`{"header":{"specification":"elastos/did/1.0","operation":"create"},"payload":"e30","proof":{"verificationMethod":"#primary","signature":"AA"}}`,
		`{"header":{"specification":"elastos/did/1.0","operation":"deactivate"},"payload":"did:elastos:x","proof":{"verificationMethod":"#primary","signature":"AA"}}`,
		`{}`, `[`, ``,
	} {
		f.Add([]byte(seed))
	}
	h := fuzzServer(f).rpcHandler()
	f.Fuzz(func(t *testing.T, body []byte) {
		w := serve(h, "POST", "/idtx", body)
		if w.Code != http.StatusAccepted && (w.Code != http.StatusBadRequest || !json.Valid(w.Body.Bytes())) {
			t.Fatalf("%q: %d %s", body, w.Code, w.Body)
		}
	})
}

// onlyNotifications reports whether every call of a body is a notification,
// to which nothing is answered.
func onlyNotifications(body []byte) bool {
	calls, _, err := jsonrpc.Decode(body)
	if err != nil {
		return false
	}
	for _, c := range calls {
		if !c.Notification || c.Err != nil {
			return false
		}
	}
	return true
}
