package ledger

import (
	"encoding/binary"

	"github.com/didlight/didlight/core/ela"
)

// CoinbaseData is what the coinbases this package makes carry as their
// miner's name.
const CoinbaseData = "didlight"

// Coinbase returns the coinbase of the block at height: one input of the
// coinbase form, one output paying amount of the native asset to payTo,
// the height as lock time, and a nonce attribute holding the height, so
// that coinbases of different heights never share a hash (Elastos.ELA.SideChain
// pow/pow.go CreateCoinBaseTx, with the single miner output of heights
// after RewardMinerOnlyStartHeight).
func (p *Params) Coinbase(height uint32, payTo ela.ProgramHash, amount ela.Fixed64) *ela.Tx {
	return &ela.Tx{
		Payload:    &ela.CoinBase{Data: []byte(CoinbaseData)},
		Attributes: []ela.Attribute{{Usage: ela.AttrNonce, Data: binary.BigEndian.AppendUint64(nil, uint64(height))}},
		Inputs:     []ela.Input{{Index: 0xffff, Sequence: finalSequence}},
		Outputs:    []ela.Output{{AssetID: p.Asset, Value: amount, ProgramHash: payTo}},
		LockTime:   height,
		Programs:   []ela.Program{},
	}
}

// CheckCoinbase checks the coinbase of the block at height whose other
// transactions pay fees: a coinbase with one input of the coinbase form,
// the height as lock time, no programs, and outputs of the native asset
// that together pay at most fees plus Subsidy (Elastos.ELA.SideChain
// mempool/validator.go checkTransactionInput and checkTransactionCoinBase).
func (p *Params) CheckCoinbase(tx *ela.Tx, height uint32, fees ela.Fixed64) error {
	switch {
	case tx.Type() != ela.TxCoinBase:
		return Errorf(Payload, "a coinbase of type %s", tx.Type())
	case len(tx.Inputs) != 1 || !isCoinbaseInput(tx.Inputs[0]):
		return Errorf(InvalidInput, "a coinbase needs exactly one input of the coinbase form")
	case tx.LockTime != height:
		return Errorf(Locked, "the coinbase of height %d has lock time %d", height, tx.LockTime)
	case len(tx.Programs) != 0:
		return Errorf(Signature, "a coinbase has %d programs, want none", len(tx.Programs))
	}
	if err := p.checkOutputs(tx); err != nil {
		return err
	}
	limit, ok := add(fees, p.Subsidy)
	if !ok {
		return Errorf(Balance, "the fees %s and subsidy %s overflow", fees, p.Subsidy)
	}
	var paid ela.Fixed64
	for i, o := range tx.Outputs {
		if o.Value < 0 {
			return Errorf(Balance, "coinbase output %d has the negative value %s", i, o.Value)
		}
		if paid, ok = add(paid, o.Value); !ok || paid > limit {
			return Errorf(Balance, "the coinbase pays more than the fees %s and subsidy %s", fees, p.Subsidy)
		}
	}
	return nil
}
