package abi

import (
	"encoding/hex"
	"fmt"

	"didlight/core/ela"
)

// DecodeTxInput is the input of decode_tx.
type DecodeTxInput struct {
	Tx string `json:"tx"` // the raw transaction in hex
}

// DecodeTx runs decode_tx: ela.ParseTx, then Tx.JSON with the context of a
// transaction not yet in a block. The result is the REST transaction object
// (ela.TxJSON).
func DecodeTx(in []byte, env Env) []byte { return run(in, env, decodeTx) }

func decodeTx(in *DecodeTxInput, _ Env) (ela.TxJSON, error) {
	tx, err := parseTx(in.Tx)
	if err != nil {
		return ela.TxJSON{}, err
	}
	return tx.JSON(ela.TxContext{}), nil
}

// VerifyTxInput is the input of verify_tx.
type VerifyTxInput struct {
	Tx string `json:"tx"` // the raw transaction in hex
	// Referenced holds the program hash (hex, as ela.ProgramHash.Hex
	// writes it) of the output each input spends, in input order.
	Referenced []string `json:"referenced"`
}

// VerifiedTx is the output of verify_tx.
type VerifiedTx struct {
	Txid string `json:"txid"`
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
