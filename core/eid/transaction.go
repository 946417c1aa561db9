package eid

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"

	"github.com/didlight/didlight/core/did/sdkjson"
	"github.com/didlight/didlight/core/excerpt"
	"github.com/didlight/didlight/core/idop"
)

// Transaction is what an EID node tells of a transaction that carries an
// operation (eth_getTransactionByHash): the block it is in, its sender and
// the operation its input carries. It is the provenance that tells an
// operation of the migration window from a forged one (see [VerifyDID]).
type Transaction struct {
	Txid    string // the hash, as TxidOf writes it
	Block   uint64 // the block number
	From    string // the sender, 0x and 40 hex digits
	To      string // the recipient: PrecompileAddress or the DID contract
	Request idop.Request
}

// MaxAnswerSize bounds an upstream answer this package reads, refused
// unread above it: more than the largest block EID makes, which bounds a
// transaction's input and what a history holds.
const MaxAnswerSize = 16 << 20

// ParseTransaction reads an eth_getTransactionByHash answer (the JSON-RPC
// response, or its result object) for a transaction in a block, and
// decodes the operation its input carries ([DecodeInput]). A pending or
// unknown transaction is an error.
func ParseTransaction(answer []byte) (*Transaction, error) {
	result, err := rpcResult(answer)
	if err != nil {
		return nil, err
	}
	var tx Transaction
	var hash, block, input string
	d := sdkjson.NewDecoder(result)
	if d.Null() {
		return nil, errors.New("eid: the node does not know the transaction")
	}
	for m := d.Object(); m.Next(); {
		if d.Null() {
			continue
		}
		switch m.Key() {
		case "hash":
			hash = d.Str()
		case "blockNumber":
			block = d.Str()
		case "from":
			tx.From = d.Str()
		case "to":
			tx.To = d.Str()
		case "input":
			input = d.Str()
		default:
			d.Skip()
		}
	}
	if err := d.Finish(); err != nil {
		return nil, fmt.Errorf("eid: transaction: %w", err)
	}
	if tx.Txid, err = TxidOf(hash); err != nil {
		return nil, fmt.Errorf("eid: transaction hash: %w", err)
	}
	if block == "" {
		return nil, fmt.Errorf("eid: transaction %s is in no block", tx.Txid)
	}
	if tx.Block, err = quantity(block); err != nil {
		return nil, fmt.Errorf("eid: transaction %s: blockNumber: %w", tx.Txid, err)
	}
	if !isAddress(tx.From) || !isAddress(tx.To) {
		return nil, fmt.Errorf("eid: transaction %s: from %s and to %s must be addresses", tx.Txid, excerpt.Quote(tx.From), excerpt.Quote(tx.To))
	}
	b, err := hexData(input)
	if err != nil {
		return nil, fmt.Errorf("eid: transaction %s: input: %w", tx.Txid, err)
	}
	if tx.Request, err = DecodeInput(tx.To, b); err != nil {
		return nil, fmt.Errorf("eid: transaction %s carries no operation: %w", tx.Txid, err)
	}
	return &tx, nil
}

// ParseChainID reads an eth_chainId answer (the JSON-RPC response, or its
// result) as a number.
func ParseChainID(answer []byte) (uint64, error) {
	result, err := rpcResult(answer)
	if err != nil {
		return 0, err
	}
	d := sdkjson.NewDecoder(result)
	s := d.Str()
	if err := d.Finish(); err != nil {
		return 0, fmt.Errorf("eid: chain id: %w", err)
	}
	id, err := quantity(s)
	if err != nil {
		return 0, fmt.Errorf("eid: chain id: %w", err)
	}
	return id, nil
}

// rpcResult returns the result of a JSON-RPC response, or answer itself
// when it is not a response (an object without jsonrpc, result or error).
func rpcResult(answer []byte) ([]byte, error) {
	if err := checkSize(answer); err != nil {
		return nil, err
	}
	var result, rpcErr []byte
	envelope := false
	d := sdkjson.NewDecoder(answer)
	if d.Kind() != sdkjson.Object {
		return answer, nil
	}
	for m := d.Object(); m.Next(); {
		switch m.Key() {
		case "result":
			result, envelope = d.Raw(), true
		case "error":
			rpcErr, envelope = d.Raw(), true
		case "jsonrpc":
			envelope = true
			d.Skip()
		default:
			d.Skip()
		}
	}
	switch err := d.Finish(); {
	case err != nil:
		return nil, fmt.Errorf("eid: %w", err)
	case !envelope:
		return answer, nil
	case rpcErr != nil && string(rpcErr) != "null":
		return nil, fmt.Errorf("eid: the node answered an error: %s", excerpt.Quote(string(rpcErr)))
	case result == nil:
		return nil, errors.New("eid: a response without result")
	}
	return result, nil
}

// checkSize refuses an answer over [MaxAnswerSize] before it is read.
func checkSize(answer []byte) error {
	if len(answer) > MaxAnswerSize {
		return fmt.Errorf("eid: an answer of %d bytes, at most %d", len(answer), MaxAnswerSize)
	}
	return nil
}

// quantity reads an EVM JSON quantity: 0x and at most 16 hex digits.
func quantity(s string) (uint64, error) {
	if len(s) < 3 || len(s) > 18 || s[:2] != "0x" {
		return 0, fmt.Errorf("%s is not a quantity (0x and hex digits)", excerpt.Quote(s))
	}
	n, err := strconv.ParseUint(s[2:], 16, 64)
	if err != nil {
		return 0, fmt.Errorf("%s is not a quantity (0x and hex digits)", excerpt.Quote(s))
	}
	return n, nil
}

// hexData reads EVM JSON data: 0x and an even number of hex digits.
func hexData(s string) ([]byte, error) {
	if len(s) < 2 || s[:2] != "0x" {
		return nil, fmt.Errorf("%s is not data (0x and hex digits)", excerpt.Quote(s))
	}
	return hex.DecodeString(s[2:])
}

// isAddress reports whether s is an EVM address: 0x and 40 hex digits.
func isAddress(s string) bool {
	if len(s) != 42 || s[:2] != "0x" {
		return false
	}
	_, err := hex.DecodeString(s[2:])
	return err == nil
}
