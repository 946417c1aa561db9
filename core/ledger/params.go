package ledger

import "github.com/didlight/didlight/core/ela"

// Params are the constants a chain's rules depend on.
type Params struct {
	Asset            ela.Hash    // the native asset: the only one outputs may hold
	MinFee           ela.Fixed64 // the least fee a transaction pays
	Subsidy          ela.Fixed64 // what a coinbase may pay on top of its block's fees
	CoinbaseMaturity uint32      // blocks after its own before a coinbase output may be spent
	PowLimitBits     uint32      // the easiest target; difficulties are shown relative to it
	Bits             uint32      // the target every block states
}

// DevnetSubsidy is what the coinbase of a development chain's block pays
// beyond the fees of its transactions.
const DevnetSubsidy = ela.OneELA

// Devnet returns the parameters of a local development chain: ELA as the
// asset, the side chain's minimum fee of 100 sela (MinTransactionFee),
// a subsidy of [DevnetSubsidy], coinbase outputs spendable at once, and the
// easiest target, as the ID chain's instant-block mode sets it
// (Elastos.ELA.SideChain.ID params/params.go, InstantBlock).
func Devnet() Params {
	return Params{
		Asset:        ela.ELAAssetID(),
		MinFee:       100,
		Subsidy:      DevnetSubsidy,
		PowLimitBits: 0x207fffff,
		Bits:         0x207fffff,
	}
}
