package api_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/host/client"
	"github.com/didlight/didlight/host/internal/wire"
)

// The chain's general JSON-RPC methods answer what the REST API answers for
// the same data: blocks by both verbosities, transactions pooled and mined,
// balances and outputs before and after a payment. Every call is made with
// named params, with positional ones, in ela-cli's envelope and in a batch,
// and all four must give the same result.
func TestChainRPCAgreesWithREST(t *testing.T) {
	n := startNode(t, time.Hour) // blocks only when dev_mine asks
	id := newIdentity(t, "chainrpc")
	if e := n.broadcast(n.devTx(n.devUTXOs()[0], operation(id.create(yearFromNow())), 100, nil).Bytes()); e.Error != 0 {
		t.Fatalf("broadcast of a DID create: %+v", e)
	}
	n.result("dev_mine", nil, &struct{}{})
	dev := n.chain.DevAccount().Address
	payee := address(newIdentity(t, "chainrpc payee").key).Address()

	n.checkBalances(dev, payee)
	if got := n.chainCall("listunspent", []string{"addresses"}, []string{payee}); string(got) != "null" {
		t.Errorf("listunspent of an unused address: %s, want null", got)
	}
	n.checkMempool()

	// Pooled: in the mempool, readable with no block.
	pay := n.devTx(n.devUTXOs()[0], &ela.TransferAsset{}, 100, map[ela.ProgramHash]ela.Fixed64{mustAddress(t, payee): 3 * ela.OneELA})
	n.sendOnce(pay)
	if pool := n.checkMempool(); len(pool) != 1 {
		t.Errorf("mempool after the payment: %d transactions", len(pool))
	}
	n.checkTx(pay.Hash().String(), 0)
	n.checkBalances(dev, payee) // pooled transactions do not count

	var mined struct{ Height uint32 }
	n.result("dev_mine", nil, &mined)
	n.checkTx(pay.Hash().String(), 1)
	n.checkMempool()
	n.checkBalances(dev, payee)
	var balance string
	n.ok("/asset/balances/"+payee, &balance)
	if balance != "3.00000000" {
		t.Errorf("payee holds %s after the payment, want 3", balance)
	}

	tip := n.height()
	if tip != mined.Height {
		t.Fatalf("tip %d, mined %d", tip, mined.Height)
	}
	for h := uint32(0); h <= tip; h++ {
		n.checkBlock(h, tip)
	}
	n.checkCounts(tip)
	n.checkNode()
}

// chainCall calls method with params (given as names and values), named,
// positional, in the envelope ela-cli sends (jsonrpc "", id null,
// text/plain, Basic auth with empty credentials) and as a batch of the
// first two, and returns the result, which every form must give alike.
func (n *node) chainCall(method string, names []string, values ...any) json.RawMessage {
	n.t.Helper()
	named := map[string]any{}
	for i, name := range names {
		named[name] = values[i]
	}
	body := func(id string, params any) string {
		p, err := json.Marshal(params)
		if err != nil {
			n.t.Fatal(err)
		}
		return fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":%s,"id":%s}`, method, p, id)
	}
	byName, byPosition := body("1", named), body(`"p"`, values)
	results := []json.RawMessage{n.ok1(method, byName, "1"), n.ok1(method, byPosition, `"p"`)}

	p, _ := json.Marshal(named)
	elaCLI := fmt.Sprintf(`{"id":null,"jsonrpc":"","method":%q,"params":%s}`, method, p)
	status, _, b := n.do("POST", n.rpcURL, "text/plain", []byte(elaCLI), "Authorization", "Basic Og==")
	if status != http.StatusOK {
		n.t.Fatalf("%s from ela-cli: status %d: %s", method, status, b)
	}
	results = append(results, n.okResult(method, n.decode(b), "null"))

	var batch []rpcResponse
	if err := json.Unmarshal(n.post("", "["+byName+","+byPosition+"]"), &batch); err != nil || len(batch) != 2 {
		n.t.Fatalf("%s in a batch: %v %+v", method, err, batch)
	}
	results = append(results, n.okResult(method, batch[0], "1"), n.okResult(method, batch[1], `"p"`))
	for i, r := range results[1:] {
		if !bytes.Equal(r, results[0]) {
			n.t.Fatalf("%s: form %d answered %s, named params %s", method, i+1, r, results[0])
		}
	}
	return results[0]
}

