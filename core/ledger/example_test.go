package ledger_test

import (
	"crypto/sha256"
	"fmt"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/ledger"
)

// A node admits a transaction spending the genesis coinbase, then puts it
// in the next block, checking each rule as it goes.
func Example() {
	p := ledger.Devnet()
	seed := sha256.Sum256([]byte("example key"))
	key, _ := keys.NewPrivateKey(seed[:])
	owner := ela.ToProgramHash(ela.PrefixStandard, ela.SingleKeyScript(key.Public(), ela.OpCheckSig))
	genesis := p.Genesis(owner, 10*ela.OneELA, 1767225600)

	// The transaction pays 4 ELA to itself and leaves the minimum fee.
	coinbase := genesis.Transactions[0]
	tx := &ela.Tx{
		Payload: &ela.TransferAsset{},
		Inputs:  []ela.Input{{TxID: coinbase.Hash(), Index: 0}},
		Outputs: []ela.Output{
			{AssetID: p.Asset, Value: 4 * ela.OneELA, ProgramHash: owner},
			{AssetID: p.Asset, Value: 6*ela.OneELA - p.MinFee, ProgramHash: owner},
		},
	}
	tx.SignStandard(key)

	spent := []ledger.Spent{{Output: coinbase.Outputs[0], Height: 0, Coinbase: true}}
	fee, err := p.CheckSpends(tx, spent, 1)
	fmt.Println("fee", fee, err)
	fmt.Println("sanity", p.CheckTx(tx))
	fmt.Println("signatures", tx.VerifyPrograms(ledger.Referenced(spent), keys.Native{}))

	block := p.NewBlock(&genesis.Header, genesis.Header.Timestamp+1,
		[]*ela.Tx{p.Coinbase(1, owner, fee+p.Subsidy), tx})
	fmt.Println("block", p.CheckBlock(block, &genesis.Header))
	fmt.Println("coinbase", p.CheckCoinbase(block.Transactions[0], 1, fee))

	// Spending the same output again in one block breaks a block rule.
	twice := p.NewBlock(&genesis.Header, genesis.Header.Timestamp+1,
		[]*ela.Tx{p.Coinbase(1, owner, p.Subsidy), tx, withChange(tx, p.MinFee)})
	fmt.Println(p.CheckBlock(twice, &genesis.Header))
	// Output:
	// fee 0.00000100 <nil>
	// sanity <nil>
	// signatures <nil>
	// block <nil>
	// coinbase <nil>
	// ledger: block: double-spend: transaction 2: output 12432805bf3807a21701e8f778fa6fa100ec2c11b0d5f2161437bfe43d86a06d:0 is also spent by transaction 1
}

// withChange returns a copy of tx whose last output pays less by d.
func withChange(tx *ela.Tx, d ela.Fixed64) *ela.Tx {
	c := *tx
	c.Outputs = append([]ela.Output(nil), tx.Outputs...)
	c.Outputs[len(c.Outputs)-1].Value -= d
	return &c
}

// A pool refuses a second transaction spending an output a pooled one
// spends, until the first leaves it (a block took it in).
func ExamplePool() {
	pool := ledger.NewPool[string](100, 1<<20)
	coin := ela.Input{TxID: ela.Hash{1}, Index: 0}
	first := ledger.PoolTx{Tx: &ela.Tx{Inputs: []ela.Input{coin}}, Txid: ela.Hash{2}, Size: 250}
	second := ledger.PoolTx{Tx: &ela.Tx{Inputs: []ela.Input{coin}}, Txid: ela.Hash{3}, Size: 250}

	fmt.Println(pool.Add(first, "first"))
	err := pool.Add(second, "second")
	fmt.Println(ledger.CodeOf(err))
	pool.Remove(first.Txid)
	fmt.Println(pool.Add(second, "second"), pool.Len())
	// Output:
	// <nil>
	// ErrDoubleSpend
	// <nil> 1
}
