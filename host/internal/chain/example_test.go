package chain_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/find"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// A devnet in memory: publish a DID funded by the dev account, then
// resolve it.
func Example() {
	c, err := chain.Open(chain.Config{DB: mem.New(), Now: func() time.Time { return chain.GenesisTime.Add(time.Hour) }})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go c.Run(ctx) // produce a block as soon as a transaction arrives

	dev := c.DevAccount()
	funds, _ := c.Balance(dev.ProgramHash, ela.ELAAssetID())
	fmt.Println("dev account", dev.Address, funds)

	key := chain.DevKey("example user") // any P-256 key
	doc, _ := did.NewDocument(key.Public(), chain.GenesisTime.AddDate(1, 0, 0))
	primary, _ := doc.DefaultKey()
	doc, _ = doc.Sign(key, primary.ID, chain.GenesisTime)
	create, _ := idop.NewCreate(doc, primary.ID, key)
	if _, err := c.SubmitRequest(ctx, create); err != nil {
		fmt.Println(err)
		return
	}
	height, _, _ := c.Tip()
	result, _ := c.ResolveDID(context.Background(), doc.Subject(), false)
	fmt.Println("height", height)
	fmt.Println(string(result[:60]))
	// Output:
	// dev account EYGSgJEYrhjKe3vgiazVWR8RnAtiqERGjK 10000000.00000000
	// height 1
	// {"did":"did:elastos:im8U6zirDYTg7z3SBxHFxNkHDnYLCUwpdY","sta
}

// A transfer from the dev account, signed with its key; the same
// transaction again is refused with ELA's duplicate code.
func ExampleChain_SubmitTx() {
	c, _ := chain.Open(chain.Config{DB: mem.New(), Now: func() time.Time { return chain.GenesisTime.Add(time.Hour) }})
	defer c.Close()
	dev := c.DevAccount()
	utxos, _ := c.UTXOs(dev.ProgramHash)
	to, _ := ela.ParseAddress("EbVKbGDWFmS83NQjC9Bwn1E8AcRmTAtacm")
	tx := &ela.Tx{
		Payload: &ela.TransferAsset{},
		Inputs:  []ela.Input{{TxID: utxos[0].Txid, Index: utxos[0].Index}},
		Outputs: []ela.Output{
			{AssetID: ela.ELAAssetID(), Value: 5 * ela.OneELA, ProgramHash: to},
			{AssetID: ela.ELAAssetID(), Value: utxos[0].Value - 5*ela.OneELA - 100, ProgramHash: dev.ProgramHash},
		},
	}
	tx.SignStandard(dev.PrivateKey)
	txid, err := c.SubmitTx(tx.Bytes())
	fmt.Println(txid == tx.Hash(), err)
	_, err = c.SubmitTx(tx.Bytes())
	var reject *chain.RejectError
	fmt.Println(errors.As(err, &reject), reject.Code)

	c.Mine(context.Background())
	balance, _ := c.Balance(to, ela.ELAAssetID())
	fmt.Println(balance)
	// Output:
	// true <nil>
	// true 45011
	// 5.00000000
}

// Documents by service type, or by a find condition matched against each
// document's query view.
func ExampleChain_Query() {
	c, _ := chain.Open(chain.Config{DB: mem.New(), Now: func() time.Time { return chain.GenesisTime.Add(time.Hour) }})
	defer c.Close()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go c.Run(ctx)
	for _, name := range []string{"ann", "ben"} {
		key := chain.DevKey(name)
		hub := did.NewService(did.URL{Fragment: "hub"}, "Hub", "https://"+name+".example.com")
		doc, _ := did.NewDocument(key.Public(), chain.GenesisTime.AddDate(1, 0, 0), hub)
		primary, _ := doc.DefaultKey()
		doc, _ = doc.Sign(key, primary.ID, chain.GenesisTime)
		create, _ := idop.NewCreate(doc, primary.ID, key)
		c.SubmitRequest(ctx, create)
	}
	byType, _ := c.Query(context.Background(), chain.Query{Service: "Hub", Limit: 1})
	fmt.Println(string(byType[:30]))
	cond, _ := find.Compile(`{"service.serviceEndpoint":{$regex:"^https://ben"}}`)
	byCondition, _ := c.Query(context.Background(), chain.Query{Condition: cond})
	fmt.Println(string(byCondition[:30]))
	// Output:
	// {"total":2,"start":0,"count":1
	// {"total":1,"start":0,"count":1
}