// ok1 posts one call and returns its result.
func (n *node) ok1(method, body, id string) json.RawMessage {
	n.t.Helper()
	return n.okResult(method, n.decode(n.post("", body)), id)
}

func (n *node) okResult(method string, r rpcResponse, id string) json.RawMessage {
	n.t.Helper()
	if r.Error != nil {
		n.t.Fatalf("%s: error %d %s %s", method, r.Error.Code, r.Error.Message, r.Error.Data)
	}
	if string(r.ID) != id {
		n.t.Fatalf("%s: id %s, want %s", method, r.ID, id)
	}
	return r.Result
}

// sendOnce broadcasts tx with sendrawtransaction, named, and checks that
// every other form of the call (see chainCall) is then refused as a
// duplicate, 45011.
func (n *node) sendOnce(tx *ela.Tx) {
	n.t.Helper()
	data := hex.EncodeToString(tx.Bytes())
	if got := n.ok1("sendrawtransaction", `{"jsonrpc":"2.0","method":"sendrawtransaction","params":{"data":"`+data+`"},"id":1}`, "1"); string(got) != `"`+tx.Hash().String()+`"` {
		n.t.Fatalf("sendrawtransaction = %s, want %s", got, tx.Hash())
	}
	positional := `{"jsonrpc":"2.0","method":"sendrawtransaction","params":["` + data + `"],"id":2}`
	status, _, b := n.do("POST", n.rpcURL, "text/plain", []byte(`{"id":null,"jsonrpc":"","method":"sendrawtransaction","params":{"data":"`+data+`"}}`), "Authorization", "Basic Og==")
	var batch []rpcResponse
	if err := json.Unmarshal(n.post("", "["+positional+","+positional+"]"), &batch); err != nil || len(batch) != 2 || status != http.StatusOK {
		n.t.Fatalf("sendrawtransaction again: %v %+v, status %d", err, batch, status)
	}
	for _, r := range append(batch, n.decode(n.post("", positional)), n.decode(b)) {
		checkRPCError(n.t, "sendrawtransaction again", r, 45011, "INTERNAL ERROR, ErrTransactionDuplicate", "already in the mempool")
	}
}

// restResult returns the Result of a REST read that must succeed.
func (n *node) restResult(path string) json.RawMessage {
	n.t.Helper()
	e := n.get(path)
	if e.Error != 0 {
		n.t.Fatalf("GET %s: %d %s %s", path, e.Error, e.Desc, e.Result)
	}
	return e.Result
}

// sameJSON fails unless a and b are the same JSON value.
func sameJSON(t testing.TB, what string, rpc, rest json.RawMessage) {
	t.Helper()
	var a, b any
	if err := json.Unmarshal(rpc, &a); err != nil {
		t.Fatalf("%s: %s: %v", what, rpc, err)
	}
	if err := json.Unmarshal(rest, &b); err != nil {
		t.Fatalf("%s: %s: %v", what, rest, err)
	}
	if diff := cmp.Diff(b, a); diff != "" {
		t.Errorf("%s: JSON-RPC differs from REST (-REST +JSON-RPC):\n%s", what, diff)
	}
}

