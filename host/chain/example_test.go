package chain_test

import (
	"context"
	"fmt"
	"time"

	"didlight/core/did"
	"didlight/core/ela"
	"didlight/core/idop"
	"didlight/host/chain"
	"didlight/host/store/mem"
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
	result, _ := c.ResolveDID(doc.Subject(), false)
	fmt.Println("height", height)
	fmt.Println(string(result[:60]))
	// Output:
	// dev account EYGSgJEYrhjKe3vgiazVWR8RnAtiqERGjK 10000000.00000000
	// height 1
	// {"did":"did:elastos:im8U6zirDYTg7z3SBxHFxNkHDnYLCUwpdY","sta
}
