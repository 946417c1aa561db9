package ela

import (
	"encoding/hex"
	"encoding/json"
)

// TxJSON is the REST API's transaction object (interfaces spec, Transaction
// object; Elastos.ELA.SideChain service/common.go TransactionInfo). Built by
// Tx.JSON, read back by TxJSON.Tx, it carries every byte of the transaction.
type TxJSON struct {
	TxID           string          `json:"txid"`
	Hash           string          `json:"hash"`
	Size           int             `json:"size"`
	VSize          int             `json:"vsize"`
	Version        byte            `json:"version"`
	LockTime       uint32          `json:"locktime"`
	Inputs         []InputJSON     `json:"vin"`
	Outputs        []OutputJSON    `json:"vout"`
	BlockHash      string          `json:"blockhash"`
	Confirmations  uint32          `json:"confirmations"`
	Time           uint32          `json:"time"`
	BlockTime      uint32          `json:"blocktime"`
	Type           TxType          `json:"type"`
	PayloadVersion byte            `json:"payloadversion"`
	Payload        json.RawMessage `json:"payload"`
	Attributes     []AttributeJSON `json:"attributes"`
	Programs       []ProgramJSON   `json:"programs"`
}

// InputJSON is an element of TxJSON.Inputs.
type InputJSON struct {
	TxID     string `json:"txid"`
	VOut     uint16 `json:"vout"`
	Sequence uint32 `json:"sequence"`
}

// OutputJSON is an element of TxJSON.Outputs.
type OutputJSON struct {
	Value      string `json:"value"`
	N          int    `json:"n"`
	Address    string `json:"address"`
	AssetID    string `json:"assetid"`
	OutputLock uint32 `json:"outputlock"`
}

// AttributeJSON is an element of TxJSON.Attributes; Data is hex.
type AttributeJSON struct {
	Usage AttributeUsage `json:"usage"`
	Data  string         `json:"data"`
}

// ProgramJSON is an element of TxJSON.Programs; both fields are hex.
type ProgramJSON struct {
	Code      string `json:"code"`
	Parameter string `json:"parameter"`
}

// TxContext is what the chain knows about a transaction beyond its bytes.
// The zero value describes a pooled transaction: empty blockhash, zero
// confirmations and times.
type TxContext struct {
	BlockHash     Hash
	Confirmations uint32
	BlockTime     uint32 // the block's timestamp, shown as time and blocktime
}

// JSON builds the transaction's REST object. Every amount has eight
// decimal places, every hash is reversed hex.
func (tx *Tx) JSON(ctx TxContext) TxJSON {
	id := tx.Hash().String()
	size := tx.Size()
	payload := tx.Payload.appendJSON(nil, tx.PayloadVersion)
	j := TxJSON{
		TxID:           id,
		Hash:           id,
		Size:           size,
		VSize:          size,
		Version:        tx.Version,
		LockTime:       tx.LockTime,
		Inputs:         make([]InputJSON, len(tx.Inputs)),
		Outputs:        make([]OutputJSON, len(tx.Outputs)),
		Confirmations:  ctx.Confirmations,
		Time:           ctx.BlockTime,
		BlockTime:      ctx.BlockTime,
		Type:           tx.Type(),
		PayloadVersion: tx.PayloadVersion,
		Payload:        payload,
		Attributes:     make([]AttributeJSON, len(tx.Attributes)),
		Programs:       make([]ProgramJSON, len(tx.Programs)),
	}
	if !ctx.BlockHash.IsZero() {
		j.BlockHash = ctx.BlockHash.String()
	}
	for i, in := range tx.Inputs {
		j.Inputs[i] = InputJSON{TxID: in.TxID.String(), VOut: in.Index, Sequence: in.Sequence}
	}
	for i, o := range tx.Outputs {
		j.Outputs[i] = OutputJSON{
			Value:      o.Value.String(),
			N:          i,
			Address:    o.ProgramHash.Address(),
			AssetID:    o.AssetID.String(),
			OutputLock: o.OutputLock,
		}
	}
	for i, a := range tx.Attributes {
		j.Attributes[i] = AttributeJSON{Usage: a.Usage, Data: hex.EncodeToString(a.Data)}
	}
	for i, p := range tx.Programs {
		j.Programs[i] = ProgramJSON{Code: hex.EncodeToString(p.Code), Parameter: hex.EncodeToString(p.Parameter)}
	}
	return j
}

