package api_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/keys"
)

// Every REST path with good input, on a chain that has a few blocks.
func TestRESTReads(t *testing.T) {
	n := startNode(t, 0)
	id := newIdentity(t, "rest")
	n.publish(id, id.create(yearFromNow(), id.service("hive", "HiveVault")))
	tip := n.height()
	if tip < 1 {
		t.Fatalf("height %d after a published DID", tip)
	}

	var count int
	n.ok("/node/connectioncount", &count)
	var state struct {
		Compile                                   string
		ID                                        uint64
		HexID                                     string
		Height                                    uint32
		Version                                   int
		Services                                  uint64
		Relay                                     bool
		TxnCnt, RxTxnCnt                          uint64
		Port, PRCPort, RestPort, WSPort, OpenPort int
		OpenService                               bool
		Neighbors                                 []json.RawMessage
	}
	e := n.get("/node/state")
	strict(t, e.Result, &state)
	if count != 0 || state.Compile != "test" || state.Height != tip || state.HexID != "0x"+strconv.FormatUint(state.ID, 16) ||
		state.Neighbors == nil || len(state.Neighbors) != count || state.TxnCnt < 3 || state.RxTxnCnt < 1 ||
		state.RestPort != port(t, n.rest) || state.PRCPort != port(t, n.rpcURL) {
		t.Errorf("node state %s (connections %d), want height %d, ports of %s and %s", e.Result, count, tip, n.rest, n.rpcURL)
	}

	// Blocks by height and by hash agree, and carry every byte of the block.
	for h := uint32(0); h <= tip; h++ {
		var hash string
		n.ok("/block/hash/"+itoa(h), &hash)
		var full, short ela.BlockJSON
		n.ok("/block/details/height/"+itoa(h), &full)
		n.ok("/block/details/hash/"+hash, &short)
		b, err := full.Block()
		if err != nil || b.Hash().String() != hash || full.Hash != hash || short.Hash != hash || full.Height != h || full.Confirmations != tip-h+1 {
			t.Fatalf("block %d: %s %+v (%v)", h, hash, full, err)
		}
		var txs struct {
			Hash         string
			Height       uint32
			Transactions []string
		}
		n.ok("/block/transactions/height/"+itoa(h), &txs)
		var shortHashes []string
		for _, tx := range short.Tx {
			raw, _ := tx.MarshalJSON()
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				t.Fatalf("block %s by hash: tx %s is not a hash", hash, raw)
			}
			shortHashes = append(shortHashes, s)
		}
		var want []string
		for _, tx := range b.Transactions {
			want = append(want, tx.Hash().String())
		}
		if txs.Hash != hash || txs.Height != h || !slices.Equal(txs.Transactions, want) || !slices.Equal(shortHashes, want) {
			t.Errorf("block %d transactions %+v, by hash %v; want %v", h, txs, shortHashes, want)
		}
		n.checkConfirm("/confirm/details/height/"+itoa(h), hash)
		n.checkConfirm("/confirm/details/hash/"+hash, hash)
	}

	// Genesis registers the native asset; its transaction reads back whole.
	asset := ela.ELAAssetID().String()
	var tx ela.TxJSON
	n.ok("/transaction/"+asset, &tx)
	if back, err := tx.Tx(); err != nil || back.Hash().String() != asset || tx.Type != ela.TxRegisterAsset || tx.Confirmations != tip+1 || tx.BlockHash == "" {
		t.Errorf("transaction %s: %+v (%v)", asset, tx, err)
	}
	var info struct {
		Name, Description                string
		Precision, AssetType, RecordType int
	}
	for _, h := range []string{asset, strings.Repeat("ab", 32)} {
		n.ok("/asset/"+h, &info)
		if info.Name != "ELA" || info.Precision != 8 {
			t.Errorf("asset %s: %+v, want the native asset", h, info)
		}
	}

	// The dev account's balance is the sum of its unspent outputs, in every form.
	dev := n.chain.DevAccount().Address
	var balance, byAsset, other string
	n.ok("/asset/balances/"+dev, &balance)
	n.ok("/asset/balance/"+dev+"/"+asset, &byAsset)
	n.ok("/asset/balance/"+dev+"/"+strings.Repeat("ab", 32), &other)
	var groups []struct {
		AssetId, AssetName string
		Utxo               []utxo
	}
	n.ok("/asset/utxos/"+dev, &groups)
	var flat []utxo
	n.ok("/asset/utxo/"+dev+"/"+asset, &flat)
	var none []utxo
	n.ok("/asset/utxo/"+dev+"/"+strings.Repeat("ab", 32), &none)
	if len(groups) != 1 || groups[0].AssetId != asset || groups[0].AssetName != "ELA" || !slices.Equal(groups[0].Utxo, flat) ||
		sum(t, flat) != balance || byAsset != balance || other != "0.00000000" || none == nil || len(none) != 0 {
		t.Errorf("balances %s %s %s; utxos %+v, by asset %+v, other asset %v", balance, byAsset, other, groups, flat, none)
	}
	stranger := address(newIdentity(t, "stranger").key).Address()
	n.ok("/asset/balances/"+stranger, &balance)
	n.ok("/asset/utxos/"+stranger, &groups)
	if balance != "0.00000000" || groups == nil || len(groups) != 0 {
		t.Errorf("an unused address: balance %s, utxos %+v", balance, groups)
	}
}

