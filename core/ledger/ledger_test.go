package ledger

import (
	"math"
	"testing"

	"github.com/didlight/didlight/core/ela"
)

var (
	params = Devnet()
	alice  = ela.ProgramHash{byte(ela.PrefixStandard), 1}
	prev   = ela.Hash{7}
)

// transfer is a transaction spending output 0 of prev and paying value to
// alice.
func transfer(value ela.Fixed64) *ela.Tx {
	return &ela.Tx{
		Payload: &ela.TransferAsset{},
		Inputs:  []ela.Input{{TxID: prev}},
		Outputs: []ela.Output{{AssetID: params.Asset, Value: value, ProgramHash: alice}},
	}
}

// holding is an ordinary spent output of value.
func holding(value ela.Fixed64) Spent {
	return Spent{Output: ela.Output{AssetID: params.Asset, Value: value, ProgramHash: alice}, Height: 3}
}

func wantCode(t *testing.T, name string, err error, want Code) {
	t.Helper()
	if got := CodeOf(err); got != want {
		t.Errorf("%s: code %v (%v), want %v", name, got, err, want)
	}
}

func TestCheckTx(t *testing.T) {
	tests := []struct {
		name   string
		change func(tx *ela.Tx)
		want   Code
	}{
		{"transfer", func(*ela.Tx) {}, 0},
		{"record", func(tx *ela.Tx) { tx.Payload = &ela.Record{Type: "t", Data: []byte("d")} }, 0},
		{"identity operation", func(tx *ela.Tx) { tx.Payload = &ela.Operation{} }, 0},
		{"identity output", func(tx *ela.Tx) { tx.Outputs[0].ProgramHash[0] = byte(ela.PrefixIdentity) }, 0},
		{"burn", func(tx *ela.Tx) { tx.Outputs[0].ProgramHash = ela.ProgramHash{} }, 0},
		{"coinbase", func(tx *ela.Tx) { tx.Payload = &ela.CoinBase{} }, Payload},
		{"register asset", func(tx *ela.Tx) { tx.Payload = &ela.RegisterAsset{} }, Payload},
		{"cross chain", func(tx *ela.Tx) { tx.Payload = &ela.TransferCrossChainAsset{} }, Payload},
		{"recharge", func(tx *ela.Tx) { tx.Payload = &ela.RechargeToSideChain{} }, Payload},
		{"no inputs", func(tx *ela.Tx) { tx.Inputs = nil }, InvalidInput},
		{"repeated input", func(tx *ela.Tx) {
			tx.Inputs = append(tx.Inputs, ela.Input{TxID: prev, Sequence: 9})
		}, InvalidInput},
		{"coinbase input", func(tx *ela.Tx) { tx.Inputs[0] = ela.Input{Index: 0xffff} }, InvalidInput},
		{"no outputs", func(tx *ela.Tx) { tx.Outputs = nil }, InvalidOutput},
		{"other asset", func(tx *ela.Tx) { tx.Outputs[0].AssetID = ela.Hash{1} }, InvalidOutput},
		{"deposit address", func(tx *ela.Tx) { tx.Outputs[0].ProgramHash[0] = byte(ela.PrefixDeposit) }, InvalidOutput},
	}
	for _, tt := range tests {
		tx := transfer(1)
		tt.change(tx)
		wantCode(t, tt.name, params.CheckTx(tx), tt.want)
	}
}

func TestCheckSize(t *testing.T) {
	for n, want := range map[int]Code{0: 0, 1: 0, MaxTxSize: 0, MaxTxSize + 1: Size, 1 << 40: Size} {
		wantCode(t, "size", CheckSize(n), want)
	}
}

