package ela

import "math"

// An identity-chain header's AuxPow has no length prefix, so finding its end
// means walking its structure. Layout (Elastos.ELA.SideChain
// auxpow/sideauxpow.go, Elastos.ELA auxpow/auxpow.go, btctx.go, btcheader.go,
// core/types/common/header.go):
//
//	main-chain SideChainPow transaction (main-chain form, programs included)
//	u32 count, count × 32-byte Merkle branch, u32 index
//	main-chain header: 84 bytes of fixed fields, Bitcoin AuxPow, one byte
//	Bitcoin AuxPow: coinbase tx, 32-byte parent hash,
//	  varint count × 32-byte coinbase branch, u32 index,
//	  varint count × 32-byte aux branch, u32 index, 80-byte Bitcoin header
//	Bitcoin tx: i32 version, varint count × (36-byte outpoint, varbytes
//	  script, u32 sequence), varint count × (i64 value, varbytes script),
//	  u32 lock time

// Limits on AuxPow parts: branches this package's sanity cap (a branch
// deeper than 64 would need 2^64 leaves), scripts the chain's.
const (
	maxMerkleBranch  = 64
	maxBtcScriptSize = 10_000
	btcHeaderSize    = 80
	btcTxInMinSize   = HashSize + 4 + 1 + 4
	btcTxOutMinSize  = 8 + 1
)

func skipSideAuxPow(r *reader) {
	r.enter("auxpow")
	defer r.leave()
	r.enter("sideauxblocktx")
	decodeTx(r, mainChain)
	r.leave()
	n := r.count32("sideauxmerklebranch", HashSize, maxMerkleBranch)
	r.take(n*HashSize, "sideauxmerklebranch")
	r.u32("sideauxmerkleindex")
	r.enter("mainblockheader")
	r.take(headerBaseSize, "base")
	skipBtcAuxPow(r)
	r.u8("end")
	r.leave()
}

func skipBtcAuxPow(r *reader) {
	r.enter("auxpow")
	defer r.leave()
	r.enter("parcoinbasetx")
	r.u32("version")
	n := r.count("txin", btcTxInMinSize, math.MaxInt32)
	for i := 0; i < n && !r.failed(); i++ {
		r.take(HashSize+4, "txin.previousoutpoint")
		r.varBytes("txin.signaturescript", maxBtcScriptSize)
		r.u32("txin.sequence")
	}
	n = r.count("txout", btcTxOutMinSize, math.MaxInt32)
	for i := 0; i < n && !r.failed(); i++ {
		r.u64("txout.value")
		r.varBytes("txout.pkscript", maxBtcScriptSize)
	}
	r.u32("locktime")
	r.leave()
	r.take(HashSize, "parenthash")
	r.take(r.count("parcoinbasemerkle", HashSize, maxMerkleBranch)*HashSize, "parcoinbasemerkle")
	r.u32("parmerkleindex")
	r.take(r.count("auxmerklebranch", HashSize, maxMerkleBranch)*HashSize, "auxmerklebranch")
	r.u32("auxmerkleindex")
	r.take(btcHeaderSize, "parblockheader")
}

// checkAuxPow reports whether b is exactly one well-formed AuxPow.
func checkAuxPow(b []byte) *DecodeError {
	r := newReader("auxpow", b)
	skipSideAuxPow(r)
	return r.end()
}

// emptyAuxPow returns the AuxPow of the identity chain's genesis block:
// every field zero, around an empty [SideChainPow] transaction.
func emptyAuxPow() []byte {
	w := &writer{}
	(&Tx{Payload: &SideChainPow{}}).encode(w)
	w.u32(0) // branch count
	w.u32(0) // branch index
	w.raw(make([]byte, headerBaseSize))
	w.raw(make([]byte, 4+1+1+4)) // coinbase tx: version, no inputs, no outputs, lock time
	w.raw(make([]byte, HashSize))
	w.raw(make([]byte, 1+4+1+4)) // two empty branches and their indexes
	w.raw(make([]byte, btcHeaderSize))
	w.u8(headerEnd)
	return w.b
}
