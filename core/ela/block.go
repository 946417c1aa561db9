package ela

import "encoding/binary"

// Header is an identity-chain block header (Elastos.ELA.SideChain
// types/header.go). On the wire: the seven fixed fields, the AuxPow bytes,
// then one byte 0x01. The block hash covers only the fixed fields.
type Header struct {
	Version    uint32
	Previous   Hash
	MerkleRoot Hash
	Timestamp  uint32 // Unix seconds
	Bits       uint32
	Nonce      uint32
	Height     uint32
	// AuxPow is the merged-mining proof exactly as encoded: a main-chain
	// [SideChainPow] transaction, the Merkle branch linking it to a main-chain
	// block header, and that header with its own Bitcoin AuxPow. Decoding
	// checks its structure; nothing here checks the proof of work.
	AuxPow []byte
}

// headerBaseSize is the length of the fixed fields.
const headerBaseSize = 4 + 2*HashSize + 4*4

// headerEnd is the byte that ends every encoded header.
const headerEnd = 0x01

// Block is a header and its transactions.
type Block struct {
	Header       Header
	Transactions []*Tx
}

// Hash returns the block hash: the double SHA-256 of the fixed fields.
func (h *Header) Hash() Hash {
	var b [headerBaseSize]byte
	return hashOf(h.appendBase(b[:0]))
}

func (h *Header) appendBase(b []byte) []byte {
	b = binary.LittleEndian.AppendUint32(b, h.Version)
	b = append(b, h.Previous[:]...)
	b = append(b, h.MerkleRoot[:]...)
	b = binary.LittleEndian.AppendUint32(b, h.Timestamp)
	b = binary.LittleEndian.AppendUint32(b, h.Bits)
	b = binary.LittleEndian.AppendUint32(b, h.Nonce)
	return binary.LittleEndian.AppendUint32(b, h.Height)
}

// Bytes returns the header's encoding.
func (h *Header) Bytes() []byte {
	w := &writer{b: make([]byte, 0, headerBaseSize+len(h.AuxPow)+1)}
	h.encode(w)
	return w.b
}

func (h *Header) encode(w *writer) {
	w.b = h.appendBase(w.b)
	w.raw(h.AuxPow)
	w.u8(headerEnd)
}

// Hash returns the block hash.
func (b *Block) Hash() Hash { return b.Header.Hash() }

// MerkleRoot computes the Merkle root of the block's transaction hashes; a
// valid block's header holds the same value.
func (b *Block) MerkleRoot() Hash {
	hashes := make([]Hash, len(b.Transactions))
	for i, tx := range b.Transactions {
		hashes[i] = tx.Hash()
	}
	return MerkleRoot(hashes)
}

// Bytes returns the block's encoding: header, a 4-byte transaction count,
// the transactions.
func (b *Block) Bytes() []byte {
	w := &writer{b: make([]byte, 0, 1024)}
	b.Header.encode(w)
	w.u32(uint32(len(b.Transactions)))
	for _, tx := range b.Transactions {
		tx.encode(w)
	}
	return w.b
}

// ParseBlock decodes an identity-chain block, with the checks of [ParseTx] on
// every transaction and a structural check of the header's AuxPow. Blocks
// above [MaxBlockSize] bytes or [MaxTxPerBlock] transactions are rejected.
func ParseBlock(b []byte) (*Block, error) {
	if err := checkInputSize("block", b); err != nil {
		return nil, err
	}
	r := newReader("block", b)
	blk := &Block{Header: decodeHeader(r)}
	n := r.count32("transactions", minTxSize, MaxTxPerBlock)
	blk.Transactions = make([]*Tx, 0, n)
	for i := 0; i < n && !r.failed(); i++ {
		r.enterIndex("transactions", i)
		blk.Transactions = append(blk.Transactions, decodeTx(r, sideChain))
		r.leave()
	}
	if err := r.end(); err != nil {
		return nil, err
	}
	return blk, nil
}

func decodeHeader(r *reader) Header {
	r.enter("header")
	defer r.leave()
	h := Header{
		Version:    r.u32("version"),
		Previous:   r.hash("previousblockhash"),
		MerkleRoot: r.hash("merkleroot"),
		Timestamp:  r.u32("time"),
		Bits:       r.u32("bits"),
		Nonce:      r.u32("nonce"),
		Height:     r.u32("height"),
	}
	start := r.off
	skipSideAuxPow(r)
	if !r.failed() {
		h.AuxPow = append([]byte(nil), r.b[start:r.off]...)
	}
	at := r.off
	if end := r.u8("end"); end != headerEnd && !r.failed() {
		r.failf("end", at, ErrInvalid, "header ends with 0x%02x, want 0x%02x", end, headerEnd)
	}
	return h
}
