package spend_test

import (
	"fmt"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/spend"
)

// Pay 1.5 ELA with a fee of 100 sela from an address holding two coins:
// the 2 ELA coin covers it alone, and the change goes back to the payer.
func ExampleBuild() {
	from, err := ela.ParseAddress("EUL3gVZCdJaj6oRfGfzYu8v41ecZvE1Unz")
	if err != nil {
		panic(err)
	}
	to, err := ela.ParseAddress("EJyNEaTDCKDeT7Q1Yn2Xb5fh25vUqifw4z")
	if err != nil {
		panic(err)
	}
	tx, err := spend.Build(spend.Order{
		From:  from,
		Asset: ela.ELAAssetID(),
		Coins: []spend.Coin{{Txid: ela.Hash{1}, Value: 5 * ela.OneELA}, {Txid: ela.Hash{2}, Value: 2 * ela.OneELA}},
		To:    []spend.Payment{{To: to, Amount: 150_000_000}},
		Fee:   100,
	})
	if err != nil {
		panic(err)
	}
	for _, o := range tx.Outputs {
		fmt.Println(o.ProgramHash.Address(), o.Value)
	}
	// Output:
	// EJyNEaTDCKDeT7Q1Yn2Xb5fh25vUqifw4z 1.50000000
	// EUL3gVZCdJaj6oRfGfzYu8v41ecZvE1Unz 0.49999900
}