// Tx rebuilds the transaction from its REST object. The context fields and
// sizes are ignored; txid, when present, must match the rebuilt
// transaction, so a corrupted or incomplete object is caught, and the result
// must pass ParseTx's checks. Errors are *DecodeError values naming the
// field.
func (j *TxJSON) Tx() (*Tx, error) {
	tx, err := j.tx()
	return tx, named("tx JSON", err)
}

func (j *TxJSON) tx() (*Tx, error) {
	if j.Version != 0 {
		return nil, fieldErrorf("version", ErrUnsupported, "version %d: identity-chain transactions have version 0", j.Version)
	}
	p, err := newPayload(j.Type, sideChain)
	if err != nil {
		return nil, fieldErrorf("type", ErrUnsupported, "%v", err)
	}
	if err := p.setJSON(j.Payload, j.PayloadVersion); err != nil {
		return nil, within("payload", err)
	}
	tx := &Tx{
		PayloadVersion: j.PayloadVersion,
		Payload:        p,
		LockTime:       j.LockTime,
		Attributes:     make([]Attribute, len(j.Attributes)),
		Inputs:         make([]Input, len(j.Inputs)),
		Outputs:        make([]Output, len(j.Outputs)),
		Programs:       make([]Program, len(j.Programs)),
	}
	for i, a := range j.Attributes {
		if tx.Attributes[i], err = a.attribute(); err != nil {
			return nil, within(indexed("attributes", i), err)
		}
	}
	for i, in := range j.Inputs {
		id, err := hashField("txid", in.TxID)
		if err != nil {
			return nil, within(indexed("vin", i), err)
		}
		tx.Inputs[i] = Input{TxID: id, Index: in.VOut, Sequence: in.Sequence}
	}
	for i, o := range j.Outputs {
		if tx.Outputs[i], err = o.output(i); err != nil {
			return nil, within(indexed("vout", i), err)
		}
	}
	for i, p := range j.Programs {
		if tx.Programs[i], err = p.program(); err != nil {
			return nil, within(indexed("programs", i), err)
		}
	}
	// The binary decoder's limits apply to the rebuilt transaction too.
	if _, err := ParseTx(tx.Bytes()); err != nil {
		return nil, err
	}
	if j.TxID != "" {
		if got := tx.Hash().String(); got != j.TxID {
			return nil, fieldErrorf("txid", ErrInvalid, "the fields hash to %s, not %s", got, j.TxID)
		}
	}
	return tx, nil
}

func (a AttributeJSON) attribute() (Attribute, error) {
	if !validUsage(a.Usage, sideChain) {
		return Attribute{}, fieldErrorf("usage", ErrInvalid, "attribute usage 0x%02x is not defined", byte(a.Usage))
	}
	data, err := hexField("data", a.Data)
	return Attribute{Usage: a.Usage, Data: data}, err
}

func (o OutputJSON) output(i int) (Output, error) {
	if o.N != i {
		return Output{}, fieldErrorf("n", ErrInvalid, "%d at position %d", o.N, i)
	}
	value, err := amountField("value", o.Value)
	if err != nil {
		return Output{}, err
	}
	ph, err := ParseAddress(o.Address)
	if err != nil {
		return Output{}, fieldErrorf("address", ErrInvalid, "%v", err)
	}
	asset, err := hashField("assetid", o.AssetID)
	return Output{AssetID: asset, Value: value, OutputLock: o.OutputLock, ProgramHash: ph}, err
}

func (p ProgramJSON) program() (Program, error) {
	code, err := hexField("code", p.Code)
	if err != nil {
		return Program{}, err
	}
	param, err := hexField("parameter", p.Parameter)
	return Program{Code: code, Parameter: param}, err
}
