package ledger

import (
	"errors"
	"fmt"
	"testing"

	"github.com/didlight/didlight/core/ela"
)

func TestGenesis(t *testing.T) {
	g := params.Genesis(alice, 1000*ela.OneELA, 1767225600)
	if len(g.Transactions) != 2 || g.Transactions[0].Type() != ela.TxCoinBase || g.Transactions[1].Hash() != ela.ELAAssetID() {
		t.Fatalf("genesis transactions %v", g.Transactions)
	}
	if h := g.Header; h.Height != 0 || !h.Previous.IsZero() || h.MerkleRoot != g.MerkleRoot() || h.Timestamp != 1767225600 {
		t.Errorf("genesis header %+v", h)
	}
	if again := params.Genesis(alice, 1000*ela.OneELA, 1767225600); again.Hash() != g.Hash() {
		t.Error("genesis is not deterministic")
	}
	bob := alice
	bob[2] = 1
	if params.Genesis(bob, 1000*ela.OneELA, 1767225600).Hash() == g.Hash() {
		t.Error("genesis does not depend on who it pays")
	}
	// The block round-trips through the wire format, AuxPow included.
	back, err := ela.ParseBlock(g.Bytes())
	if err != nil || back.Hash() != g.Hash() {
		t.Errorf("genesis does not decode back: %v", err)
	}
}

// chainOf returns a genesis and the next block holding a coinbase and txs.
func chainOf(txs ...*ela.Tx) (*ela.Block, *ela.Block) {
	g := params.Genesis(alice, ela.OneELA, 1000)
	return g, params.NewBlock(&g.Header, 1001, append([]*ela.Tx{params.Coinbase(1, alice, 1)}, txs...))
}

// NewBlockOf, given the ids, makes the block NewBlock makes.
func TestNewBlockOf(t *testing.T) {
	g, b := chainOf(params.Coinbase(7, alice, 2), ela.ELAAsset())
	ids := make([]ela.Hash, len(b.Transactions))
	for i, tx := range b.Transactions {
		ids[i] = tx.Hash()
	}
	of := params.NewBlockOf(&g.Header, b.Header.Timestamp, b.Transactions, ids)
	if of.Hash() != b.Hash() || of.Header.MerkleRoot != b.MerkleRoot() {
		t.Errorf("NewBlockOf header %+v, NewBlock %+v", of.Header, b.Header)
	}
}

func TestCheckBlock(t *testing.T) {
	spend := func(index uint16) *ela.Tx {
		tx := transfer(1)
		tx.Inputs[0].Index = index
		return tx
	}
	tests := []struct {
		name   string
		change func(b *ela.Block)
		want   BlockRule
	}{
		{"valid", func(*ela.Block) {}, ""},
		{"height", func(b *ela.Block) { b.Header.Height = 2 }, BlockLink},
		{"previous", func(b *ela.Block) { b.Header.Previous = prev }, BlockLink},
		{"time", func(b *ela.Block) { b.Header.Timestamp = 1000 }, BlockLink},
		{"bits", func(b *ela.Block) { b.Header.Bits = 0x1d03ffff }, BlockBits},
		{"no coinbase", func(b *ela.Block) { b.Transactions = b.Transactions[1:] }, BlockCoinbase},
		{"empty", func(b *ela.Block) { b.Transactions = nil }, BlockCoinbase},
		{"second coinbase", func(b *ela.Block) {
			b.Transactions = append(b.Transactions, params.Coinbase(2, alice, 1))
		}, BlockCoinbase},
		{"duplicate", func(b *ela.Block) { b.Transactions = append(b.Transactions, b.Transactions[1]) }, BlockDuplicate},
		{"double spend", func(b *ela.Block) {
			other := spend(0)
			other.Outputs[0].Value = 2
			b.Transactions = append(b.Transactions, other)
		}, BlockDoubleSpend},
		{"merkle root", func(b *ela.Block) { b.Header.MerkleRoot = prev }, BlockMerkle},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, b := chainOf(spend(0), spend(1))
			tt.change(b)
			if tt.name != "merkle root" && tt.want != BlockLink {
				b.Header.MerkleRoot = b.MerkleRoot()
			}
			err := params.CheckBlock(b, &g.Header)
			var be *BlockError
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("%s: %v", tt.name, err)
			case tt.want != "" && (!errors.As(err, &be) || be.Rule != tt.want):
				t.Errorf("%s: %v, want rule %s", tt.name, err, tt.want)
			}
		})
	}
}

func TestBlockErrorText(t *testing.T) {
	for i, tt := range []struct {
		err  *BlockError
		want string
	}{
		{blockErrorf(BlockLink, -1, "x"), "ledger: block: link: x"},
		{blockErrorf(BlockDuplicate, 3, "y"), "ledger: block: duplicate-tx: transaction 3: y"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("%q, want %q", got, tt.want)
			}
		})
	}
}

func TestContext(t *testing.T) {
	g, b := chainOf()
	ctx := params.Context(&g.Header, 5, b.Hash())
	want := ela.BlockContext{Confirmations: 6, NextBlockHash: b.Hash(), Difficulty: "1", ChainWork: "00000005"}
	if ctx != want {
		t.Errorf("context %+v, want %+v", ctx, want)
	}
	for bits, want := range map[uint32]string{
		0x207fffff: "1",
		0x1f7fffff: "256",
		0x207fff00: "1",          // a smaller mantissa, quotient rounded down
		0x03000000: "0",          // a zero target
		0x01003456: "0",          // a mantissa shifted out
		0x20ffffff: "0",          // a negative target
		0x1d00ffff: "2147516160", // Bitcoin's first target, against the devnet's limit
	} {
		if got := difficulty(params.PowLimitBits, bits); got != want {
			t.Errorf("difficulty(0x%08x) = %s, want %s", bits, got, want)
		}
	}
}
