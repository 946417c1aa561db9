package chain

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/ledger"
)

// Every code the chain refuses a transaction with, each reached by a
// transaction crafted to break that rule; a refused transaction changes
// nothing.
func TestRejectCodes(t *testing.T) {
	f := newFixture(t, Config{MempoolSize: 3})
	dev, bob := f.dev(), newWallet("bob")
	// Fund bob with five outputs, the fourth locked until height 50.
	locked := out(bob.ph, ela.OneELA)
	locked.OutputLock = 50
	fund := f.spendTx(dev, &ela.TransferAsset{}, f.free(dev),
		out(bob.ph, ela.OneELA), out(bob.ph, ela.OneELA), out(bob.ph, ela.OneELA), locked, out(bob.ph, ela.OneELA))
	f.submit(fund)
	f.mine()
	bobs, _ := f.c.UTXOs(bob.ph)
	if len(bobs) != 5 || bobs[3].Index != 3 || bobs[3].OutputLock != 50 || bobs[2].OutputLock != 0 {
		t.Fatalf("bob holds %+v", bobs)
	}
	spent := f.free(dev)
	pooled := f.spendTx(dev, &ela.TransferAsset{}, spent, out(bob.ph, 1000))
	f.submit(pooled)
	mined := fund

	signed := func(tx *ela.Tx) []byte {
		tx.SignStandard(bob.key)
		return tx.Bytes()
	}
	transfer := func(change func(tx *ela.Tx)) []byte {
		tx := &ela.Tx{Payload: &ela.TransferAsset{}, Inputs: []ela.Input{{TxID: bobs[0].Txid, Index: bobs[0].Index}},
			Outputs: []ela.Output{out(bob.ph, ela.OneELA-f.c.params.MinFee)}}
		change(tx)
		return signed(tx)
	}
	user := newUser("rules")
	doc := user.document(t, GenesisTime.AddDate(5, 0, 0), nil)
	create := user.create(t, doc)
	other := newUser("rules 2")
	otherDoc := other.document(t, GenesisTime.AddDate(5, 0, 0), nil)
	badProof := other.create(t, otherDoc)
	badProof.Proof.Signature = other.key.SignData([]byte("something else")).Text()

	tests := []struct {
		name string
		raw  []byte
		code ledger.Code
		rule idop.Rule
	}{
		{"not a transaction", []byte("hello"), ledger.Malformed, ""},
		{"nothing", nil, ledger.Malformed, ""},
		{"trailing bytes", append(fund.Bytes(), 0), ledger.Malformed, ""},
		{"too large", bytes.Repeat([]byte{2}, ledger.MaxTxSize+1), ledger.Size, ""},
		{"coinbase", signed(f.c.params.Coinbase(9, bob.ph, 1)), ledger.Payload, ""},
		{"register asset", transfer(func(tx *ela.Tx) { tx.Payload = &ela.RegisterAsset{Asset: ela.Asset{Name: "X"}} }), ledger.Payload, ""},
		{"no inputs", transfer(func(tx *ela.Tx) { tx.Inputs = nil }), ledger.InvalidInput, ""},
		{"an input twice", transfer(func(tx *ela.Tx) { tx.Inputs = append(tx.Inputs, tx.Inputs[0]) }), ledger.InvalidInput, ""},
		{"no outputs", transfer(func(tx *ela.Tx) { tx.Outputs = nil }), ledger.InvalidOutput, ""},
		{"other asset", transfer(func(tx *ela.Tx) { tx.Outputs[0].AssetID = mined.Hash() }), ledger.InvalidOutput, ""},
		{"deposit address", transfer(func(tx *ela.Tx) { tx.Outputs[0].ProgramHash[0] = byte(ela.PrefixDeposit) }), ledger.InvalidOutput, ""},
		{"unknown transaction", transfer(func(tx *ela.Tx) { tx.Inputs[0].TxID[0]++ }), ledger.UnknownReferredTx, ""},
		{"unknown output", transfer(func(tx *ela.Tx) { tx.Inputs[0] = ela.Input{TxID: mined.Hash(), Index: 9} }), ledger.UnknownReferredTx, ""},
		{"spent in the chain", transfer(func(tx *ela.Tx) { tx.Inputs[0] = ela.Input{TxID: f.c.genesis.Transactions[0].Hash()} }), ledger.DoubleSpend, ""},
		{"spent in the mempool", f.spendTx(dev, &ela.TransferAsset{}, spent, out(bob.ph, 2000)).Bytes(), ledger.DoubleSpend, ""},
		{"pooled already", pooled.Bytes(), ledger.Duplicate, ""},
		{"mined already", mined.Bytes(), ledger.Duplicate, ""},
		{"fee too low", transfer(func(tx *ela.Tx) { tx.Outputs[0].Value++ }), ledger.Balance, ""},
		{"outputs exceed inputs", transfer(func(tx *ela.Tx) { tx.Outputs[0].Value = 2 * ela.OneELA }), ledger.Balance, ""},
		{"outputs overflow", transfer(func(tx *ela.Tx) {
			tx.Outputs = []ela.Output{out(bob.ph, math.MaxInt64), out(bob.ph, math.MaxInt64)}
		}), ledger.Balance, ""},
		{"unsigned", func() []byte {
			tx := f.spendTx(bob, &ela.TransferAsset{}, bobs[0])
			tx.Programs = nil
			return tx.Bytes()
		}(), ledger.Signature, ""},
		{"signed by another key", func() []byte {
			tx := f.spendTx(bob, &ela.TransferAsset{}, bobs[0])
			tx.Programs = nil
			tx.SignStandard(dev.key)
			return tx.Bytes()
		}(), ledger.Signature, ""},
		{"signature of another transaction", func() []byte {
			tx := f.spendTx(bob, &ela.TransferAsset{}, bobs[0])
			tx.Outputs[0].Value--
			return tx.Bytes()
		}(), ledger.Signature, ""},
		{"not final", transfer(func(tx *ela.Tx) { tx.LockTime = 1000 }), ledger.Locked, ""},
		{"locked output, wrong sequence", transfer(func(tx *ela.Tx) {
			tx.Inputs[0] = ela.Input{TxID: bobs[3].Txid, Index: bobs[3].Index}
			tx.LockTime = 1
		}), ledger.Locked, ""},
		{"locked output, lock time short", transfer(func(tx *ela.Tx) {
			tx.Inputs[0] = ela.Input{TxID: bobs[3].Txid, Index: bobs[3].Index, Sequence: math.MaxUint32 - 1}
			tx.LockTime = 1
		}), ledger.Locked, ""},
		{"identity request, bad payload", signed(f.spendTx(bob, &ela.Operation{Header: ela.OperationHeader{Specification: idop.SpecDID, Operation: idop.Create},
			Payload: "!!", Proof: ela.OperationProof{VerificationMethod: "#primary", Signature: "x"}}, bobs[0])), ledger.Payload, idop.RuleMalformed},
		{"identity request, bad signature", f.spendTx(bob, operation(badProof), bobs[0]).Bytes(), ledger.Payload, idop.RuleSignature},
		{"identity request, update of nothing", f.spendTx(bob, operation(func() idop.Request {
			r, _ := idop.NewUpdate(otherDoc, pooled.Hash().String(), other.primary(), other.key)
			return r
		}()), bobs[0]).Bytes(), ledger.Payload, idop.RuleNotFound},
		{"pool full", f.spendTx(bob, &ela.TransferAsset{}, bobs[1]).Bytes(), ledger.PoolFull, ""},
	}
	// The pool holds one transaction; two more fill it, so that the last
	// case finds it full while the others are refused for their own rule.
	f.submit(f.spendTx(bob, operation(create), bobs[2]))
	second := user.update(t, user.document(t, GenesisTime.AddDate(6, 0, 0), nil))
	tests = append(tests[:len(tests)-1], struct {
		name string
		raw  []byte
		code ledger.Code
		rule idop.Rule
	}{"identity request, DID pending", f.spendTx(bob, operation(second), bobs[0]).Bytes(), ledger.Payload, idop.RulePending}, tests[len(tests)-1])
	f.submit(f.spendTx(bob, &ela.TransferAsset{}, bobs[4]))

	pool := f.c.Mempool()
	stats := f.c.Stats()
	for i, tt := range tests {
		h, err := f.c.SubmitTx(tt.raw)
		r := wantReject(t, tt.name, err, tt.code)
		if r != nil && idop.RuleOf(err) != tt.rule {
			t.Errorf("%s: rule %q (%v), want %q", tt.name, idop.RuleOf(err), err, tt.rule)
		}
		if r != nil && ledger.CodeOf(err) != 0 && ledger.CodeOf(err) != tt.code {
			t.Errorf("%s: the ledger rule says %d", tt.name, ledger.CodeOf(err))
		}
		if !h.IsZero() {
			t.Errorf("%s: a refused transaction gets id %s", tt.name, h)
		}
		if got := f.c.Stats(); got.RxTxnCnt != stats.RxTxnCnt+uint64(i+1) || got.Mempool != len(pool) || got.TxnCnt != stats.TxnCnt {
			t.Errorf("%s: stats %+v after, %+v before", tt.name, got, stats)
		}
	}
	if got := f.c.Mempool(); len(got) != len(pool) {
		t.Errorf("the mempool holds %d transactions, had %d", len(got), len(pool))
	}
	checkIndexes(t, f.c)
	var r *RejectError
	_, err := f.c.SubmitTx([]byte{1})
	if !errors.As(err, &r) || r.Error() == "" || errors.Unwrap(r) == nil {
		t.Errorf("RejectError %v does not say why", err)
	}
}

// The mempool also bounds the bytes it holds; a block frees them.
func TestMempoolBytes(t *testing.T) {
	f := newFixture(t, Config{})
	f.split(f.dev(), 2)
	first := f.transfer(f.dev(), newWallet("a").ph, 1)
	f.c.Close()
	f.cfg.MempoolBytes = first.Size() + 10
	f.open()
	f.submit(first)
	second := f.transfer(f.dev(), newWallet("b").ph, 1)
	_, err := f.c.SubmitTx(second.Bytes())
	wantReject(t, "a second transaction", err, ledger.PoolFull)
	f.mine()
	f.submit(second)
}
