package spend

import (
	"errors"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/keys"
)

func coin(b byte, index uint16, value ela.Fixed64) Coin {
	return Coin{Txid: ela.Hash{b}, Index: index, Value: value}
}

func TestSelect(t *testing.T) {
	tests := []struct {
		name  string
		coins []Coin
		need  ela.Fixed64
		want  []Coin
	}{
		{"smallest coin that covers", []Coin{coin(1, 0, 50), coin(2, 0, 10), coin(3, 0, 12), coin(4, 0, 9)}, 10, []Coin{coin(2, 0, 10)}},
		{"largest first when none covers", []Coin{coin(1, 0, 5), coin(2, 0, 7), coin(3, 0, 3), coin(4, 0, 6)}, 12, []Coin{coin(2, 0, 7), coin(4, 0, 6)}},
		{"equal values in txid then index order", []Coin{coin(2, 1, 5), coin(2, 0, 5), coin(1, 3, 5)}, 10, []Coin{coin(1, 3, 5), coin(2, 0, 5)}},
		{"every coin", []Coin{coin(1, 0, 5), coin(2, 0, 5)}, 10, []Coin{coin(1, 0, 5), coin(2, 0, 5)}},
		{"nothing needed still spends one coin", []Coin{coin(1, 0, 5), coin(2, 0, 3)}, 0, []Coin{coin(2, 0, 3)}},
	}
	for _, tt := range tests {
		got, total, err := Select(tt.coins, tt.need)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		var sum ela.Fixed64
		for _, c := range tt.want {
			sum += c.Value
		}
		if len(got) != len(tt.want) || total != sum {
			t.Errorf("%s: %v total %d, want %v total %d", tt.name, got, total, tt.want, sum)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%s: coin %d is %v, want %v", tt.name, i, got[i], tt.want[i])
			}
		}
	}
}

func TestSelectErrors(t *testing.T) {
	tests := []struct {
		name  string
		coins []Coin
		need  ela.Fixed64
		msg   string
	}{
		{"short", []Coin{coin(1, 0, 5), coin(2, 0, 4)}, 10, "balance 0.00000009 is short of the 0.00000010"},
		{"no coins", nil, 1, "short"},
		{"zero coin", []Coin{coin(1, 0, 0)}, 1, "has value"},
		{"twice", []Coin{coin(1, 0, 5), coin(1, 0, 5)}, 1, "listed twice"},
		{"overflow", []Coin{coin(1, 0, maxFixed64), coin(2, 0, 1)}, 1, "beyond the largest"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Select(tt.coins, tt.need)
			if err == nil || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.msg)
			}
		})
	}
	var short *ShortError
	if _, _, err := Select([]Coin{coin(1, 0, 5)}, 6); !errors.As(err, &short) || short.Need != 6 || short.Have != 5 {
		t.Errorf("short: error %v, want *ShortError{6, 5}", err)
	}
	many := make([]Coin, MaxInputs+1)
	for i := range many {
		many[i] = Coin{Txid: ela.Hash{byte(i), byte(i >> 8)}, Value: 1}
	}
	if _, _, err := Select(many, MaxInputs+1); err == nil || !strings.Contains(err.Error(), "merge") {
		t.Errorf("too many coins: error %v", err)
	}
}

func address(t *testing.T, seed byte) ela.ProgramHash {
	k, err := keys.NewPrivateKey(append(make([]byte, 31), seed))
	if err != nil {
		t.Fatal(err)
	}
	return ela.ToProgramHash(ela.PrefixStandard, ela.SingleKeyScript(k.Public(), ela.OpCheckSig))
}

func TestBuild(t *testing.T) {
	from, to := address(t, 1), address(t, 2)
	asset := ela.ELAAssetID()
	o := Order{From: from, Asset: asset, Coins: []Coin{coin(1, 0, 3*ela.OneELA), coin(2, 1, 2*ela.OneELA)},
		To: []Payment{{To: to, Amount: ela.OneELA}}, Fee: 100}
	tx, err := Build(o)
	if err != nil {
		t.Fatal(err)
	}
	if tx.Type() != ela.TxTransferAsset || len(tx.Programs) != 0 {
		t.Errorf("type %v with %d programs, want an unsigned transfer", tx.Type(), len(tx.Programs))
	}
	if len(tx.Inputs) != 1 || tx.Inputs[0].TxID != (ela.Hash{2}) || tx.Inputs[0].Index != 1 {
		t.Errorf("inputs %+v, want the 2 ELA coin", tx.Inputs)
	}
	want := []ela.Output{{AssetID: asset, Value: ela.OneELA, ProgramHash: to}, {AssetID: asset, Value: ela.OneELA - 100, ProgramHash: from}}
	if len(tx.Outputs) != 2 || tx.Outputs[0] != want[0] || tx.Outputs[1] != want[1] {
		t.Errorf("outputs %+v, want payment then change %+v", tx.Outputs, want)
	}
	// The unsigned encoding decodes to the same transaction.
	back, err := ela.ParseTx(tx.Bytes())
	if err != nil || back.Hash() != tx.Hash() {
		t.Errorf("ParseTx of the encoding: %v, %v", back, err)
	}

	// Exact amount: no change output. Only a fee: a DID operation's payload.
	exact := o
	exact.Coins = []Coin{coin(3, 0, ela.OneELA+100)}
	if tx, err := Build(exact); err != nil || len(tx.Outputs) != 1 {
		t.Errorf("exact amount: %v outputs, %v; want the payment alone", tx, err)
	}
	op := Order{From: from, Asset: asset, Coins: o.Coins, Fee: 100, Payload: &ela.Operation{}}
	if tx, err := Build(op); err != nil || tx.Type() != ela.TxDIDOperation || len(tx.Outputs) != 1 || tx.Outputs[0].Value != 2*ela.OneELA-100 {
		t.Errorf("fee only: %+v, %v; want a 0x0a transaction with the change alone", tx, err)
	}
}

func TestBuildErrors(t *testing.T) {
	from, to := address(t, 1), address(t, 2)
	coins := []Coin{coin(1, 0, ela.OneELA)}
	tests := []struct {
		name string
		o    Order
		msg  string
	}{
		{"negative fee", Order{From: from, Coins: coins, Fee: -1}, "fee -0.00000001 is negative"},
		{"zero amount", Order{From: from, Coins: coins, To: []Payment{{To: to}}}, "not positive"},
		{"no address", Order{From: from, Coins: coins, To: []Payment{{Amount: 1}}}, "no address"},
		{"amount overflow", Order{From: from, Coins: coins, Fee: 1, To: []Payment{{To: to, Amount: maxFixed64}}}, "beyond the largest"},
		{"short", Order{From: from, Coins: coins, Fee: 100, To: []Payment{{To: to, Amount: ela.OneELA}}}, "short of the 1.00000100"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Build(tt.o); err == nil || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.msg)
			}
		})
	}
}
