// Package ela implements the wire format of the Elastos ledger.
//
// It is the wire format of the Elastos ledger that the identity chain runs
// on: transactions, payloads, blocks, program hashes and addresses, Fixed64
// amounts, transaction signatures and DPoS confirms. It does no I/O.
//
// The identity chain is an Elastos side chain. Its transactions start with
// their type (no version byte), and its block headers carry the merge-mining
// proof (AuxPow) of the main chain. [ParseTx], [ParseBlock] and [ParseConfirm]
// decode exactly what Bytes encodes: decoding then encoding gives the input
// back byte for byte, and malformed input gets a *DecodeError that names the
// field and offset.
//
// [Tx.JSON], [Block.JSON] and [Confirm.JSON] build the objects the REST API shows;
// [TxJSON.Tx], [BlockJSON.Block] and [ConfirmJSON.Confirm] rebuild the binary
// form from them exactly, so a node can follow another node's REST API.
//
// Signatures are P-256 over SHA-256 of the signed data. [Tx.SignStandard] and
// [Tx.SignMultiSig] sign; [Tx.VerifyPrograms] and [Confirm.Verify] check, through a
// keys.Verifier supplied by the caller.
package ela
