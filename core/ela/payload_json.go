package ela

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/didlight/didlight/core/excerpt"
	"github.com/didlight/didlight/core/jsontext"
)

// The payload JSON shapes follow what the chain's REST API shows
// (Elastos.ELA.SideChain service/common.go and service.go GetPayloadInfo,
// Elastos.ELA.SideChain.ID service/service.go), with additions where the
// chain's JSON loses bytes: Record shows its data, and coinbase data that is
// not UTF-8 text also appears as CoinbaseDataHex.

type coinBaseJSON struct {
	CoinbaseData    string
	CoinbaseDataHex string `json:",omitempty"`
}

type assetJSON struct {
	Name        string
	Description string
	Precision   byte
	AssetType   byte
	RecordType  byte
}

type registerAssetJSON struct {
	Asset      assetJSON
	Amount     string
	Controller string // hex of the program hash reversed, as the chain shows it
}

type recordJSON struct {
	RecordType string
	RecordData string // hex
}

// sideChainPowJSON shows the hashes in stored byte order, not reversed, as
// the chain does (Elastos.ELA servers/interfaces.go uses Uint256.String).
type sideChainPowJSON struct {
	BlockHeight     uint32
	SideBlockHash   string
	SideGenesisHash string
	SignedData      string
}

type rechargeTxJSON struct {
	Proof                string
	MainChainTransaction string
}

type rechargeHashJSON struct {
	MainChainTransactionHash string `json:"mainchaintxhash"`
}

type crossChainAssetJSON struct {
	CrossChainAddress string `json:"crosschainaddress"`
	OutputIndex       uint64 `json:"outputindex"`
	CrossChainAmount  string `json:"crosschainamount"`
}

type transferCrossChainJSON struct {
	CrossChainAssets []crossChainAssetJSON `json:"crosschainassets"`
}

func (p *CoinBase) appendJSON(b []byte, _ byte) []byte {
	o := jsontext.NewObject(b, jsontext.StdHTML)
	if utf8.Valid(p.Data) {
		o.String("CoinbaseData", string(p.Data))
	} else {
		o.String("CoinbaseData", strings.ToValidUTF8(string(p.Data), "\uFFFD"))
		o.StringOmit("CoinbaseDataHex", hex.EncodeToString(p.Data))
	}
	return o.End()
}

func (p *CoinBase) setJSON(raw json.RawMessage, _ byte) error {
	var j coinBaseJSON
	if err := unmarshalPayload(raw, &j); err != nil {
		return err
	}
	if j.CoinbaseDataHex == "" {
		p.Data = bytesOrNil([]byte(j.CoinbaseData))
		return nil
	}
	var err error
	p.Data, err = hexField("CoinbaseDataHex", j.CoinbaseDataHex)
	return err
}

func (p *RegisterAsset) appendJSON(b []byte, _ byte) []byte {
	asset := jsontext.NewObject(nil, jsontext.StdHTML)
	asset.String("Name", p.Asset.Name)
	asset.String("Description", p.Asset.Description)
	asset.Uint("Precision", uint64(p.Asset.Precision))
	asset.Uint("AssetType", uint64(p.Asset.AssetType))
	asset.Uint("RecordType", uint64(p.Asset.RecordType))
	o := jsontext.NewObject(b, jsontext.StdHTML)
	o.Raw("Asset", asset.End())
	o.String("Amount", p.Amount.String())
	o.String("Controller", hex.EncodeToString(reversed(p.Controller[:])))
	return o.End()
}

func (p *RegisterAsset) setJSON(raw json.RawMessage, _ byte) error {
	var j registerAssetJSON
	if err := unmarshalPayload(raw, &j); err != nil {
		return err
	}
	p.Asset = Asset(j.Asset)
	amount, err := amountField("Amount", j.Amount)
	if err != nil {
		return err
	}
	p.Amount = amount
	controller, err := hexField("Controller", j.Controller)
	if err == nil && len(controller) != ProgramHashSize {
		err = fieldErrorf("Controller", ErrInvalid, "%d bytes, want %d", len(controller), ProgramHashSize)
	}
	copy(p.Controller[:], reversed(controller))
	return err
}

func (*TransferAsset) appendJSON(b []byte, _ byte) []byte { return append(b, "null"...) }

func (*TransferAsset) setJSON(raw json.RawMessage, _ byte) error {
	if t := bytes.TrimSpace(raw); len(t) != 0 && string(t) != "null" && string(t) != "{}" {
		return fieldErrorf("", ErrInvalid, "TransferAsset has no payload, got %.40s", t)
	}
	return nil
}

func (p *Record) appendJSON(b []byte, _ byte) []byte {
	o := jsontext.NewObject(b, jsontext.StdHTML)
	o.String("RecordType", p.Type)
	o.String("RecordData", hex.EncodeToString(p.Data))
	return o.End()
}

func (p *Record) setJSON(raw json.RawMessage, _ byte) error {
	var j recordJSON
	if err := unmarshalPayload(raw, &j); err != nil {
		return err
	}
	p.Type = j.RecordType
	var err error
	p.Data, err = hexField("RecordData", j.RecordData)
	return err
}

func (p *SideChainPow) appendJSON(b []byte, _ byte) []byte {
	o := jsontext.NewObject(b, jsontext.StdHTML)
	o.Uint("BlockHeight", uint64(p.BlockHeight))
	o.String("SideBlockHash", hex.EncodeToString(p.SideBlockHash[:]))
	o.String("SideGenesisHash", hex.EncodeToString(p.SideGenesisHash[:]))
	o.String("SignedData", hex.EncodeToString(p.Signature))
	return o.End()
}

