package api_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/didlight/didlight/core/ela"
)

// The members the Essentials wallet sends are taken, with the meaning the
// ELA main chain gives them (Elastos.ELA servers/interfaces.go: ListUnspent,
// GetReceivedByAddress, GetUTXOsByAmount): listunspent's utxotype (mixed,
// vote, normal) and spendable, getreceivedbyaddress's spendable, and
// getutxosbyamount's address, amount and utxotype, as Essentials, ela-cli
// and the Arbiter send them.
func TestWalletMembers(t *testing.T) {
	n := startNode(t, time.Hour) // blocks only when dev_mine asks
	n.splitDev(3)
	dev := n.chain.DevAccount().Address
	all := n.chainCall("listunspent", []string{"addresses"}, []string{dev})
	var outputs []struct {
		Txid   string
		Amount string
	}
	if err := json.Unmarshal(all, &outputs); err != nil || len(outputs) < 4 {
		t.Fatalf("listunspent of the dev account: %s (%v)", all, err)
	}
	for i, c := range []struct {
		params string
		want   string
	}{
		{`{"addresses":["` + dev + `"],"utxotype":"mixed","spendable":true}`, string(all)}, // as Essentials sends it
		{`{"addresses":["` + dev + `"],"utxotype":"normal"}`, string(all)},
		{`{"addresses":["` + dev + `"],"spendable":false}`, string(all)},
		{`{"addresses":["` + dev + `"],"utxotype":"vote"}`, "null"}, // this chain's outputs are never votes
		{`[["` + dev + `"],"mixed",true]`, string(all)},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if got := n.ok1("listunspent", `{"jsonrpc":"2.0","id":1,"method":"listunspent","params":`+c.params+`}`, "1"); string(got) != c.want {
				t.Errorf("listunspent %s: %s, want %s", c.params, got, c.want)
			}
		})
	}
	balance := n.chainCall("getreceivedbyaddress", []string{"address"}, dev)
	if got := n.ok1("getreceivedbyaddress", `{"id":1,"method":"getreceivedbyaddress","params":{"address":"`+dev+`","spendable":true}}`, "1"); string(got) != string(balance) {
		t.Errorf("getreceivedbyaddress with spendable: %s, want %s", got, balance)
	}

	// getutxosbyamount lists outputs in chain order until they hold the
	// amount; "unused" leaves out those a pooled transaction spends.
	var picked []struct {
		Txid, Amount, Address, Assetid          string
		Vout, Confirmations, Outputlock, Txtype int
	}
	strict(t, n.chainCall("getutxosbyamount", []string{"address", "amount"}, dev, "0.00000001"), &picked)
	if len(picked) != 1 || picked[0].Txid != outputs[0].Txid || picked[0].Address != dev {
		t.Errorf("getutxosbyamount 0.00000001: %+v, want the first output, %s", picked, outputs[0].Txid)
	}
	first, err := ela.ParseFixed64(outputs[0].Amount)
	if err != nil {
		t.Fatal(err)
	}
	strict(t, n.chainCall("getutxosbyamount", []string{"address", "amount", "utxotype"}, dev, (first+1).String(), "mixed"), &picked)
	if len(picked) != 2 {
		t.Errorf("getutxosbyamount of more than the first output holds: %d outputs, want 2", len(picked))
	}
	outs := n.devUTXOs()
	if e := n.broadcast(n.devTx(outs[0], &ela.TransferAsset{}, 100, nil).Bytes()); e.Error != 0 { // pooled, spending the first output
		t.Fatalf("broadcast: %+v", e)
	}
	strict(t, n.chainCall("getutxosbyamount", []string{"address", "amount", "utxotype"}, dev, "0.00000001", "unused"), &picked)
	if len(picked) != 1 || picked[0].Txid == outs[0].txid.String() && picked[0].Vout == int(outs[0].index) {
		t.Errorf("getutxosbyamount unused: %+v, want an output the pooled transaction does not spend", picked)
	}

	for _, c := range []struct {
		method, params, want string
	}{
		{"listunspent", `{"addresses":["` + dev + `"],"utxotype":"unused"}`, `utxotype: want mixed, vote or normal, got \"unused\"`},
		{"listunspent", `{"addresses":["` + dev + `"],"spendable":"yes"}`, "spendable: want true or false"},
		{"listunspent", `{"addresses":["` + dev + `"],"utxotypes":"mixed"}`, `unknown parameter \"utxotypes\"`},
		{"getreceivedbyaddress", `{"address":"` + dev + `","spendable":2}`, "spendable: want true or false"},
		{"getutxosbyamount", `{"address":"` + dev + `"}`, "amount is missing"},
		{"getutxosbyamount", `{"address":"` + dev + `","amount":"lots"}`, "amount: "},
		{"getutxosbyamount", `{"address":"` + dev + `","amount":"-1"}`, "amount: "},
		{"getutxosbyamount", `{"address":"` + dev + `","amount":"1","utxotype":"all"}`, `utxotype: want mixed, vote, normal or unused`},
		{"getutxosbyamount", `{"address":"` + dev + `","amount":"100000000"}`, "not enough unspent outputs"},
	} {
		checkRPCError(t, c.method+" "+c.params, n.decode(n.post("", `{"jsonrpc":"2.0","id":1,"method":"`+c.method+`","params":`+c.params+`}`)), -32602, "Invalid params", c.want)
	}
}
