package ela

import (
	"encoding/json"
	"fmt"
)

// Payload is the type-specific part of a transaction. The set is closed:
// the payload types of this package are the ones the identity chain
// carries, plus [SideChainPow], which also appears inside block AuxPow.
type Payload interface {
	// TxType returns the transaction type the payload belongs to.
	TxType() TxType

	encode(w *writer, version byte)
	decode(r *reader, version byte)
	// appendJSON appends the REST API's JSON form for the payload version,
	// as json.Marshal writes it.
	appendJSON(b []byte, version byte) []byte
	// setJSON reads the JSON form back; the receiver is a zero payload.
	setJSON(raw json.RawMessage, version byte) error
}

// newPayload returns a zero payload for a transaction type, as the given
// chain decodes it. The main chain shares the first formats with the side
// chains; the others differ or do not exist there, so the main-chain
// dialect (only met inside AuxPow) decodes just the shared ones.
func newPayload(t TxType, d dialect) (Payload, error) {
	switch t {
	case TxCoinBase:
		return new(CoinBase), nil
	case TxRegisterAsset:
		return new(RegisterAsset), nil
	case TxTransferAsset:
		return new(TransferAsset), nil
	case TxRecord:
		return new(Record), nil
	case TxSideChainPow:
		return new(SideChainPow), nil
	}
	if d == sideChain {
		switch t {
		case TxRechargeToSideChain:
			return new(RechargeToSideChain), nil
		case TxTransferCrossChainAsset:
			return new(TransferCrossChainAsset), nil
		case TxDIDOperation:
			return new(Operation), nil
		}
		return nil, fmt.Errorf("transaction type %v is not carried by the identity chain", t)
	}
	return nil, fmt.Errorf("main-chain transaction type %v is not decoded (only types 0x00-0x03 and 0x05)", t)
}

// CoinBase is the first transaction of a block: it pays the block reward.
// Its data is free-form, by convention the miner's name.
type CoinBase struct {
	Data []byte
}

// RegisterAsset creates an asset; the ELA asset of every chain is the
// hash of such a transaction.
type RegisterAsset struct {
	Asset      Asset
	Amount     Fixed64
	Controller ProgramHash
}

// Asset describes an asset (Elastos.ELA.SideChain types/asset.go).
type Asset struct {
	Name        string
	Description string
	Precision   byte
	AssetType   byte // 0 token, 1 share
	RecordType  byte // 0 unspent, 1 balance
}

// TransferAsset moves coins; it has no payload data.
type TransferAsset struct{}

// Record stores typed data on the chain.
type Record struct {
	Type string
	Data []byte
}

// SideChainPow is the main-chain transaction a side chain's merged mining
// puts into a main-chain block (Elastos.ELA core/types/payload/sidechainpow.go).
type SideChainPow struct {
	SideBlockHash   Hash
	SideGenesisHash Hash
	BlockHeight     uint32
	Signature       []byte
}

// RechargeToSideChain credits coins sent from the main chain. Payload version
// 0 carries the main-chain transaction and its Merkle proof; version 1 only
// the main-chain transaction's hash (Elastos.ELA.SideChain
// types/payloadrechargetosidechain.go).
type RechargeToSideChain struct {
	MerkleProof              []byte // version 0
	MainChainTransaction     []byte // version 0
	MainChainTransactionHash Hash   // version 1
}

// TransferCrossChainAsset sends coins from the identity chain to other
// chains: each entry names a target address and the output carrying it
// (Elastos.ELA.SideChain types/payloadtransfercrosschainasset.go).
type TransferCrossChainAsset struct {
	Assets []CrossChainAsset
}

// CrossChainAsset is one transfer of a [TransferCrossChainAsset].
type CrossChainAsset struct {
	Address     string // the address on the target chain
	OutputIndex uint64 // the output of this transaction that carries the coins
	Amount      Fixed64
}

// Payload versions with a meaning of their own.
const (
	RechargeVersionTx   byte = 0x00 // RechargeToSideChain carrying the main-chain transaction
	RechargeVersionHash byte = 0x01 // RechargeToSideChain carrying its hash only
)

// TxType implements Payload.
func (*CoinBase) TxType() TxType { return TxCoinBase }

// TxType implements Payload.
func (*RegisterAsset) TxType() TxType { return TxRegisterAsset }