// checkBalances compares getreceivedbyaddress and listunspent with the
// REST balance and outputs of each address, and listunspent's
// confirmations, locks and types with the transactions' REST objects.
func (n *node) checkBalances(addrs ...string) {
	n.t.Helper()
	for _, a := range addrs {
		sameJSON(n.t, "getreceivedbyaddress "+a, n.chainCall("getreceivedbyaddress", []string{"address"}, a), n.restResult("/asset/balances/"+a))
	}
	var listed []wire.UnspentOutput
	strict(n.t, n.chainCall("listunspent", []string{"addresses"}, addrs), &listed)
	type output struct{ addr, asset, txid, value string }
	var got, want []output
	for _, u := range listed {
		got = append(got, output{u.Address, u.AssetID, fmt.Sprintf("%s:%d", u.Txid, u.VOut), u.Amount})
		var tx ela.TxJSON
		n.ok("/transaction/"+u.Txid, &tx)
		if out := tx.Outputs[u.VOut]; u.Confirmations != tx.Confirmations || u.OutputLock != out.OutputLock ||
			byte(u.TxType) != byte(tx.Type) || out.Address != u.Address || out.Value != u.Amount {
			n.t.Errorf("listunspent %+v; the transaction shows %+v, output %+v", u, tx, out)
		}
	}
	for _, a := range addrs {
		var groups []struct {
			AssetId, AssetName string
			Utxo               []utxo
		}
		n.ok("/asset/utxos/"+a, &groups)
		for _, g := range groups {
			for _, u := range g.Utxo {
				want = append(want, output{a, g.AssetId, fmt.Sprintf("%s:%d", u.Txid, u.Index), u.Value})
			}
		}
	}
	if !slices.Equal(got, want) {
		n.t.Errorf("listunspent %v; REST lists %v", got, want)
	}
}

// checkMempool compares getrawmempool with the REST transaction pool and
// returns it.
func (n *node) checkMempool() []ela.TxJSON {
	n.t.Helper()
	got := n.chainCall("getrawmempool", nil)
	sameJSON(n.t, "getrawmempool", got, n.restResult("/transactionpool"))
	var pool []ela.TxJSON
	strict(n.t, got, &pool)
	if pool == nil {
		n.t.Errorf("getrawmempool = %s, want a list", got)
	}
	return pool
}

// checkTx compares getrawtransaction's object with the REST one, and checks
// that its raw form is the transaction whose hash the object shows.
func (n *node) checkTx(txid string, confirmations uint32) {
	n.t.Helper()
	verbose := n.chainCall("getrawtransaction", []string{"txid", "verbose"}, txid, true)
	sameJSON(n.t, "getrawtransaction "+txid, verbose, n.restResult("/transaction/"+txid))
	var obj ela.TxJSON
	strict(n.t, verbose, &obj)
	if obj.Confirmations != confirmations {
		n.t.Errorf("transaction %s: %d confirmations, want %d", txid, obj.Confirmations, confirmations)
	}
	var rawHex string
	strict(n.t, n.chainCall("getrawtransaction", []string{"txid"}, txid), &rawHex)
	if again := n.chainCall("getrawtransaction", []string{"txid", "verbose"}, txid, false); string(again) != `"`+rawHex+`"` {
		n.t.Errorf("verbose false: %s, want the raw form", again)
	}
	n.checkRawTx(rawHex, obj)
}

// checkRawTx checks that raw is obj's transaction: that it ends with obj's
// programs, and that the double SHA-256 of what precedes them is obj's
// txid.
func (n *node) checkRawTx(rawHex string, obj ela.TxJSON) {
	n.t.Helper()
	raw, err := hex.DecodeString(rawHex)
	if err != nil {
		n.t.Fatalf("raw transaction %q: %v", rawHex, err)
	}
	programs := []byte{byte(len(obj.Programs))}
	for _, p := range obj.Programs { // parameter, then code (Elastos.ELA.SideChain types/program.go)
		for _, field := range []string{p.Parameter, p.Code} {
			b, _ := hex.DecodeString(field)
			programs = append(append(programs, byte(len(b))), b...)
		}
	}
	unsigned, ok := bytes.CutSuffix(raw, programs)
	if !ok || reversedHex(sha256d(unsigned)) != obj.TxID || len(raw) != obj.Size {
		n.t.Errorf("raw transaction %s does not end with its programs %x or does not hash to %s", rawHex, programs, obj.TxID)
	}
}

func sha256d(b []byte) []byte {
	first := sha256.Sum256(b)
	second := sha256.Sum256(first[:])
	return second[:]
}