type utxo struct {
	Txid  string
	Index uint16
	Value string
}

func sum(t *testing.T, us []utxo) string {
	var total ela.Fixed64
	for _, u := range us {
		v, err := ela.ParseFixed64(u.Value)
		if err != nil {
			t.Fatal(err)
		}
		total += v
	}
	return total.String()
}

// checkConfirm reads a confirm endpoint: the JSON-RPC style envelope with a
// confirm of block hash that verifies.
func (n *node) checkConfirm(path, hash string) {
	n.t.Helper()
	_, _, body := n.do("GET", n.rest+path, "", nil)
	var e struct {
		Error   json.RawMessage
		ID      json.RawMessage
		JSONRPC string
		Result  ela.ConfirmJSON
	}
	strict(n.t, body, &e)
	c, err := e.Result.Confirm()
	if string(e.Error) != "null" || string(e.ID) != "null" || e.JSONRPC != "2.0" || err != nil || e.Result.BlockHash != hash || len(e.Result.Votes) != 1 {
		n.t.Fatalf("GET %s: %s (%v), want the confirm of %s with one vote", path, body, err, hash)
	}
	if err := c.Verify(keys.Native{}); err != nil {
		n.t.Errorf("GET %s: the confirm does not verify: %v", path, err)
	}
}