func (p *SideChainPow) setJSON(raw json.RawMessage, _ byte) error {
	var j sideChainPowJSON
	if err := unmarshalPayload(raw, &j); err != nil {
		return err
	}
	p.BlockHeight = j.BlockHeight
	var errs [3]error
	p.SideBlockHash, errs[0] = storedHashField("SideBlockHash", j.SideBlockHash)
	p.SideGenesisHash, errs[1] = storedHashField("SideGenesisHash", j.SideGenesisHash)
	p.Signature, errs[2] = hexField("SignedData", j.SignedData)
	return firstError(errs[:]...)
}

func (p *RechargeToSideChain) appendJSON(b []byte, version byte) []byte {
	o := jsontext.NewObject(b, jsontext.StdHTML)
	if version == RechargeVersionHash {
		o.String("mainchaintxhash", p.MainChainTransactionHash.String())
	} else {
		o.String("Proof", hex.EncodeToString(p.MerkleProof))
		o.String("MainChainTransaction", hex.EncodeToString(p.MainChainTransaction))
	}
	return o.End()
}

func (p *RechargeToSideChain) setJSON(raw json.RawMessage, version byte) error {
	switch version {
	case RechargeVersionTx:
		var j rechargeTxJSON
		if err := unmarshalPayload(raw, &j); err != nil {
			return err
		}
		var errs [2]error
		p.MerkleProof, errs[0] = hexField("Proof", j.Proof)
		p.MainChainTransaction, errs[1] = hexField("MainChainTransaction", j.MainChainTransaction)
		return firstError(errs[:]...)
	case RechargeVersionHash:
		var j rechargeHashJSON
		if err := unmarshalPayload(raw, &j); err != nil {
			return err
		}
		var err error
		p.MainChainTransactionHash, err = hashField("mainchaintxhash", j.MainChainTransactionHash)
		return err
	}
	return fieldErrorf("", ErrUnsupported, "RechargeToSideChain payload version %d (0 and 1 exist)", version)
}

func (p *TransferCrossChainAsset) appendJSON(b []byte, _ byte) []byte {
	assets := []byte{'['}
	for i, a := range p.Assets {
		if i > 0 {
			assets = append(assets, ',')
		}
		o := jsontext.NewObject(assets, jsontext.StdHTML)
		o.String("crosschainaddress", a.Address)
		o.Uint("outputindex", a.OutputIndex)
		o.String("crosschainamount", a.Amount.String())
		assets = o.End()
	}
	o := jsontext.NewObject(b, jsontext.StdHTML)
	o.Raw("crosschainassets", append(assets, ']'))
	return o.End()
}

func (p *TransferCrossChainAsset) setJSON(raw json.RawMessage, _ byte) error {
	var j transferCrossChainJSON
	if err := unmarshalPayload(raw, &j); err != nil {
		return err
	}
	p.Assets = make([]CrossChainAsset, len(j.CrossChainAssets))
	for i, a := range j.CrossChainAssets {
		amount, err := amountField("crosschainamount", a.CrossChainAmount)
		if err != nil {
			return within(indexed("crosschainassets", i), err)
		}
		p.Assets[i] = CrossChainAsset{Address: a.CrossChainAddress, OutputIndex: a.OutputIndex, Amount: amount}
	}
	return nil
}

func (p *Operation) appendJSON(b []byte, _ byte) []byte {
	header := jsontext.NewObject(nil, jsontext.StdHTML)
	header.String("specification", p.Header.Specification)
	header.String("operation", p.Header.Operation)
	header.StringOmit("previousTxid", p.Header.PreviousTxid)
	header.StringOmit("ticket", p.Header.Ticket)
	proof := jsontext.NewObject(nil, jsontext.StdHTML)
	proof.StringOmit("type", p.Proof.Type)
	proof.String("verificationMethod", p.Proof.VerificationMethod)
	proof.String("signature", p.Proof.Signature)
	o := jsontext.NewObject(b, jsontext.StdHTML)
	o.Raw("header", header.End())
	o.String("payload", p.Payload)
	o.Raw("proof", proof.End())
	return o.End()
}

func (p *Operation) setJSON(raw json.RawMessage, _ byte) error {
	if err := unmarshalPayload(raw, p); err != nil {
		return err
	}
	if p.Header.PreviousTxid != "" && p.Header.Operation != opUpdate {
		return fieldErrorf("header.previousTxid", ErrInvalid, "given for a %s operation; only %q carries one", excerpt.Quote(p.Header.Operation), opUpdate)
	}
	if p.Header.Ticket != "" && p.Header.Operation != opTransfer {
		return fieldErrorf("header.ticket", ErrInvalid, "given for a %s operation; only %q carries one", excerpt.Quote(p.Header.Operation), opTransfer)
	}
	return nil
}

func unmarshalPayload(raw json.RawMessage, v any) error {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return fieldErrorf("", ErrInvalid, "missing")
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fieldErrorf("", ErrInvalid, "%v", err)
	}
	return nil
}

// storedHashField reads a hash written in stored byte order.
func storedHashField(field, s string) (Hash, error) {
	var h Hash
	b, err := hexField(field, s)
	if err == nil && len(b) != HashSize {
		err = fieldErrorf(field, ErrInvalid, "%d bytes, want %d", len(b), HashSize)
	}
	copy(h[:], b)
	return h, err
}

func reversed(b []byte) []byte {
	r := slices.Clone(b)
	slices.Reverse(r)
	return r
}
