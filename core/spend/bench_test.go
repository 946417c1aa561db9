package spend

import (
	"testing"

	"github.com/didlight/didlight/core/ela"
)

// BenchmarkSelect picks coins from a wallet of 1000 small coins, where no
// single coin covers the amount.
func BenchmarkSelect(b *testing.B) {
	coins := make([]Coin, 1000)
	for i := range coins {
		coins[i] = Coin{Txid: ela.Hash{byte(i), byte(i >> 8)}, Value: ela.Fixed64(1000 + i)}
	}
	for b.Loop() {
		if _, _, err := Select(coins, 500_000); err != nil {
			b.Fatal(err)
		}
	}
}