func TestCheckSpends(t *testing.T) {
	const height = 10
	locked := holding(1000)
	locked.Output.OutputLock = 8
	coinbase := holding(1000)
	coinbase.Coinbase = true
	tests := []struct {
		name    string
		params  Params
		tx      func() *ela.Tx
		spent   []Spent
		wantFee ela.Fixed64
		want    Code
	}{
		{"fee", params, func() *ela.Tx { return transfer(900) }, []Spent{holding(1000)}, 100, 0},
		{"fee below minimum", params, func() *ela.Tx { return transfer(901) }, []Spent{holding(1000)}, 0, Balance},
		{"outputs exceed inputs", params, func() *ela.Tx { return transfer(2000) }, []Spent{holding(1000)}, 0, Balance},
		{"negative output", params, func() *ela.Tx { return transfer(-1) }, []Spent{holding(1000)}, 0, Balance},
		{"outputs overflow", params, func() *ela.Tx {
			tx := transfer(math.MaxInt64)
			tx.Outputs = append(tx.Outputs, tx.Outputs[0])
			return tx
		}, []Spent{holding(1000)}, 0, Balance},
		{"inputs overflow", params, func() *ela.Tx {
			tx := transfer(1)
			tx.Inputs = append(tx.Inputs, ela.Input{TxID: prev, Index: 1})
			return tx
		}, []Spent{holding(math.MaxInt64), holding(math.MaxInt64)}, 0, Balance},
		{"spent count", params, func() *ela.Tx { return transfer(1) }, nil, 0, InvalidInput},
		{"other asset spent", params, func() *ela.Tx { return transfer(1) }, []Spent{{Output: ela.Output{AssetID: ela.Hash{2}, Value: 1000}}}, 0, InvalidInput},
		{"negative spent", params, func() *ela.Tx { return transfer(1) }, []Spent{holding(-5)}, 0, InvalidInput},
		{"mature coinbase", params, func() *ela.Tx { return transfer(900) }, []Spent{coinbase}, 100, 0},
		{"immature coinbase", Params{Asset: params.Asset, MinFee: 100, CoinbaseMaturity: 100},
			func() *ela.Tx { return transfer(900) }, []Spent{coinbase}, 0, ImmatureCoinbase},
		{"lock time reached", params, func() *ela.Tx {
			tx := transfer(900)
			tx.LockTime = height - 1
			return tx
		}, []Spent{holding(1000)}, 100, 0},
		{"not final", params, func() *ela.Tx {
			tx := transfer(900)
			tx.LockTime = height
			return tx
		}, []Spent{holding(1000)}, 0, Locked},
		{"final sequence", params, func() *ela.Tx {
			tx := transfer(900)
			tx.LockTime, tx.Inputs[0].Sequence = height+5, math.MaxUint32
			return tx
		}, []Spent{holding(1000)}, 100, 0},
		{"output lock, wrong sequence", params, func() *ela.Tx {
			tx := transfer(900)
			tx.LockTime = 9
			return tx
		}, []Spent{locked}, 0, Locked},
		{"output lock not reached", params, func() *ela.Tx {
			tx := transfer(900)
			tx.LockTime, tx.Inputs[0].Sequence = 7, math.MaxUint32-1
			return tx
		}, []Spent{locked}, 0, Locked},
		{"output lock reached", params, func() *ela.Tx {
			tx := transfer(900)
			tx.LockTime, tx.Inputs[0].Sequence = 8, math.MaxUint32-1
			return tx
		}, []Spent{locked}, 100, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fee, err := tt.params.CheckSpends(tt.tx(), tt.spent, height)
			wantCode(t, tt.name, err, tt.want)
			if fee != tt.wantFee {
				t.Errorf("%s: fee %s, want %s", tt.name, fee, tt.wantFee)
			}
		})
	}
}

func TestReferenced(t *testing.T) {
	other := holding(1)
	other.Output.ProgramHash[1] = 9
	got := Referenced([]Spent{holding(1), other})
	if len(got) != 2 || got[0] != alice || got[1] != other.Output.ProgramHash {
		t.Errorf("Referenced = %v", got)
	}
}

func TestCoinbase(t *testing.T) {
	cb := params.Coinbase(5, alice, 300)
	if err := params.CheckCoinbase(cb, 5, 300-params.Subsidy); err != nil {
		t.Errorf("a coinbase paying fees and subsidy: %v", err)
	}
	if params.Coinbase(6, alice, 300).Hash() == cb.Hash() {
		t.Error("coinbases of two heights share a hash")
	}
	tests := []struct {
		name   string
		change func(tx *ela.Tx)
		want   Code
	}{
		{"transfer", func(tx *ela.Tx) { tx.Payload = &ela.TransferAsset{} }, Payload},
		{"two inputs", func(tx *ela.Tx) { tx.Inputs = append(tx.Inputs, tx.Inputs[0]) }, InvalidInput},
		{"spending input", func(tx *ela.Tx) { tx.Inputs[0].TxID = prev }, InvalidInput},
		{"lock time", func(tx *ela.Tx) { tx.LockTime = 4 }, Locked},
		{"program", func(tx *ela.Tx) { tx.Programs = []ela.Program{{}} }, Signature},
		{"other asset", func(tx *ela.Tx) { tx.Outputs[0].AssetID = ela.Hash{3} }, InvalidOutput},
		{"overpaid", func(tx *ela.Tx) { tx.Outputs[0].Value++ }, Balance},
		{"overpaid in two outputs", func(tx *ela.Tx) {
			tx.Outputs = append(tx.Outputs, ela.Output{AssetID: params.Asset, Value: 1, ProgramHash: alice})
		}, Balance},
		{"negative", func(tx *ela.Tx) { tx.Outputs[0].Value = -1 }, Balance},
	}
	for _, tt := range tests {
		tx := params.Coinbase(5, alice, 300)
		tt.change(tx)
		wantCode(t, tt.name, params.CheckCoinbase(tx, 5, 300-params.Subsidy), tt.want)
	}
	wantCode(t, "fees overflow", params.CheckCoinbase(cb, 5, math.MaxInt64), Balance)
}

func TestCodeString(t *testing.T) {
	if s := DoubleSpend.String(); s != "ErrDoubleSpend" {
		t.Errorf("DoubleSpend.String() = %q", s)
	}
	if s := Code(1).String(); s != "Code(1)" {
		t.Errorf("Code(1).String() = %q", s)
	}
	err := Errorf(Size, "%d bytes", 9)
	if err.Error() != "ledger: ErrTransactionSize: 9 bytes" || CodeOf(err) != Size {
		t.Errorf("Errorf gives %q, code %v", err, CodeOf(err))
	}
}
