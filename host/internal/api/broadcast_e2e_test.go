package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
)

// A signed transfer goes through the mempool into a block; every way the
// chain refuses a transaction reaches the client with its ELA code.
func TestBroadcast(t *testing.T) {
	n := startNode(t, time.Hour) // blocks only when dev_mine asks
	payee := address(newIdentity(t, "payee").key)
	in := n.devUTXOs()[0]

	forged := n.devTx(in, &ela.TransferAsset{}, 100, nil)
	forged.Outputs[0].Value -= ela.OneELA // after signing
	n.refused("a transaction altered after signing", forged.Bytes(), 45008)
	n.refused("not a transaction", []byte{0x02, 0x00, 0x00}, 43001)
	over := n.devTx(in, &ela.TransferAsset{}, 100, nil)
	over.Outputs[0].Value += ela.OneELA
	over.SignStandard(n.chain.DevAccount().PrivateKey)
	n.refused("outputs above inputs", over.Bytes(), 45006)
	low := n.devTx(in, &ela.TransferAsset{}, 99, nil)
	n.refused("a fee below the minimum", low.Bytes(), 45006)
	unknown := n.devTx(in, &ela.TransferAsset{}, 100, nil)
	unknown.Inputs[0].TxID[0] ^= 0xff
	unknown.SignStandard(n.chain.DevAccount().PrivateKey)
	n.refused("spending an unknown transaction", unknown.Bytes(), 45016)

	transfer := n.devTx(in, &ela.TransferAsset{}, 100, map[ela.ProgramHash]ela.Fixed64{payee: 3 * ela.OneELA})
	e := n.broadcast(transfer.Bytes())
	var txid string
	if e.Error != 0 || json.Unmarshal(e.Result, &txid) != nil || txid != transfer.Hash().String() {
		t.Fatalf("broadcast: %+v, want Success with %s", e, transfer.Hash())
	}

	// Pooled: in the transaction pool, and readable with no block yet.
	var pool []ela.TxJSON
	n.ok("/transactionpool", &pool)
	var pooled ela.TxJSON
	n.ok("/transaction/"+txid, &pooled)
	if len(pool) != 1 || pool[0].TxID != txid || pooled.BlockHash != "" || pooled.Confirmations != 0 || pooled.BlockTime != 0 {
		t.Errorf("pool %+v; pooled tx %+v", pool, pooled)
	}

	n.refused("the same transaction again", transfer.Bytes(), 45011)
	n.refused("a double spend of a pooled transaction's input", n.devTx(in, &ela.TransferAsset{}, 200, map[ela.ProgramHash]ela.Fixed64{payee: ela.OneELA}).Bytes(), 45010)

	var mined struct{ Height uint32 }
	n.result("dev_mine", nil, &mined)
	var confirmed ela.TxJSON
	n.ok("/transaction/"+txid, &confirmed)
	var balance string
	n.ok("/asset/balances/"+payee.Address(), &balance)
	n.ok("/transactionpool", &pool)
	if confirmed.Confirmations != 1 || confirmed.BlockHash == "" || confirmed.BlockTime == 0 || balance != "3.00000000" || len(pool) != 0 {
		t.Errorf("after mining: tx %+v, payee balance %s, pool %d", confirmed, balance, len(pool))
	}
	n.refused("a mined transaction again", transfer.Bytes(), 45011)
	n.refused("a double spend of a mined transaction's input", n.devTx(in, &ela.TransferAsset{}, 200, nil).Bytes(), 45010)
}

// refused broadcasts raw, which the chain must refuse with code.
func (n *node) refused(what string, raw []byte, code int) {
	n.t.Helper()
	e := n.broadcast(raw)
	if e.Error != code {
		n.t.Errorf("%s: %d %s %s, want %d", what, e.Error, e.Desc, e.Result, code)
	}
}

// A DID operation travels as a real signed ledger transaction too; an
// invalid one is refused with 45009 and the rule it breaks, and a DID may
// have one operation pending at a time.
func TestBroadcastDIDOperation(t *testing.T) {
	n := startNode(t, time.Hour)
	n.splitDev(2)
	outs := n.devUTXOs()
	id := newIdentity(t, "broadcast")
	create := id.create(yearFromNow())
	tx := n.devTx(outs[0], operation(create), 100, nil)
	e := n.broadcast(tx.Bytes())
	if e.Error != 0 {
		t.Fatalf("broadcast of a create: %+v", e)
	}
	second := n.devTx(outs[1], operation(id.create(yearFromNow().Add(time.Hour))), 100, nil)
	n.checkFailure("a second operation while the first is pending", n.broadcast(second.Bytes()), 45009, "pending")
	n.result("dev_mine", nil, &struct{}{})
	n.checkResolved(n.resolve("resolvedid", id.did.String(), false), id.did, 0, []string{tx.Hash().String()}, []string{idop.Create})

	bad := id.update(tx.Hash().String(), yearFromNow())
	bad.Proof.Signature = create.Proof.Signature
	in := n.devUTXOs()[0]
	n.checkFailure("an update with another request's signature", n.broadcast(n.devTx(in, operation(bad), 100, nil).Bytes()), 45009, string(idop.RuleSignature))
	stale := id.update(strings.Repeat("1", 64), yearFromNow())
	n.checkFailure("an update naming another previous transaction", n.broadcast(n.devTx(in, operation(stale), 100, nil).Bytes()), 45009, string(idop.RulePreviousTxid))
}

// The broadcast body must be {"Action":"sendrawtransaction","data":HEX}.
func TestBroadcastBody(t *testing.T) {
	n := startNode(t, 0)
	for _, tc := range []struct {
		body string
		code int
		want string
	}{
		{`not json`, 41003, "want {"},
		{``, 41003, "want {"},
		{`["sendrawtransaction"]`, 41003, "want {"},
		{`{"Action":"sendrawtransaction"}`, 42002, "need a string parameter named data"},
		{`{"Action":"sendrawtransaction","data":7}`, 41003, "want {"},
		{`{"Action":"getblock","data":"00"}`, 42002, `Action "getblock"`},
		{`{"Action":"sendrawtransaction","data":"xyz"}`, 42002, "data is not hex"},
		{`{"Action":"sendrawtransaction","data":"abc"}`, 42002, "data is not hex"},
		{`{"Action":"sendrawtransaction","data":""}`, 43001, ""},
		{`{"data":"00"}`, 43001, ""},
	} {
		status, _, b := n.do("POST", n.rest+"/transaction", "application/json", []byte(tc.body))
		n.checkFailure("broadcast "+tc.body, n.envelope(status, b), tc.code, tc.want)
	}
	big := `{"Action":"sendrawtransaction","data":"` + strings.Repeat("00", 8<<20+1) + `"}`
	status, _, b := n.do("POST", n.rest+"/transaction", "application/json", []byte(big))
	n.checkFailure("a 16 MiB body", n.envelope(status, b), 45015, "at most")
	if status != http.StatusOK {
		t.Errorf("oversized broadcast: status %d", status)
	}
}