func reversedHex(b []byte) string {
	r := slices.Clone(b)
	slices.Reverse(r)
	return hex.EncodeToString(r)
}

// checkBlock compares every way JSON-RPC gives the block at height with
// REST's, and checks its raw form: the fixed header fields hash to its hash
// and each transaction's raw form is in it.
func (n *node) checkBlock(height, tip uint32) {
	n.t.Helper()
	what := fmt.Sprintf("block %d", height)
	hashJSON := n.chainCall("getblockhash", []string{"height"}, height)
	sameJSON(n.t, what+" getblockhash", hashJSON, n.restResult("/block/hash/"+itoa(height)))
	if byString := n.chainCall("getblockhash", []string{"height"}, itoa(height)); !bytes.Equal(byString, hashJSON) {
		n.t.Errorf("%s: getblockhash with a decimal string %s, with a number %s", what, byString, hashJSON)
	}
	var hash string
	strict(n.t, hashJSON, &hash)

	full, short := n.restResult("/block/details/height/"+itoa(height)), n.restResult("/block/details/hash/"+hash)
	sameJSON(n.t, what+" getblock verbosity 1", n.chainCall("getblock", []string{"blockhash", "verbosity"}, hash, 1), short)
	sameJSON(n.t, what+" getblock default verbosity", n.chainCall("getblock", []string{"blockhash"}, hash), short)
	sameJSON(n.t, what+" getblock verbosity 2", n.chainCall("getblock", []string{"blockhash", "verbosity"}, hash, 2), full)
	sameJSON(n.t, what+" getblockbyheight", n.chainCall("getblockbyheight", []string{"height"}, height), full)

	var obj ela.BlockJSON
	strict(n.t, full, &obj)
	if obj.Confirmations != tip-height+1 || (height == 0) != (obj.MinerInfo == "ELA") || (height > 0 && obj.MinerInfo != "didlight") {
		n.t.Errorf("%s: confirmations %d (tip %d), minerinfo %q", what, obj.Confirmations, tip, obj.MinerInfo)
	}
	var rawHex string
	strict(n.t, n.chainCall("getblock", []string{"blockhash", "verbosity"}, hash, 0), &rawHex)
	raw, err := hex.DecodeString(rawHex)
	const fixedHeader = 4 + 32 + 32 + 4 + 4 + 4 + 4 // version, previous, merkle root, time, bits, nonce, height
	if err != nil || len(raw) != obj.Size || len(raw) < fixedHeader || reversedHex(sha256d(raw[:fixedHeader])) != hash {
		n.t.Fatalf("%s: raw form %.80s… of %d bytes does not hash to %s (%v)", what, rawHex, len(raw), hash, err)
	}
	for _, tx := range obj.Tx {
		var txHex string
		strict(n.t, n.chainCall("getrawtransaction", []string{"txid"}, tx.Full.TxID), &txHex)
		if !strings.Contains(rawHex, txHex) {
			n.t.Errorf("%s: the raw block does not hold transaction %s", what, tx.Full.TxID)
		}
		n.checkRawTx(txHex, *tx.Full)
	}
}

// checkCounts compares the tip methods with REST's height and hash.
func (n *node) checkCounts(tip uint32) {
	n.t.Helper()
	sameJSON(n.t, "getcurrentheight", n.chainCall("getcurrentheight", nil), n.restResult("/block/height"))
	sameJSON(n.t, "getblockcount", n.chainCall("getblockcount", nil), json.RawMessage(itoa(tip+1)))
	sameJSON(n.t, "getbestblockhash", n.chainCall("getbestblockhash", nil), n.restResult("/block/hash/"+itoa(tip)))
	sameJSON(n.t, "eth_blockNumber", n.chainCall("eth_blockNumber", nil), json.RawMessage(fmt.Sprintf(`"0x%x"`, tip)))
	sameJSON(n.t, "eth_chainId", n.chainCall("eth_chainId", nil), json.RawMessage(`"0x14"`))
	sameJSON(n.t, "net_version", n.chainCall("net_version", nil), json.RawMessage(`"1337"`))

	// The probe exactly as the DID SDKs send it: no params, a numeric id.
	r := n.decode(n.post("", `{"id":1767225600123,"jsonrpc":"2.0","method":"eth_blockNumber"}`))
	if string(r.ID) != "1767225600123" || string(r.Result) != fmt.Sprintf(`"0x%x"`, tip) {
		n.t.Errorf("the SDKs' eth_blockNumber probe: %+v", r)
	}
}

