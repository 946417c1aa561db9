package ledger

import "github.com/didlight/didlight/core/ela"

// MaxTxSize is the largest transaction, in bytes, a chain accepts: a block's
// limit (Elastos.ELA.SideChain mempool/validator.go checkTransactionSize).
const MaxTxSize = ela.MaxBlockSize

// CheckSize checks the encoded size of a transaction, before it is decoded
// (a size too small for a transaction is for the decoder to refuse).
func CheckSize(n int) error {
	if n > MaxTxSize {
		return Errorf(Size, "transaction of %d bytes, the limit is %d", n, MaxTxSize)
	}
	return nil
}

// coinbaseInput is the outpoint a coinbase's only input names.
func isCoinbaseInput(in ela.Input) bool { return in.TxID.IsZero() && in.Index == 0xffff }

// accepted reports whether transactions of type t may enter the chain's
// blocks from outside: coins move, records and identity operations. A
// coinbase is made by the block's producer, assets are registered only at
// genesis, and the cross-chain types need a main chain.
func accepted(t ela.TxType) bool {
	switch t {
	case ela.TxTransferAsset, ela.TxRecord, ela.TxDIDOperation:
		return true
	}
	return false
}

// CheckTx checks what a transaction other than a coinbase must satisfy on
// its own: a type the chain accepts, inputs (none repeated, none of the
// coinbase form) and outputs, each of the native asset and locked to an
// address kind outputs may use: standard, multisig, cross-chain, identity,
// or the zero hash that burns (Elastos.ELA.SideChain mempool/validator.go
// checkTransactionInput, checkTransactionOutput and
// Elastos.ELA.SideChain.ID mempool/validator.go checkOutputProgramHash).
func (p *Params) CheckTx(tx *ela.Tx) error {
	if !accepted(tx.Type()) {
		return Errorf(Payload, "transactions of type %s are not accepted", tx.Type())
	}
	if len(tx.Inputs) == 0 {
		return Errorf(InvalidInput, "the transaction has no inputs")
	}
	seen := make(map[ela.Input]int, len(tx.Inputs))
	for i, in := range tx.Inputs {
		if isCoinbaseInput(in) {
			return Errorf(InvalidInput, "input %d has the coinbase form", i)
		}
		key := ela.Input{TxID: in.TxID, Index: in.Index}
		if j, ok := seen[key]; ok {
			return Errorf(InvalidInput, "inputs %d and %d both spend %s:%d", j, i, in.TxID, in.Index)
		}
		seen[key] = i
	}
	return p.checkOutputs(tx)
}

func (p *Params) checkOutputs(tx *ela.Tx) error {
	if len(tx.Outputs) == 0 {
		return Errorf(InvalidOutput, "the transaction has no outputs")
	}
	for i, o := range tx.Outputs {
		if o.AssetID != p.Asset {
			return Errorf(InvalidOutput, "output %d holds asset %s, the chain carries only %s", i, o.AssetID, p.Asset)
		}
		if !outputAddress(o.ProgramHash) {
			return Errorf(InvalidOutput, "output %d is locked to program hash %s, whose prefix 0x%02x outputs may not use", i, o.ProgramHash.Hex(), byte(o.ProgramHash.Prefix()))
		}
	}
	return nil
}

func outputAddress(h ela.ProgramHash) bool {
	switch h.Prefix() {
	case ela.PrefixStandard, ela.PrefixMultiSig, ela.PrefixCrossChain, ela.PrefixIdentity:
		return true
	}
	return h == ela.ProgramHash{}
}
