package abi

import (
	"encoding/hex"
	"fmt"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/jsontext"
)

// DecodeTxInput is the input of decode_tx.
type DecodeTxInput struct {
	Tx string `json:"tx"` // the raw transaction in hex
}

func (*DecodeTxInput) typeName() string { return "abi.DecodeTxInput" }

func (in *DecodeTxInput) member(d *decoder) bool {
	switch {
	case d.field("tx"):
		d.str(&in.Tx)
	default:
		return false
	}
	return true
}

// DecodeTx runs decode_tx: ela.ParseTx, then Tx.JSON with the context of a
// transaction not yet in a block. The result is the REST transaction object
// (ela.TxJSON).
func DecodeTx(in []byte, env Env) []byte { return run(in, env, decodeTx) }

func decodeTx(in *DecodeTxInput, _ Env) (txJSON, error) {
	tx, err := parseTx(in.Tx)
	if err != nil {
		return txJSON{}, err
	}
	return txJSON(tx.JSON(ela.TxContext{})), nil
}

// txJSON is the output of decode_tx.
type txJSON ela.TxJSON

func (j txJSON) appendJSON(b []byte) []byte {
	o := jsontext.NewObject(b, jsontext.Std)
	o.String("txid", j.TxID)
	o.String("hash", j.Hash)
	o.Int("size", int64(j.Size))
	o.Int("vsize", int64(j.VSize))
	o.Uint("version", uint64(j.Version))
	o.Uint("locktime", uint64(j.LockTime))
	o.Array("vin", len(j.Inputs), j.Inputs == nil, func(b []byte, i int) []byte {
		in := jsontext.NewObject(b, jsontext.Std)
		in.String("txid", j.Inputs[i].TxID)
		in.Uint("vout", uint64(j.Inputs[i].VOut))
		in.Uint("sequence", uint64(j.Inputs[i].Sequence))
		return in.End()
	})
	o.Array("vout", len(j.Outputs), j.Outputs == nil, func(b []byte, i int) []byte {
		out, v := jsontext.NewObject(b, jsontext.Std), j.Outputs[i]
		out.String("value", v.Value)
		out.Int("n", int64(v.N))
		out.String("address", v.Address)
		out.String("assetid", v.AssetID)
		out.Uint("outputlock", uint64(v.OutputLock))
		return out.End()
	})
	o.String("blockhash", j.BlockHash)
	o.Uint("confirmations", uint64(j.Confirmations))
	o.Uint("time", uint64(j.Time))
	o.Uint("blocktime", uint64(j.BlockTime))
	o.Uint("type", uint64(j.Type))
	o.Uint("payloadversion", uint64(j.PayloadVersion))
	o.Raw("payload", j.Payload)
	o.Array("attributes", len(j.Attributes), j.Attributes == nil, func(b []byte, i int) []byte {
		a := jsontext.NewObject(b, jsontext.Std)
		a.Uint("usage", uint64(j.Attributes[i].Usage))
		a.String("data", j.Attributes[i].Data)
		return a.End()
	})
	o.Array("programs", len(j.Programs), j.Programs == nil, func(b []byte, i int) []byte {
		p := jsontext.NewObject(b, jsontext.Std)
		p.String("code", j.Programs[i].Code)
		p.String("parameter", j.Programs[i].Parameter)
		return p.End()
	})
	return o.End()
}

// VerifyTxInput is the input of verify_tx.
type VerifyTxInput struct {
	Tx string `json:"tx"` // the raw transaction in hex
	// Referenced holds the program hash (hex, as ela.ProgramHash.Hex
	// writes it) of the output each input spends, in input order.
	Referenced []string `json:"referenced"`
}

func (*VerifyTxInput) typeName() string { return "abi.VerifyTxInput" }

func (in *VerifyTxInput) member(d *decoder) bool {
	switch {
	case d.field("tx"):
		d.str(&in.Tx)
	case d.field("referenced"):
		d.strings(&in.Referenced)
	default:
		return false
	}
	return true
}

// VerifiedTx is the output of verify_tx.
type VerifiedTx struct {
	Txid string `json:"txid"`
}

func (v VerifiedTx) appendJSON(b []byte) []byte {
	o := jsontext.NewObject(b, jsontext.Std)
	o.String("txid", v.Txid)
	return o.End()
}

// VerifyTx runs verify_tx: ela.Tx.VerifyPrograms.
func VerifyTx(in []byte, env Env) []byte { return run(in, env, verifyTx) }

func verifyTx(in *VerifyTxInput, env Env) (VerifiedTx, error) {
	tx, err := parseTx(in.Tx)
	if err != nil {
		return VerifiedTx{}, err
	}
	referenced := make([]ela.ProgramHash, len(in.Referenced))
	for i, s := range in.Referenced {
		b, err := hex.DecodeString(s)
		if err != nil || len(b) != ela.ProgramHashSize {
			return VerifiedTx{}, inputError("referenced[%d] %q: want %d bytes in hex", i, s, ela.ProgramHashSize)
		}
		referenced[i] = ela.ProgramHash(b)
	}
	if err := tx.VerifyPrograms(referenced, env.verifier()); err != nil {
		return VerifiedTx{}, err
	}
	return VerifiedTx{Txid: tx.Hash().String()}, nil
}

func parseTx(s string) (*ela.Tx, error) {
	if err := required("tx", s == ""); err != nil {
		return nil, err
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, inputError("tx is not hex: %v", err)
	}
	tx, err := ela.ParseTx(b)
	if err != nil {
		return nil, fmt.Errorf("abi: tx: %w", err)
	}
	return tx, nil
}