// TxType implements Payload.
func (*TransferAsset) TxType() TxType { return TxTransferAsset }

// TxType implements Payload.
func (*Record) TxType() TxType { return TxRecord }

// TxType implements Payload.
func (*SideChainPow) TxType() TxType { return TxSideChainPow }

// TxType implements Payload.
func (*RechargeToSideChain) TxType() TxType { return TxRechargeToSideChain }

// TxType implements Payload.
func (*TransferCrossChainAsset) TxType() TxType { return TxTransferCrossChainAsset }

func (p *CoinBase) encode(w *writer, _ byte) { w.varBytes(p.Data) }
func (p *CoinBase) decode(r *reader, _ byte) { p.Data = r.varBytes("coinbasedata", MaxPayloadDataSize) }

func (p *RegisterAsset) encode(w *writer, _ byte) {
	w.varString(p.Asset.Name)
	w.varString(p.Asset.Description)
	w.u8(p.Asset.Precision)
	w.u8(p.Asset.AssetType)
	w.u8(p.Asset.RecordType)
	w.u64(uint64(p.Amount))
	w.raw(p.Controller[:])
}

func (p *RegisterAsset) decode(r *reader, _ byte) {
	p.Asset.Name = r.varString("asset.name", MaxPayloadDataSize)
	p.Asset.Description = r.varString("asset.description", MaxPayloadDataSize)
	p.Asset.Precision = r.u8("asset.precision")
	p.Asset.AssetType = r.u8("asset.assettype")
	p.Asset.RecordType = r.u8("asset.recordtype")
	p.Amount = r.amount("amount")
	p.Controller = r.programHash("controller")
}

func (*TransferAsset) encode(*writer, byte) {}
func (*TransferAsset) decode(*reader, byte) {}

func (p *Record) encode(w *writer, _ byte) {
	w.varString(p.Type)
	w.varBytes(p.Data)
}

func (p *Record) decode(r *reader, _ byte) {
	p.Type = r.varString("recordtype", MaxPayloadDataSize)
	p.Data = r.varBytes("recorddata", MaxPayloadDataSize)
}

func (p *SideChainPow) encode(w *writer, _ byte) {
	w.hash(p.SideBlockHash)
	w.hash(p.SideGenesisHash)
	w.u32(p.BlockHeight)
	w.varBytes(p.Signature)
}

func (p *SideChainPow) decode(r *reader, _ byte) {
	p.SideBlockHash = r.hash("sideblockhash")
	p.SideGenesisHash = r.hash("sidegenesishash")
	p.BlockHeight = r.u32("blockheight")
	p.Signature = r.varBytes("signeddata", MaxPayloadDataSize)
}

func (p *RechargeToSideChain) encode(w *writer, version byte) {
	if version == RechargeVersionHash {
		w.hash(p.MainChainTransactionHash)
		return
	}
	w.varBytes(p.MerkleProof)
	w.varBytes(p.MainChainTransaction)
}

func (p *RechargeToSideChain) decode(r *reader, version byte) {
	switch version {
	case RechargeVersionTx:
		p.MerkleProof = r.varBytes("proof", MaxPayloadDataSize)
		p.MainChainTransaction = r.varBytes("mainchaintransaction", MaxPayloadDataSize)
	case RechargeVersionHash:
		p.MainChainTransactionHash = r.hash("mainchaintxhash")
	default:
		r.failf("version", r.off, ErrUnsupported, "RechargeToSideChain payload version %d (0 and 1 exist)", version)
	}
}

func (p *TransferCrossChainAsset) encode(w *writer, _ byte) {
	w.varint(uint64(len(p.Assets)))
	for _, a := range p.Assets {
		w.varString(a.Address)
		w.varint(a.OutputIndex)
		w.u64(uint64(a.Amount))
	}
}

func (p *TransferCrossChainAsset) decode(r *reader, _ byte) {
	const minSize = 1 + 1 + 8 // empty address, index, amount
	p.Assets = decodeList(r, "crosschainassets", minSize, func(r *reader) CrossChainAsset {
		return CrossChainAsset{
			Address:     r.varString("crosschainaddress", MaxPayloadDataSize),
			OutputIndex: r.varint("outputindex"),
			Amount:      r.amount("crosschainamount"),
		}
	})
}
