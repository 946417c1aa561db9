package client_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/spend"
	"github.com/didlight/didlight/host/client"
	"github.com/didlight/didlight/host/client/clienttest"
)

// exampleNode runs a node for an example, with the client of its APIs.
func exampleNode() (*clienttest.Node, *client.Client, func()) {
	n, stop, err := clienttest.Run()
	if err != nil {
		log.Fatal(err)
	}
	return n, client.New(n.REST, n.RPC, nil), func() {
		if err := stop(); err != nil {
			log.Fatal(err)
		}
	}
}

// The chain's state and an address's coins, through the JSON-RPC methods
// every Elastos side-chain node serves.
func ExampleChainRPC() {
	n, c, stop := exampleNode()
	defer stop()
	ctx := context.Background()
	rpc := c.ChainRPC()

	count, err := rpc.BlockCount(ctx)
	if err != nil {
		log.Fatal(err)
	}
	tip, _ := rpc.BestBlockHash(ctx)
	genesis, _ := rpc.BlockHash(ctx, 0)
	fmt.Println("blocks:", count, "tip is genesis:", tip == genesis)

	dev := n.Dev.Address
	balance, _ := rpc.Balance(ctx, dev)
	fmt.Println("dev balance:", balance)
	outs, _ := rpc.ListUnspent(ctx, dev)
	for _, u := range outs {
		fmt.Println("output:", u.Value, u.TxType, u.Confirmations, "confirmation(s)")
	}
	// Output:
	// blocks: 1 tip is genesis: true
	// dev balance: 10000000.00000000
	// output: 10000000.00000000 CoinBase 1 confirmation(s)
}

// A signed payment broadcast with sendrawtransaction; the node mines it, and
// the payee's coins show it.
func ExampleChainRPC_SendRawTransaction() {
	n, c, stop := exampleNode()
	defer stop()
	ctx := context.Background()
	rpc := c.ChainRPC()

	dev := n.Dev
	outs, err := rpc.ListUnspent(ctx, dev.Address)
	if err != nil {
		log.Fatal(err)
	}
	var coins []spend.Coin
	for _, u := range outs {
		coins = append(coins, spend.Coin{Txid: u.Txid, Index: u.Index, Value: u.Value})
	}
	payeeKey, _ := keys.NewPrivateKey(append(make([]byte, 31), 7))
	payee := ela.ToProgramHash(ela.PrefixStandard, ela.SingleKeyScript(payeeKey.Public(), ela.OpCheckSig))
	tx, err := payment(n, coins, payee, 2*ela.OneELA) // core/spend builds and signs it
	if err != nil {
		log.Fatal(err)
	}

	txid, err := rpc.SendRawTransaction(ctx, tx.Bytes())
	if err != nil {
		log.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if got, err := rpc.Transaction(ctx, txid); err == nil && got.Confirmations > 0 {
			break
		} else if time.Now().After(deadline) {
			log.Fatalf("%s not mined: %v", txid, err)
		}
	}
	received, _ := rpc.Balance(ctx, payee.Address())
	fmt.Println("payee balance:", received)
	raw, _ := rpc.RawTransaction(ctx, txid)
	back, _ := ela.ParseTx(raw)
	fmt.Println("raw form hashes to the txid:", back.Hash() == txid)
	// Output:
	// payee balance: 2.00000000
	// raw form hashes to the txid: true
}

// Blocks come as the REST API's objects, or raw as the chain encodes them.
func ExampleChainRPC_RawBlock() {
	_, c, stop := exampleNode()
	defer stop()
	ctx := context.Background()
	rpc := c.ChainRPC()

	b, err := rpc.BlockByHeight(ctx, 0)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("height", b.Height, "minerinfo", b.MinerInfo, "transactions", len(b.Tx))
	hash, _ := ela.ParseHash(b.Hash)
	raw, _ := rpc.RawBlock(ctx, hash)
	parsed, _ := ela.ParseBlock(raw)
	fmt.Println("raw form hashes to the block hash:", parsed.Hash() == hash)
	// Output:
	// height 0 minerinfo ELA transactions 2
	// raw form hashes to the block hash: true
}

// A block the node does not have is an *RPCError with the side chain's
// code for it.
func ExampleRPCError() {
	_, c, stop := exampleNode()
	defer stop()
	_, err := c.ChainRPC().BlockHash(context.Background(), 99)
	var re *client.RPCError
	if errors.As(err, &re) {
		fmt.Println(re.Code == client.RPCCodeUnknownBlock, re.Message, re.Data)
	}
	// Output: true Unknown Block no block at height 99
}
