package ela

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
)

// BlockJSON is the block object of the REST and JSON-RPC APIs (interfaces
// spec, Block object; Elastos.ELA.SideChain service/common.go BlockInfo and
// service.go GetBlockInfo). With full transactions it carries every byte of
// the block.
type BlockJSON struct {
	Hash              string        `json:"hash"`
	Confirmations     uint32        `json:"confirmations"`
	StrippedSize      int           `json:"strippedsize"`
	Size              int           `json:"size"`
	Weight            int           `json:"weight"`
	Height            uint32        `json:"height"`
	Version           uint32        `json:"version"`
	VersionHex        string        `json:"versionhex"`
	MerkleRoot        string        `json:"merkleroot"`
	Tx                []BlockTxJSON `json:"tx"`
	Time              uint32        `json:"time"`
	MedianTime        uint32        `json:"mediantime"`
	Nonce             uint32        `json:"nonce"`
	Bits              uint32        `json:"bits"`
	Difficulty        string        `json:"difficulty"`
	ChainWork         string        `json:"chainwork"`
	PreviousBlockHash string        `json:"previousblockhash"`
	NextBlockHash     string        `json:"nextblockhash"`
	AuxPow            string        `json:"auxpow"`
	// MinerInfo is "ELA" for the genesis block and the coinbase's data for
	// the others, as the side chain shows it (GetBlockInfo). Derived from
	// the transactions, it is not read back.
	MinerInfo string `json:"minerinfo"`
}

// BlockTxJSON is an element of BlockJSON.Tx: a full transaction object when
// Full is set, else the transaction's hash string.
type BlockTxJSON struct {
	TxID string
	Full *TxJSON
}

// MarshalJSON writes the full object or the hash string.
func (t BlockTxJSON) MarshalJSON() ([]byte, error) {
	if t.Full != nil {
		return json.Marshal(t.Full)
	}
	return json.Marshal(t.TxID)
}

// UnmarshalJSON reads either form.
func (t *BlockTxJSON) UnmarshalJSON(b []byte) error {
	if b = bytes.TrimSpace(b); len(b) > 0 && b[0] == '"' {
		*t = BlockTxJSON{}
		return json.Unmarshal(b, &t.TxID)
	}
	full := new(TxJSON)
	if err := json.Unmarshal(b, full); err != nil {
		return err
	}
	*t = BlockTxJSON{TxID: full.TxID, Full: full}
	return nil
}

// BlockContext is what the chain knows about a block beyond its bytes.
// Difficulty and chain work depend on the chain's parameters and tip, so
// the caller computes them.
type BlockContext struct {
	Confirmations uint32
	NextBlockHash Hash // zero at the tip; shown as 64 zeros, as the chain does
	Difficulty    string
	ChainWork     string
}

// JSON builds the block's REST object, with full transaction objects when
// full is set (the by-height endpoint) and transaction hashes otherwise
// (the by-hash endpoint).
func (b *Block) JSON(ctx BlockContext, full bool) BlockJSON {
	h := &b.Header
	hash := b.Hash()
	size := len(b.Bytes())
	j := BlockJSON{
		Hash:              hash.String(),
		Confirmations:     ctx.Confirmations,
		StrippedSize:      size,
		Size:              size,
		Weight:            4 * size,
		Height:            h.Height,
		Version:           h.Version,
		VersionHex:        hex.EncodeToString(binary.BigEndian.AppendUint32(nil, h.Version)),
		MerkleRoot:        h.MerkleRoot.String(),
		Tx:                make([]BlockTxJSON, len(b.Transactions)),
		Time:              h.Timestamp,
		MedianTime:        h.Timestamp,
		Nonce:             h.Nonce,
		Bits:              h.Bits,
		Difficulty:        ctx.Difficulty,
		ChainWork:         ctx.ChainWork,
		PreviousBlockHash: h.Previous.String(),
		NextBlockHash:     ctx.NextBlockHash.String(),
		AuxPow:            hex.EncodeToString(h.AuxPow),
		MinerInfo:         b.minerInfo(),
	}
	txCtx := TxContext{BlockHash: hash, Confirmations: ctx.Confirmations, BlockTime: h.Timestamp}
	for i, tx := range b.Transactions {
		if full {
			txj := tx.JSON(txCtx)
			j.Tx[i] = BlockTxJSON{TxID: txj.TxID, Full: &txj}
		} else {
			j.Tx[i] = BlockTxJSON{TxID: tx.Hash().String()}
		}
	}
	return j
}

// minerInfo is the genesis block's "ELA" or the data of the coinbase that
// starts the block; empty when there is none (a header alone).
func (b *Block) minerInfo() string {
	if b.Header.Height == 0 {
		return "ELA"
	}
	if len(b.Transactions) > 0 {
		if cb, ok := b.Transactions[0].Payload.(*CoinBase); ok {
			return string(cb.Data)
		}
	}
	return ""
}

// Header rebuilds the block header from the REST object. The header's
// fields must hash to the object's hash and its AuxPow must be well formed;
// context fields are ignored. A follower can check headers before bodies.
func (j *BlockJSON) Header() (Header, error) {
	h, err := j.header()
	return h, named("block JSON", err)
}

func (j *BlockJSON) header() (Header, error) {
	h := Header{
		Version:   j.Version,
		Timestamp: j.Time,
		Bits:      j.Bits,
		Nonce:     j.Nonce,
		Height:    j.Height,
	}
	var errs [3]error
	h.Previous, errs[0] = hashField("previousblockhash", j.PreviousBlockHash)
	h.MerkleRoot, errs[1] = hashField("merkleroot", j.MerkleRoot)
	h.AuxPow, errs[2] = hexField("auxpow", j.AuxPow)
	if err := firstError(errs[:]...); err != nil {
		return Header{}, err
	}
	if err := checkAuxPow(h.AuxPow); err != nil {
		return Header{}, fieldErrorf(err.Field, err.Err, "at byte %d of the AuxPow", err.Offset)
	}
	if got := h.Hash().String(); got != j.Hash {
		return Header{}, fieldErrorf("hash", ErrInvalid, "the header fields hash to %s, not %s", got, j.Hash)
	}
	return h, nil
}

// Block rebuilds the block from a REST object with full transactions: the
// header as Header does, each transaction as TxJSON.Tx does, within the
// block limits of ParseBlock. Whether the Merkle root matches the
// transactions is for the caller to check (Block.MerkleRoot).
func (j *BlockJSON) Block() (*Block, error) {
	b, err := j.block()
	return b, named("block JSON", err)
}

func (j *BlockJSON) block() (*Block, error) {
	h, err := j.header()
	if err != nil {
		return nil, err
	}
	if len(j.Tx) > MaxTxPerBlock {
		return nil, fieldErrorf("tx", ErrTooLarge, "%d transactions, at most %d", len(j.Tx), MaxTxPerBlock)
	}
	b := &Block{Header: h, Transactions: make([]*Tx, len(j.Tx))}
	for i, t := range j.Tx {
		if t.Full == nil {
			return nil, fieldErrorf(indexed("tx", i), ErrInvalid, "transaction %s is a hash, not a full object", t.TxID)
		}
		if b.Transactions[i], err = t.Full.tx(); err != nil {
			return nil, within(indexed("tx", i), err)
		}
	}
	if size := len(b.Bytes()); size > MaxBlockSize {
		return nil, fieldErrorf("tx", ErrTooLarge, "the block would be %d bytes, at most %d", size, MaxBlockSize)
	}
	return b, nil
}
