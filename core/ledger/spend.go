package ledger

import (
	"math"

	"github.com/didlight/didlight/core/ela"
)

// Spent is an output an input spends, with what the chain knows of the
// transaction that made it.
type Spent struct {
	Output   ela.Output
	Height   uint32 // height of the block holding the transaction
	Coinbase bool   // whether that transaction is a coinbase
}

// Sequences with a meaning of their own: an input with finalSequence lets
// its transaction ignore its lock time, and only an input with
// lockedSequence may spend an output that has an output lock.
const (
	finalSequence  = math.MaxUint32
	lockedSequence = math.MaxUint32 - 1
)

// CheckSpends checks a transaction against the outputs its inputs spend
// (spent[i] for input i), as it would be included in the block at height,
// and returns its fee. The transaction must be final at that height (lock
// time zero or below it, or every input of finalSequence); a coinbase
// output must have matured; an output with an output lock may be spent
// only by an input of sequence 0xfffffffe in a transaction whose lock time
// reaches the lock; every spent output must hold the native asset; and
// the inputs must pay for the outputs and at least MinFee, without any sum
// overflowing (Elastos.ELA.SideChain blockchain/validator.go
// CheckTransactionFinalize, mempool/validator.go checkReferencedOutput,
// checkTransactionUTXOLock and checkTransactionBalance).
func (p *Params) CheckSpends(tx *ela.Tx, spent []Spent, height uint32) (ela.Fixed64, error) {
	if len(spent) != len(tx.Inputs) {
		return 0, Errorf(InvalidInput, "%d spent outputs given for %d inputs", len(spent), len(tx.Inputs))
	}
	if err := checkFinal(tx, height); err != nil {
		return 0, err
	}
	var in ela.Fixed64
	for i, s := range spent {
		if err := p.checkSpend(tx, i, s, height); err != nil {
			return 0, err
		}
		var ok bool
		if in, ok = add(in, s.Output.Value); !ok {
			return 0, Errorf(Balance, "the inputs' values overflow")
		}
	}
	var out ela.Fixed64
	for i, o := range tx.Outputs {
		if o.Value < 0 {
			return 0, Errorf(Balance, "output %d has the negative value %s", i, o.Value)
		}
		var ok bool
		if out, ok = add(out, o.Value); !ok {
			return 0, Errorf(Balance, "the outputs' values overflow")
		}
	}
	fee := in - out
	switch {
	case in < out:
		return 0, Errorf(Balance, "the outputs pay %s, the inputs hold %s", out, in)
	case fee < p.MinFee:
		return 0, Errorf(Balance, "the fee is %s, the least is %s", fee, p.MinFee)
	}
	return fee, nil
}

func checkFinal(tx *ela.Tx, height uint32) error {
	if tx.LockTime == 0 || tx.LockTime < height {
		return nil
	}
	for i, in := range tx.Inputs {
		if in.Sequence != finalSequence {
			return Errorf(Locked, "the transaction is locked until height %d, the block is at %d, and input %d is not final", tx.LockTime, height, i)
		}
	}
	return nil
}

func (p *Params) checkSpend(tx *ela.Tx, i int, s Spent, height uint32) error {
	in := tx.Inputs[i]
	switch {
	case s.Output.AssetID != p.Asset:
		return Errorf(InvalidInput, "input %d spends asset %s, the chain carries only %s", i, s.Output.AssetID, p.Asset)
	case s.Output.Value < 0:
		return Errorf(InvalidInput, "input %d spends an output of negative value %s", i, s.Output.Value)
	case s.Coinbase && uint64(height) < uint64(s.Height)+uint64(p.CoinbaseMaturity):
		return Errorf(ImmatureCoinbase, "input %d spends a coinbase output of height %d, spendable from height %d", i, s.Height, uint64(s.Height)+uint64(p.CoinbaseMaturity))
	case s.Output.OutputLock == 0:
		return nil
	case in.Sequence != lockedSequence:
		return Errorf(Locked, "input %d spends an output locked until height %d with sequence 0x%08x, want 0x%08x", i, s.Output.OutputLock, in.Sequence, uint32(lockedSequence))
	case tx.LockTime < s.Output.OutputLock:
		return Errorf(Locked, "input %d spends an output locked until height %d, the transaction's lock time is %d", i, s.Output.OutputLock, tx.LockTime)
	}
	return nil
}

// add returns a+b and whether it did not overflow, for a and b not
// negative.
func add(a, b ela.Fixed64) (ela.Fixed64, bool) {
	s := a + b
	return s, s >= a
}

// Referenced returns the program hash of each spent output, in input
// order: the argument [ela.Tx.VerifyPrograms] needs.
func Referenced(spent []Spent) []ela.ProgramHash {
	out := make([]ela.ProgramHash, len(spent))
	for i, s := range spent {
		out[i] = s.Output.ProgramHash
	}
	return out
}