// checkNode compares the node reads with the REST node state.
func (n *node) checkNode() {
	n.t.Helper()
	count := n.chainCall("getconnectioncount", nil)
	sameJSON(n.t, "getconnectioncount", count, n.restResult("/node/connectioncount"))
	var neighbors []string
	strict(n.t, n.chainCall("getneighbors", nil), &neighbors)
	var state struct {
		Compile                    string
		Height                     uint32
		PRCPort, RestPort, WSPort  int
		Port                       int
		Neighbors                  []json.RawMessage
		ID                         uint64
		HexID                      string
		Version                    int
		Services                   uint64
		Relay                      bool
		TxnCnt, RxTxnCnt, OpenPort uint64
		OpenService                bool
	}
	strict(n.t, n.restResult("/node/state"), &state)
	var got client.RPCNodeState // every member, and no other
	strict(n.t, n.chainCall("getnodestate", nil), &got)
	if got.Compile != state.Compile || got.Height != state.Height || got.RPCPort != state.PRCPort || got.RESTPort != state.RestPort ||
		got.Port != 0 || got.WSPort != 0 || got.Services != "0x0" || got.Neighbors == nil || len(got.Neighbors) != len(state.Neighbors) ||
		neighbors == nil || len(neighbors) != len(state.Neighbors) || string(count) != fmt.Sprint(len(state.Neighbors)) {
		n.t.Errorf("getnodestate %+v, getneighbors %v; REST node state %+v", got, neighbors, state)
	}
}

func mustAddress(t testing.TB, s string) ela.ProgramHash {
	t.Helper()
	ph, err := ela.ParseAddress(s)
	if err != nil {
		t.Fatal(err)
	}
	return ph
}

