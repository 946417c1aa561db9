// Package spend builds unsigned ledger transactions that spend an address's coins.
//
// It builds unsigned ledger transactions that spend an address's coins: it
// picks which unspent outputs pay an order's amounts and fee, and sends the
// change back to the payer. A payment is a TransferAsset transaction; a DID
// operation rides the same way as the payload of a transaction of type 0x0a.
//
// Selection is deterministic: the same coins and order give the same
// transaction, so a wallet can show what it will sign before it signs.
package spend

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/didlight/didlight/core/ela"
)

// MaxInputs caps the coins one transaction spends; a wallet with more, smaller
// coins must first pay itself to merge them.
const MaxInputs = 1000

// Coin is an unspent output of the payer, in the asset being spent.
type Coin struct {
	Txid  ela.Hash
	Index uint16
	Value ela.Fixed64
}

// Payment pays Amount to an address.
type Payment struct {
	To     ela.ProgramHash
	Amount ela.Fixed64
}

// Order is what to build.
type Order struct {
	From    ela.ProgramHash // the payer, whose Coins are spent and who gets the change
	Coins   []Coin          // the payer's unspent outputs of Asset
	Asset   ela.Hash        // the asset spent (ELA: ela.ELAAssetID())
	To      []Payment       // may be empty when only the fee is paid (a DID operation)
	Fee     ela.Fixed64
	Payload ela.Payload // nil means a plain transfer (ela.TransferAsset)
}

// ShortError says the payer's coins do not cover the order.
type ShortError struct {
	Need, Have ela.Fixed64
}

func (e *ShortError) Error() string {
	return fmt.Sprintf("spend: balance %s is short of the %s needed (amounts and fee)", e.Have, e.Need)
}

// Build returns the unsigned transaction of the order: the inputs Select
// picks, an output per payment in order, and a change output to From when
// something is left. Errors: *ShortError, or what is wrong with the order.
func Build(o Order) (*ela.Tx, error) {
	need := o.Fee
	if o.Fee < 0 {
		return nil, fmt.Errorf("spend: fee %s is negative", o.Fee)
	}
	outputs := make([]ela.Output, 0, len(o.To)+1)
	for i, p := range o.To {
		if p.Amount <= 0 {
			return nil, fmt.Errorf("spend: payment %d: amount %s is not positive", i, p.Amount)
		}
		if p.To == (ela.ProgramHash{}) {
			return nil, fmt.Errorf("spend: payment %d has no address", i)
		}
		if need > maxFixed64-p.Amount {
			return nil, fmt.Errorf("spend: the amounts add up beyond the largest amount")
		}
		need += p.Amount
		outputs = append(outputs, ela.Output{AssetID: o.Asset, Value: p.Amount, ProgramHash: p.To})
	}
	coins, total, err := Select(o.Coins, need)
	if err != nil {
		return nil, err
	}
	if change := total - need; change > 0 {
		outputs = append(outputs, ela.Output{AssetID: o.Asset, Value: change, ProgramHash: o.From})
	}
	payload := o.Payload
	if payload == nil {
		payload = &ela.TransferAsset{}
	}
	tx := &ela.Tx{Payload: payload, Outputs: outputs}
	for _, c := range coins {
		tx.Inputs = append(tx.Inputs, ela.Input{TxID: c.Txid, Index: c.Index})
	}
	return tx, nil
}

// maxFixed64 is the largest amount.
const maxFixed64 = ela.Fixed64(1<<63 - 1)

// Select picks coins worth at least need and returns them with their total:
// the smallest single coin that covers need if there is one (large coins
// stay whole and no dust is made), else the largest coins first until they
// do. Coins of equal value go in txid and index order. A coin listed twice
// or without value is refused; a need the coins cannot meet gives a
// *ShortError. At least one coin is picked, as a transaction needs an input.
func Select(coins []Coin, need ela.Fixed64) ([]Coin, ela.Fixed64, error) {
	sorted := slices.Clone(coins)
	slices.SortFunc(sorted, func(a, b Coin) int {
		return cmp.Or(cmp.Compare(b.Value, a.Value), slices.Compare(a.Txid[:], b.Txid[:]), cmp.Compare(a.Index, b.Index))
	})
	var have ela.Fixed64
	seen := make(map[ela.Input]bool, len(sorted))
	for _, c := range sorted {
		in := ela.Input{TxID: c.Txid, Index: c.Index}
		switch {
		case c.Value <= 0:
			return nil, 0, fmt.Errorf("spend: coin %s:%d has value %s", c.Txid, c.Index, c.Value)
		case seen[in]:
			return nil, 0, fmt.Errorf("spend: coin %s:%d is listed twice", c.Txid, c.Index)
		case have > maxFixed64-c.Value:
			return nil, 0, fmt.Errorf("spend: the coins add up beyond the largest amount")
		}
		seen[in] = true
		have += c.Value
	}
	if len(sorted) == 0 || have < need {
		return nil, 0, &ShortError{Need: need, Have: have}
	}
	if sorted[0].Value >= need {
		i := 0
		for i+1 < len(sorted) && sorted[i+1].Value >= need {
			i++
		}
		return sorted[i : i+1], sorted[i].Value, nil
	}
	n, total := 0, ela.Fixed64(0)
	for total < need { // ends: the coins add up to have ≥ need
		total += sorted[n].Value
		n++
	}
	if n > MaxInputs {
		return nil, 0, fmt.Errorf("spend: paying %s takes %d coins, more than %d: pay yourself first to merge them", need, n, MaxInputs)
	}
	return sorted[:n], total, nil
}
