package client_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/host/client"
	"github.com/didlight/didlight/host/client/clienttest"
)

// Every typed call against a node, each checked against what the REST
// calls of the same client read.
func TestChainRPC(t *testing.T) {
	n := clienttest.Start(t)
	c := client.New(n.REST, n.RPC, nil)
	rpc := c.ChainRPC()
	ctx := context.Background()

	k, _ := keys.NewPrivateKey(append(make([]byte, 31), 5))
	to := ela.ToProgramHash(ela.PrefixStandard, ela.SingleKeyScript(k.Public(), ela.OpCheckSig))
	if outs, err := rpc.ListUnspent(ctx, to.Address()); err != nil || outs != nil {
		t.Errorf("ListUnspent of an unused address = %v, %v; want none", outs, err)
	}
	tx := pay(t, ctx, c, n, to, ela.OneELA)
	txid, err := rpc.SendRawTransaction(ctx, tx.Bytes())
	if err != nil || txid != tx.Hash() {
		t.Fatalf("SendRawTransaction = %s, %v", txid, err)
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := c.WaitConfirmed(wctx, txid, 5*time.Millisecond); err != nil {
		t.Fatal(err)
	}

	height, err := c.Height(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := rpc.Height(ctx); err != nil || got != height {
		t.Errorf("Height = %d, %v; REST %d", got, err, height)
	}
	if got, err := rpc.BlockCount(ctx); err != nil || got != height+1 {
		t.Errorf("BlockCount = %d, %v", got, err)
	}
	tipHash, err := c.BlockHash(ctx, height)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := rpc.BestBlockHash(ctx); err != nil || got != tipHash {
		t.Errorf("BestBlockHash = %s, %v; want %s", got, err, tipHash)
	}
	if got, err := rpc.BlockHash(ctx, height); err != nil || got != tipHash {
		t.Errorf("BlockHash = %s, %v", got, err)
	}
	full, err := c.Block(ctx, height)
	if err != nil {
		t.Fatal(err)
	}
	short, err1 := rpc.Block(ctx, tipHash)
	withTxs, err2 := rpc.BlockWithTxs(ctx, tipHash)
	byHeight, err3 := rpc.BlockByHeight(ctx, height)
	raw, err4 := rpc.RawBlock(ctx, tipHash)
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		t.Fatal(err)
	}
	b, err := withTxs.Block()
	if err != nil || b.Hash() != tipHash || string(b.Bytes()) != string(raw) || byHeight.Hash != full.Hash || len(byHeight.Tx) != len(full.Tx) ||
		short.Tx[1].Full != nil || short.Tx[1].TxID != txid.String() {
		t.Errorf("blocks: %+v %+v (%v)", short, withTxs, err)
	}

	got, err := rpc.Transaction(ctx, txid)
	want, _ := c.Transaction(ctx, txid)
	if err != nil || got.TxID != want.TxID || got.Confirmations != want.Confirmations || got.BlockHash != want.BlockHash {
		t.Errorf("Transaction = %+v, %v; REST %+v", got, err, want)
	}
	if rawTx, err := rpc.RawTransaction(ctx, txid); err != nil || string(rawTx) != string(tx.Bytes()) {
		t.Errorf("RawTransaction = %x, %v", rawTx, err)
	}
	if pool, err := rpc.Mempool(ctx); err != nil || pool == nil || len(pool) != 0 {
		t.Errorf("Mempool = %v, %v; want empty", pool, err)
	}
	if bal, err := rpc.Balance(ctx, to.Address()); err != nil || bal != ela.OneELA {
		t.Errorf("Balance = %s, %v", bal, err)
	}
	outs, err := rpc.ListUnspent(ctx, to.Address(), n.Dev.Address)
	if err != nil || len(outs) != 2 || outs[0] != (client.Unspent{Address: to.Address(), Asset: ela.ELAAssetID(), Txid: txid, Value: ela.OneELA,
		Confirmations: 1, TxType: ela.TxTransferAsset}) || outs[1].Address != n.Dev.Address {
		t.Errorf("ListUnspent = %+v, %v", outs, err)
	}

	if count, err := rpc.ConnectionCount(ctx); err != nil || count != 0 {
		t.Errorf("ConnectionCount = %d, %v", count, err)
	}
	if ns, err := rpc.Neighbors(ctx); err != nil || ns == nil || len(ns) != 0 {
		t.Errorf("Neighbors = %v, %v", ns, err)
	}
	state, err := rpc.NodeState(ctx)
	rest, _ := c.State(ctx)
	if err != nil || state.Height != height || state.RPCPort != rest.RPCPort || state.RESTPort != rest.RESTPort || state.Compile != "test" {
		t.Errorf("NodeState = %+v, %v; REST %+v", state, err, rest)
	}

	// Errors carry the node's code.
	var re *client.RPCError
	if _, err := rpc.Transaction(ctx, ela.Hash{1}); !errors.As(err, &re) || re.Code != client.RPCCodeUnknownTransaction {
		t.Errorf("unknown transaction: %v", err)
	}
	if _, err := rpc.SendRawTransaction(ctx, tx.Bytes()); !errors.As(err, &re) || re.Code != client.CodeDuplicate {
		t.Errorf("a duplicate: %v", err)
	}
	if _, err := rpc.SendRawTransaction(ctx, []byte{2}); !errors.As(err, &re) || re.Code != client.RPCCodeInvalidTransaction {
		t.Errorf("not a transaction: %v", err)
	}
	if _, err := rpc.Balance(ctx, "Enope"); !errors.As(err, &re) || re.Code != client.RPCCodeInvalidParams {
		t.Errorf("a bad address: %v", err)
	}
}

// The Elastos nodes answer in their own way: both members always, every
// method error as -32603, amounts without trailing zeros. The typed calls
// read those answers too (shapes from Elastos.ELA.SideChain.ID
// docs/jsonrpc_apis.md and Elastos.ELA utils/http/jsonrpc/server.go).
func TestChainRPCAgainstELAAnswers(t *testing.T) {
	answers := map[string]string{
		"getcurrentheight":     `{"id":1,"jsonrpc":"2.0","result":171454,"error":null}`,
		"getreceivedbyaddress": `{"id":1,"jsonrpc":"2.0","result":"33","error":null}`,
		"listunspent":          `{"id":1,"jsonrpc":"2.0","result":[{"assetid":"a3d0eaa466df74983b5d7c543de6904f4c9418ead5ffd6d25814234a96db37b0","txid":"9132cf82a18d859d200c952aec548d7895e7b654fd1761d5d059b91edbad1768","vout":0,"address":"EeEkSiRMZqg5rd9a2yPaWnvdPcikFtsrjE","amount":"0.5","confirmations":1102,"outputlock":0}],"error":null}`,
		"getblockhash":         `{"id":1,"jsonrpc":"2.0","result":null,"error":{"id":1,"code":-32603,"message":"internal error: Unknown Block"}}`,
		"getneighbors":         `{"id":1,"jsonrpc":"2.0","result":["127.0.0.1:20338 (outbound) (20000 ELA-SideChain)"],"error":null}`,
	}
	node := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		for m, a := range answers {
			if strings.Contains(string(b), `"method":"`+m+`"`) {
				w.Write([]byte(a))
				return
			}
		}
		http.Error(w, "unexpected "+string(b), http.StatusTeapot)
	}))
	defer node.Close()
	rpc := client.New("", node.URL, nil).ChainRPC()
	ctx := context.Background()

	if h, err := rpc.Height(ctx); err != nil || h != 171454 {
		t.Errorf("Height = %d, %v", h, err)
	}
	if b, err := rpc.Balance(ctx, "EeEkSiRMZqg5rd9a2yPaWnvdPcikFtsrjE"); err != nil || b != 33*ela.OneELA {
		t.Errorf("Balance = %d, %v", b, err)
	}
	if outs, err := rpc.ListUnspent(ctx, "EeEkSiRMZqg5rd9a2yPaWnvdPcikFtsrjE"); err != nil || len(outs) != 1 || outs[0].Value != ela.OneELA/2 || outs[0].Confirmations != 1102 {
		t.Errorf("ListUnspent = %+v, %v", outs, err)
	}
	var re *client.RPCError
	if _, err := rpc.BlockHash(ctx, 1<<31); !errors.As(err, &re) || re.Code != -32603 || !strings.Contains(err.Error(), "Unknown Block") {
		t.Errorf("BlockHash of an unknown height: %v", err)
	}
	if ns, err := rpc.Neighbors(ctx); err != nil || len(ns) != 1 {
		t.Errorf("Neighbors = %v, %v", ns, err)
	}
}
