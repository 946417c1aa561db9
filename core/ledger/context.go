package ledger

import (
	"encoding/binary"
	"encoding/hex"
	"math/big"

	"github.com/didlight/didlight/core/ela"
)

// Context returns what a block's REST object shows beyond its bytes, as the
// side chain computes it (Elastos.ELA.SideChain service/service.go
// GetBlockInfo): confirmations counting the block itself up to the tip,
// the next block's hash (zero at the tip), the difficulty as the easiest
// target divided by the block's (blockchain/difficulty.go
// CalcCurrentDifficulty), and as chain work the number of blocks above it
// in four big-endian bytes of hex, which is what that node writes there.
func (p *Params) Context(h *ela.Header, tip uint32, next ela.Hash) ela.BlockContext {
	above := tip - h.Height
	var work [4]byte
	binary.BigEndian.PutUint32(work[:], above)
	return ela.BlockContext{
		Confirmations: above + 1,
		NextBlockHash: next,
		Difficulty:    difficulty(p.PowLimitBits, h.Bits),
		ChainWork:     hex.EncodeToString(work[:]),
	}
}

// difficulty is target(limit) / target(bits) in decimal, "0" for a target
// of zero.
func difficulty(limit, bits uint32) string {
	t := target(bits)
	if t.Sign() <= 0 {
		return "0"
	}
	return new(big.Int).Quo(target(limit), t).String()
}

// target expands compact bits: mantissa × 256^(exponent-3), negative when
// the sign bit is set (Elastos.ELA.SideChain blockchain/difficulty.go
// CompactToBig, the Bitcoin encoding).
func target(bits uint32) *big.Int {
	mantissa := int64(bits & 0x007fffff)
	exponent := uint(bits >> 24)
	var n *big.Int
	if exponent <= 3 {
		n = big.NewInt(mantissa >> (8 * (3 - exponent)))
	} else {
		n = new(big.Int).Lsh(big.NewInt(mantissa), 8*(exponent-3))
	}
	if bits&0x00800000 != 0 {
		n.Neg(n)
	}
	return n
}