// Bad path parameters get 42002, unknown ones 44001/44003, and paths or
// methods the API does not have 42001: never a 500.
func TestRESTBadInput(t *testing.T) {
	n := startNode(t, 0)
	zeros := strings.Repeat("0", 64)
	dev := n.chain.DevAccount().Address
	badChecksum := dev[:len(dev)-1] + map[bool]string{true: "b", false: "a"}[dev[len(dev)-1] == 'a']
	badHeights := []string{"abc", "-1", "+1", "1.5", "0x1", "4294967296", "99999999999999999999", url.PathEscape(" 1")}
	badHashes := []string{"xyz", zeros[:63], zeros + "0", strings.Repeat("g", 64), url.PathEscape(zeros[:62] + " 0")}
	badAddrs := []string{"nope", "0OIl" + dev[4:], badChecksum, dev[:10], dev + "1"}
	for _, h := range badHeights {
		for _, path := range []string{"/block/hash/", "/block/details/height/", "/block/transactions/height/"} {
			n.fails(path+h, 42002, "height")
		}
		n.confirmFails("/confirm/details/height/"+h, 42002, "height")
	}
	for _, path := range []string{"/block/hash/", "/block/details/height/", "/block/transactions/height/"} {
		n.fails(path+"4294967295", 44003, "no block at height 4294967295")
		n.fails(path+"1", 44003, "no block at height 1")
	}
	n.confirmFails("/confirm/details/height/7", 44003, "no block at height 7")
	for _, h := range badHashes {
		n.fails("/block/details/hash/"+h, 42002, "hash")
		n.fails("/transaction/"+h, 42002, "hash")
		n.fails("/asset/"+h, 42002, "hash")
		n.fails("/asset/balance/"+dev+"/"+h, 42002, "assetid")
		n.fails("/asset/utxo/"+dev+"/"+h, 42002, "assetid")
		n.confirmFails("/confirm/details/hash/"+h, 42002, "hash")
	}
	n.fails("/block/details/hash/"+zeros, 44003, "no block "+zeros)
	n.confirmFails("/confirm/details/hash/"+zeros, 44003, "no block "+zeros)
	n.fails("/transaction/"+zeros, 44001, "no transaction "+zeros)
	for _, a := range badAddrs {
		n.fails("/asset/balances/"+a, 42002, "addr")
		n.fails("/asset/utxos/"+a, 42002, "addr")
		n.fails("/asset/balance/"+a+"/"+zeros, 42002, "addr")
		n.fails("/asset/utxo/"+a+"/"+zeros, 42002, "addr")
	}
	for _, path := range []string{"/nope", "/block/hash/", "/block/height/1", "/asset/balance/" + dev, "/transaction"} {
		n.fails(path, 42001, "is not an endpoint")
	}
	status, _, body := n.do("POST", n.rest+"/block/height", "application/json", []byte("{}"))
	n.checkFailure("POST /block/height", n.envelope(status, body), 42001, "POST /api/v1/block/height is not an endpoint")
	status, _, body = n.do("GET", strings.TrimSuffix(n.rest, "/api/v1")+"/", "", nil)
	n.checkFailure("GET /", n.envelope(status, body), 42001, "is not an endpoint")
}

// confirmFails reads a confirm endpoint that must fail: the JSON-RPC style
// envelope with the ELA code and its text, the detail in data.
func (n *node) confirmFails(path string, code int, want string) {
	n.t.Helper()
	status, _, body := n.do("GET", n.rest+path, "", nil)
	var e struct {
		Error *struct {
			Code    int
			Message string
			Data    string
		}
		ID      json.RawMessage
		JSONRPC string
		Result  json.RawMessage
	}
	strict(n.t, body, &e)
	if status != http.StatusOK || e.Error == nil || e.Error.Code != code || !strings.Contains(e.Error.Data, want) || string(e.Result) != "null" {
		n.t.Errorf("GET %s: %d %s, want error %d with %q", path, status, body, code, want)
	}
}

// Both listeners let pages on other origins call them.
func TestCORS(t *testing.T) {
	n := startNode(t, 0)
	for _, u := range []string{n.rest + "/block/height", n.rest + "/transaction", n.rpcURL, n.rpcURL + "idtx"} {
		status, h, _ := n.do("OPTIONS", u, "", nil, "Origin", "https://app.example", "Access-Control-Request-Method", "POST")
		if status != http.StatusNoContent || h.Get("Access-Control-Allow-Origin") != "*" || !strings.Contains(h.Get("Access-Control-Allow-Headers"), "Content-Type") {
			t.Errorf("OPTIONS %s: %d %v", u, status, h)
		}
	}
	_, h, _ := n.do("GET", n.rest+"/block/height", "", nil)
	_, h2, _ := n.do("POST", n.rpcURL, "application/json", []byte(`{"method":"resolvedid","params":{"did":"x"}}`))
	if h.Get("Access-Control-Allow-Origin") != "*" || h2.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("answers lack Access-Control-Allow-Origin: REST %v, RPC %v", h, h2)
	}
}

// strict decodes JSON refusing unknown members, so that a shape test sees
// every member the server writes.
func strict(t testing.TB, b []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
}

func port(t testing.TB, rawURL string) int {
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := strconv.Atoi(u.Port())
	return p
}
