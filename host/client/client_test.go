package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/spend"
	"github.com/didlight/didlight/host/client"
	"github.com/didlight/didlight/host/client/clienttest"
)

// pay builds and signs a payment from the dev account with core/spend.
func pay(t *testing.T, ctx context.Context, c *client.Client, n *clienttest.Node, to ela.ProgramHash, amount ela.Fixed64) *ela.Tx {
	t.Helper()
	utxos, err := c.UTXOs(ctx, n.Dev.Address)
	if err != nil {
		t.Fatal(err)
	}
	var coins []spend.Coin
	for _, u := range utxos {
		coins = append(coins, spend.Coin{Txid: u.Txid, Index: u.Index, Value: u.Value})
	}
	tx, err := payment(n, coins, to, amount)
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

// payment is a payment of amount to to from the dev account's coins, with
// the minimum fee, built and signed with core/spend.
func payment(n *clienttest.Node, coins []spend.Coin, to ela.ProgramHash, amount ela.Fixed64) (*ela.Tx, error) {
	dev := n.Dev
	tx, err := spend.Build(spend.Order{From: dev.ProgramHash, Coins: coins, Asset: ela.ELAAssetID(),
		To: []spend.Payment{{To: to, Amount: amount}}, Fee: 100})
	if err != nil {
		return nil, err
	}
	tx.SignStandard(dev.PrivateKey)
	return tx, nil
}

func TestAgainstNode(t *testing.T) {
	n := clienttest.Start(t)
	c := client.New(strings.TrimSuffix(n.REST, "/api/v1"), n.RPC, nil)
	ctx := context.Background()

	if h, err := c.Height(ctx); err != nil || h != 0 {
		t.Fatalf("Height = %d, %v; want 0 on a new chain", h, err)
	}
	dev := n.Dev
	if b, err := c.Balance(ctx, dev.Address); err != nil || b <= 0 {
		t.Fatalf("dev balance %s, %v", b, err)
	}

	k, _ := keys.NewPrivateKey(append(make([]byte, 31), 9))
	to := ela.ToProgramHash(ela.PrefixStandard, ela.SingleKeyScript(k.Public(), ela.OpCheckSig))
	first, second := pay(t, ctx, c, n, to, 2*ela.OneELA), pay(t, ctx, c, n, to, 3*ela.OneELA)
	txid, err := c.Send(ctx, first.Bytes())
	if err != nil || txid != first.Hash() {
		t.Fatalf("Send = %s, %v; want %s", txid, err, first.Hash())
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	tx, err := c.WaitConfirmed(wctx, txid, 10*time.Millisecond)
	if err != nil || tx.Confirmations == 0 || tx.TxID != txid.String() {
		t.Fatalf("WaitConfirmed = %+v, %v", tx, err)
	}
	if b, err := c.Balance(ctx, to.Address()); err != nil || b != 2*ela.OneELA {
		t.Errorf("payee balance %s, %v; want 2 ELA", b, err)
	}
	utxos, err := c.UTXOs(ctx, to.Address())
	if err != nil || len(utxos) != 1 || utxos[0].Value != 2*ela.OneELA || utxos[0].Txid != txid || utxos[0].Asset != ela.ELAAssetID() {
		t.Errorf("payee UTXOs %+v, %v", utxos, err)
	}

	// The second payment spends the same coin: a double spend.
	_, err = c.Send(ctx, second.Bytes())
	var re *client.RESTError
	if !errors.As(err, &re) || re.Code != client.CodeDoubleSpend || !strings.Contains(err.Error(), "double spend") {
		t.Errorf("second spend of one coin: error %v, want a *RESTError %d", err, client.CodeDoubleSpend)
	}
	if _, err := c.Transaction(ctx, ela.Hash{1}); !errors.As(err, &re) || re.Code != client.CodeUnknownTransaction {
		t.Errorf("unknown transaction: error %v, want %d", err, client.CodeUnknownTransaction)
	}
	if _, err := c.Balance(ctx, "Enotanaddress"); !errors.As(err, &re) || re.Code != 42002 {
		t.Errorf("bad address: error %v, want 42002", err)
	}

	res, err := c.Resolve(ctx, "did:elastos:iY4Ghz9tCuWvB5rNwvn4ngWvthZMNzEA7U", false)
	var r struct{ Status int }
	if err != nil || json.Unmarshal(res, &r) != nil || r.Status != 3 {
		t.Errorf("Resolve of an unknown DID = %s, %v; want status 3", res, err)
	}
	if res, err := c.QueryDIDs(ctx, client.Query{Service: "X"}); err != nil || !strings.Contains(string(res), `"total":0`) {
		t.Errorf("QueryDIDs = %s, %v", res, err)
	}
	var rpcErr *client.RPCError
	if _, err := c.QueryDIDs(ctx, client.Query{}); !errors.As(err, &rpcErr) || rpcErr.Code != -32602 {
		t.Errorf("query without a condition: error %v, want -32602", err)
	}
}

func TestUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := "http://" + l.Addr().String()
	l.Close() // nothing listens there now
	c := client.New(addr, addr+"/", nil)
	var ue *client.UnreachableError
	if _, err := c.Height(context.Background()); !errors.As(err, &ue) || ue.URL != addr+"/api/v1/block/height" ||
		!strings.Contains(err.Error(), "node unreachable at "+addr+"/api/v1/block/height") {
		t.Errorf("REST: error %v, want unreachable naming the URL", err)
	}
	if _, err := c.Resolve(context.Background(), "foo", false); !errors.As(err, &ue) || ue.URL != addr+"/" {
		t.Errorf("RPC: error %v, want unreachable naming the URL", err)
	}

	// A server that is not a node.
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("<html>hello</html>"))
	}))
	defer web.Close()
	c = client.New(web.URL, web.URL, nil)
	if _, err := c.Height(context.Background()); !errors.As(err, &ue) || !strings.Contains(err.Error(), "not a node REST envelope") {
		t.Errorf("not a node: error %v", err)
	}
	if _, err := c.Resolve(context.Background(), "foo", false); !errors.As(err, &ue) || !strings.Contains(err.Error(), "not JSON-RPC") {
		t.Errorf("not a node (RPC): error %v", err)
	}
}