// Bad input to the chain's methods gets a JSON-RPC error with HTTP 200 and
// the side chain's code, with data naming what is wrong; nothing changes.
func TestChainRPCBadInput(t *testing.T) {
	n := startNode(t, time.Hour)
	payee := address(newIdentity(t, "bad input payee").key)
	in := n.devUTXOs()[0]
	pooled := n.devTx(in, &ela.TransferAsset{}, 100, map[ela.ProgramHash]ela.Fixed64{payee: ela.OneELA})
	if e := n.broadcast(pooled.Bytes()); e.Error != 0 {
		t.Fatalf("broadcast: %+v", e)
	}
	doubleSpend := n.devTx(in, &ela.TransferAsset{}, 200, nil)
	forged := n.devTx(in, &ela.TransferAsset{}, 300, nil)
	forged.Outputs[0].Value-- // after signing
	tip := n.height()
	before := n.state()

	hexOf := func(tx *ela.Tx) string { return hex.EncodeToString(tx.Bytes()) }
	call := func(method, params string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":%s,"id":7}`, method, params)
	}
	zeros := strings.Repeat("0", 64)
	dev := n.chain.DevAccount().Address
	many := make([]string, 101)
	for i := range many {
		many[i] = dev
	}
	manyJSON, _ := json.Marshal(many)
	const (
		invalid = "Invalid params"
		noBlock = "Unknown Block"
		noTx    = "Unknown Transaction"
		badTx   = "Invalid transaction"
	)
	for _, tc := range []struct {
		name, body    string
		code          int
		message, data string
	}{
		{"height negative", call("getblockhash", `{"height":-1}`), -32602, invalid, "height: want a block height"},
		{"height with decimals", call("getblockhash", `[1.5]`), -32602, invalid, "got 1.5"},
		{"height too large", call("getblockhash", `[4294967296]`), -32602, invalid, "4294967295"},
		{"height a huge string", call("getblockhash", `["99999999999999999999999"]`), -32602, invalid, "height: want"},
		{"height a negative string", call("getblockhash", `["-1"]`), -32602, invalid, "height: want"},
		{"height not a number", call("getblockhash", `["abc"]`), -32602, invalid, `got "abc"`},
		{"height a boolean", call("getblockhash", `{"height":true}`), -32602, invalid, "got true"},
		{"height missing", call("getblockhash", `{}`), -32602, invalid, "height is missing"},
		{"height null", call("getblockhash", `[null]`), -32602, invalid, "height is missing"},
		{"height misspelt", call("getblockhash", `{"heigth":1}`), -32602, invalid, `unknown parameter "heigth"; the method takes at most 1: height`},
		{"too many values", call("getblockhash", `[1, 2]`), -32602, invalid, "params holds 2 values"},
		{"params a string", call("getblockhash", `"1"`), -32602, invalid, "params is a string"},
		{"height above the tip", call("getblockhash", fmt.Sprintf(`[%d]`, tip+1)), -32004, noBlock, fmt.Sprintf("no block at height %d", tip+1)},
		{"block by height above the tip", call("getblockbyheight", `["4294967295"]`), -32004, noBlock, "no block at height 4294967295"},
		{"block hash short", call("getblock", `["abc"]`), -32602, invalid, "blockhash: want a hash: 64 hex digits, got 3 characters"},
		{"block hash long", call("getblock", `["`+strings.Repeat("ab", 50000)+`"]`), -32602, invalid, "got 100000 characters"},
		{"block hash not hex", call("getblock", `["`+strings.Repeat("zz", 32)+`"]`), -32602, invalid, "not hex"},
		{"block hash a number", call("getblock", `[5]`), -32602, invalid, "blockhash: want a hash: 64 hex digits, got 5"},
		{"block hash missing", call("getblock", `{"verbosity":1}`), -32602, invalid, "blockhash is missing"},
		{"unknown block", call("getblock", `["`+zeros+`"]`), -32004, noBlock, "no block " + zeros},
		{"verbosity 3", call("getblock", `["`+zeros+`", 3]`), -32602, invalid, "verbosity: want 0 (raw hex), 1 (transaction hashes) or 2 (full transactions), got 3"},
		{"verbosity negative", call("getblock", `{"blockhash":"`+zeros+`","verbosity":-1}`), -32602, invalid, "verbosity: want"},
		{"unknown transaction", call("getrawtransaction", `["`+zeros+`", true]`), -32002, noTx, "no transaction " + zeros},
		{"verbose a string", call("getrawtransaction", `{"txid":"`+zeros+`","verbose":"yes"}`), -32602, invalid, `verbose: want true or false (or 1 or 0), got "yes"`},
		{"verbose 2", call("getrawtransaction", `["`+zeros+`", 2]`), -32602, invalid, "verbose: want"},
		{"txid missing", call("getrawtransaction", `[]`), -32602, invalid, "txid is missing"},
		{"data missing", call("sendrawtransaction", `{}`), -32602, invalid, "data is missing: want a signed transaction in hex"},
		{"data a number", call("sendrawtransaction", `[5]`), -32602, invalid, "data: want a signed transaction in hex, got 5"},
		{"data not hex", call("sendrawtransaction", `["zz"]`), -32602, invalid, "data is not hex"},
		{"data empty", call("sendrawtransaction", `[""]`), -32000, badTx, "tx"},
		{"data garbage", call("sendrawtransaction", `["0200ff"]`), -32000, badTx, "tx"},
		{"a double spend", call("sendrawtransaction", `["`+hexOf(doubleSpend)+`"]`), 45010, "INTERNAL ERROR, ErrDoubleSpend", "spends"},
		{"altered after signing", call("sendrawtransaction", `["`+hexOf(forged)+`"]`), 45008, "INTERNAL ERROR, ErrTransactionSignature", ""},
		{"a duplicate", call("sendrawtransaction", `["`+hexOf(pooled)+`"]`), 45011, "INTERNAL ERROR, ErrTransactionDuplicate", "already"},
		{"address missing", call("getreceivedbyaddress", `{}`), -32602, invalid, "address is missing"},
		{"address bad checksum", call("getreceivedbyaddress", `["`+dev[:len(dev)-1]+`x"]`), -32602, invalid, "address: "},
		{"address long", call("getreceivedbyaddress", `["`+strings.Repeat("E", 5000)+`"]`), -32602, invalid, "got 5000 characters"},
		{"address a number", call("getreceivedbyaddress", `[5]`), -32602, invalid, "address: want an address"},
		{"addresses a string", call("listunspent", `{"addresses":"`+dev+`"}`), -32602, invalid, "addresses: want a list of addresses"},
		{"addresses empty", call("listunspent", `[[]]`), -32602, invalid, "want 1 to 100 addresses, got 0"},
		{"addresses too many", call("listunspent", `[`+string(manyJSON)+`]`), -32602, invalid, "got 101"},
		{"addresses bad", call("listunspent", `[["`+dev+`","nope"]]`), -32602, invalid, "addresses[1]: "},
		{"addresses not strings", call("listunspent", `[[5]]`), -32602, invalid, "addresses[0]: want an address"},
		{"a parameter to getblockcount", call("getblockcount", `{"verbose":true}`), -32602, invalid, "the method takes none"},
		{"a value to getrawmempool", call("getrawmempool", `[1]`), -32602, invalid, "params holds 1 values"},
		{"a value to eth_blockNumber", call("eth_blockNumber", `["latest"]`), -32602, invalid, "the method takes none"},
		{"an unknown method", call("getblockcounts", `[]`), -32601, "Method not found", "getblockcounts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := n.decode(n.post("", tc.body)) // post checks HTTP 200
			var data string
			if r.Error != nil {
				json.Unmarshal(r.Error.Data, &data)
			}
			if r.Error == nil || r.Error.Code != tc.code || r.Error.Message != tc.message || !strings.Contains(data, tc.data) {
				t.Errorf("%s: got %+v %s %s, want error %d %q with %q", tc.name, r.Error, data, r.Result, tc.code, tc.message, tc.data)
				return
			}
			if string(r.ID) != "7" {
				t.Errorf("%s: id %s", tc.name, r.ID)
			}
			if len(r.Error.Data) > 300 {
				t.Errorf("%s: data of %d bytes", tc.name, len(r.Error.Data))
			}
		})
	}

	// Batches: empty and oversized ones are refused whole; a mixed one is
	// answered call by call.
	for _, tc := range []struct{ body, data string }{
		{`[]`, "empty batch"},
		{"[" + strings.Repeat(call("getblockcount", "[]")+",", 100) + call("getblockcount", "[]") + "]", "batch of 101 calls"},
	} {
		checkRPCError(t, "batch", n.decode(n.post("", tc.body)), -32600, "Invalid Request", tc.data)
	}
	var mixed []rpcResponse
	if err := json.Unmarshal(n.post("", "["+call("getcurrentheight", "[]")+","+call("getblockhash", "[-1]")+"]"), &mixed); err != nil || len(mixed) != 2 {
		t.Fatalf("mixed batch: %v %+v", err, mixed)
	}
	if string(mixed[0].Result) != itoa(tip) || mixed[1].Error == nil || mixed[1].Error.Code != -32602 {
		t.Errorf("mixed batch: %s, %+v", mixed[0].Result, mixed[1].Error)
	}

	if after := n.state(); after != before {
		t.Errorf("bad input changed the chain:\nbefore %s\nafter  %s", before, after)
	}
}

// state is what a change to the chain would show: the tip, the mempool and
// the dev account's outputs.
func (n *node) state() string {
	n.t.Helper()
	h := n.height()
	return fmt.Sprintf("%d %s %s %s", h, n.restResult("/block/hash/"+itoa(h)), n.restResult("/transactionpool"), n.restResult("/asset/utxos/"+n.chain.DevAccount().Address))
}
