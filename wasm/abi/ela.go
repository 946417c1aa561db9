package abi

import (
	"encoding/hex"
	"fmt"

	"github.com/didlight/didlight/core/ela"
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
	o := newObject(b)
	o.str("txid", j.TxID)
	o.str("hash", j.Hash)
	o.int("size", int64(j.Size))
	o.int("vsize", int64(j.VSize))
	o.uint("version", uint64(j.Version))
	o.uint("locktime", uint64(j.LockTime))
	o.array("vin", len(j.Inputs), j.Inputs == nil, func(b []byte, i int) []byte {
		in := newObject(b)
		in.str("txid", j.Inputs[i].TxID)
		in.uint("vout", uint64(j.Inputs[i].VOut))
		in.uint("sequence", uint64(j.Inputs[i].Sequence))
		return in.end()
	})
	o.array("vout", len(j.Outputs), j.Outputs == nil, func(b []byte, i int) []byte {
		out, v := newObject(b), j.Outputs[i]
		out.str("value", v.Value)
		out.int("n", int64(v.N))
		out.str("address", v.Address)
		out.str("assetid", v.AssetID)
		out.uint("outputlock", uint64(v.OutputLock))
		return out.end()
	})
	o.str("blockhash", j.BlockHash)
	o.uint("confirmations", uint64(j.Confirmations))
	o.uint("time", uint64(j.Time))
	o.uint("blocktime", uint64(j.BlockTime))
	o.uint("type", uint64(j.Type))
	o.uint("payloadversion", uint64(j.PayloadVersion))
	o.raw("payload", j.Payload)
	o.array("attributes", len(j.Attributes), j.Attributes == nil, func(b []byte, i int) []byte {
		a := newObject(b)
		a.uint("usage", uint64(j.Attributes[i].Usage))
		a.str("data", j.Attributes[i].Data)
		return a.end()
	})
	o.array("programs", len(j.Programs), j.Programs == nil, func(b []byte, i int) []byte {
		p := newObject(b)
		p.str("code", j.Programs[i].Code)
		p.str("parameter", j.Programs[i].Parameter)
		return p.end()
	})
	return o.end()
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
	o := newObject(b)
	o.str("txid", v.Txid)
	return o.end()
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
