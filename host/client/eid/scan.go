package eid

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/didlight/didlight/core/did/sdkjson"
	"github.com/didlight/didlight/core/excerpt"
)

// The reads of a scan of the chain: blocks with their transactions, and
// the receipts of the transactions that carry DID operations, in batches.

// TxBlock is a block as eth_getBlockByNumber gives it: what a scan for
// DID operations takes from it.
type TxBlock struct {
	Number     uint64
	Hash       string // 0x and 64 hex digits, lower case
	ParentHash string // the same
	Time       uint64 // the header's timestamp, Unix seconds
	// Bloom is the header's logsBloom, 256 bytes. EID's also holds the
	// sender and the recipient of each transaction (core/types/bloom9.go,
	// CreateBloomWithTxList, checked by core/block_validator.go), so it
	// tells which blocks may hold a transaction to an address.
	Bloom   []byte
	TxCount int
	Txs     []Tx // the transactions, when asked for in full
}

// Tx is a transaction of a TxBlock.
type Tx struct {
	Hash  string // 0x and 64 hex digits, lower case
	Index uint32 // its position in the block
	From  string // the sender: 0x and 40 hex digits, lower case
	To    string // the recipient, the same; "" for a contract creation
}

// Blocks returns the blocks numbered numbers, asked in one batch, in the
// same order; full asks for their transactions too (the node then
// recovers each one's sender), else only their number is told. A block
// the endpoint does not have (past its head) is nil.
func (c *Client) Blocks(ctx context.Context, numbers []uint64, full bool) ([]*TxBlock, error) {
	if len(numbers) == 0 {
		return nil, nil
	}
	params := make([]any, len(numbers))
	for i, n := range numbers {
		params[i] = []any{fmt.Sprintf("%#x", n), full}
	}
	subject := fmt.Sprint(numbers[0])
	if len(numbers) > 1 {
		subject = fmt.Sprintf("%d to %d", numbers[0], numbers[len(numbers)-1])
	}
	blocks := make([]*TxBlock, len(numbers))
	_, err := c.batch(ctx, "eth_getBlockByNumber", subject, params, func(i int, raw json.RawMessage) (err error) {
		blocks[i], err = decodeTxBlock(raw, numbers[i], full)
		return err
	})
	if err != nil {
		return nil, err
	}
	return blocks, nil
}

// decodeTxBlock reads the answer to eth_getBlockByNumber for number, with
// its transactions in full or as hashes: nil for null, and an error
// unless it is that block, its transactions in order. It reads with
// core's JSON scanner, member names as geth writes them: a scan reads
// every block of the chain, and encoding/json took most of its time.
func decodeTxBlock(raw json.RawMessage, number uint64, full bool) (*TxBlock, error) {
	d := sdkjson.NewDecoder(raw)
	if d.Null() {
		return nil, d.Finish()
	}
	var num, hash, parent, stamp, bloom string
	var txs []json.RawMessage
	for m := d.Object(); m.Next(); {
		switch m.Key() {
		case "number":
			num = d.Str()
		case "hash":
			hash = d.Str()
		case "parentHash":
			parent = d.Str()
		case "timestamp":
			stamp = d.Str()
		case "logsBloom":
			bloom = d.Str()
		case "transactions":
			txs = txs[:0]
			for e := d.Array(); e.Next(); {
				txs = append(txs, d.Raw())
			}
		default:
			d.Skip()
		}
	}
	if err := d.Finish(); err != nil {
		return nil, fmt.Errorf("not a block: %v", err)
	}
	b := &TxBlock{TxCount: len(txs)}
	var err error
	if b.Number, err = parseQuantity(num); err != nil || b.Number != number {
		return nil, fmt.Errorf("block number %q, not the %d asked for", num, number)
	}
	if b.Hash, err = hexBytes(hash, 32); err != nil {
		return nil, fmt.Errorf("hash: %w", err)
	}
	if b.ParentHash, err = hexBytes(parent, 32); err != nil {
		return nil, fmt.Errorf("parentHash: %w", err)
	}
	if b.Time, err = parseQuantity(stamp); err != nil {
		return nil, fmt.Errorf("timestamp: %w", err)
	}
	if bloom, err = hexBytes(bloom, 256); err != nil {
		return nil, fmt.Errorf("logsBloom: %w", err)
	}
	b.Bloom, _ = hex.DecodeString(bloom[2:])
	for i, t := range txs {
		if !full {
			var h string
			if json.Unmarshal(t, &h) != nil {
				return nil, fmt.Errorf("transaction %d: %s is not a hash", i, excerpt.Bytes(t))
			}
			if _, err := hexBytes(h, 32); err != nil {
				return nil, fmt.Errorf("transaction %d: %w", i, err)
			}
			continue
		}
		tx, err := decodeBlockTx(t, b.Hash, i)
		if err != nil {
			return nil, fmt.Errorf("transaction %d: %w", i, err)
		}
		b.Txs = append(b.Txs, tx)
	}
	return b, nil
}

// decodeBlockTx reads transaction i of the block whose hash is block.
func decodeBlockTx(raw json.RawMessage, block string, i int) (Tx, error) {
	var v struct {
		Hash, From, TransactionIndex, BlockHash string
		To                                      *string
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return Tx{}, fmt.Errorf("not a transaction: %v", err)
	}
	var tx Tx
	var err error
	if tx.Hash, err = hexBytes(v.Hash, 32); err != nil {
		return tx, fmt.Errorf("hash: %w", err)
	}
	if bh, err := hexBytes(v.BlockHash, 32); err != nil || bh != block {
		return tx, fmt.Errorf("blockHash %q is not the block's", v.BlockHash)
	}
	if index, err := parseQuantity(v.TransactionIndex); err != nil || index != uint64(i) {
		return tx, fmt.Errorf("transactionIndex %q is not its position", v.TransactionIndex)
	}
	tx.Index = uint32(i)
	if tx.From, err = hexBytes(v.From, 20); err != nil {
		return tx, fmt.Errorf("from: %w", err)
	}
	if v.To != nil {
		if tx.To, err = hexBytes(*v.To, 20); err != nil {
			return tx, fmt.Errorf("to: %w", err)
		}
	}
	return tx, nil
}

// Receipt is what eth_getTransactionReceipt tells of a transaction in a
// block: where it is, whether it succeeded, and EID's didLog.
type Receipt struct {
	TxHash      string // 0x and 64 hex digits, lower case
	BlockHash   string // the same
	BlockNumber uint64
	Index       uint32 // the transaction's position in its block
	Status      uint64 // 1 succeeded, 0 failed (reverted, or refused by the DID precompile)
	DIDLog      *DIDLog
}

// DIDLog is the didLog member EID adds to the receipt of an accepted DID
// or credential operation (core/types/didlog.go).
type DIDLog struct {
	DID       string // the published document's id, the deactivated DID, or the credential id
	Operation string // create, update, transfer, deactivate, declare, revoke
	Data      string // standard base64 of the whole signed operation (core/eid.DecodeLogData)
	Removed   bool
}

// Receipts returns the receipts of the transactions whose hashes are
// given (0x and 64 hex digits), asked in one batch, in the same order.
// A transaction the endpoint does not know (in no block it has) fails it
// with an error wrapping [ErrNotFound].
func (c *Client) Receipts(ctx context.Context, hashes []string) ([]*Receipt, error) {
	params := make([]any, len(hashes))
	for i, h := range hashes {
		params[i] = []any{h}
	}
	rs := make([]*Receipt, len(hashes))
	_, err := c.batch(ctx, "eth_getTransactionReceipt", fmt.Sprintf("of %d transactions", len(hashes)), params, func(i int, raw json.RawMessage) (err error) {
		rs[i], err = decodeReceipt(raw, hashes[i])
		return err
	})
	if err != nil {
		return nil, err
	}
	for i, r := range rs {
		if r == nil {
			return nil, fmt.Errorf("eid: receipt of %s: %w", hashes[i], ErrNotFound)
		}
	}
	return rs, nil
}

// decodeReceipt reads the answer to eth_getTransactionReceipt for hash:
// nil for null, and an error unless it is that transaction's.
func decodeReceipt(raw json.RawMessage, hash string) (*Receipt, error) {
	var v *struct {
		TransactionHash, BlockHash, BlockNumber, TransactionIndex, Status string
		DIDLog                                                            *DIDLog `json:"didLog"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("not a receipt: %v", err)
	}
	if v == nil {
		return nil, nil
	}
	r := &Receipt{DIDLog: v.DIDLog}
	var err error
	if r.TxHash, err = hexBytes(v.TransactionHash, 32); err != nil || r.TxHash != hash {
		return nil, fmt.Errorf("receipt of %q, not of the %s asked for", v.TransactionHash, hash)
	}
	if r.BlockHash, err = hexBytes(v.BlockHash, 32); err != nil {
		return nil, fmt.Errorf("blockHash: %w", err)
	}
	if r.BlockNumber, err = parseQuantity(v.BlockNumber); err != nil {
		return nil, fmt.Errorf("blockNumber: %w", err)
	}
	index, err := parseQuantity(v.TransactionIndex)
	if err == nil && index > math.MaxUint32 {
		err = errors.New("past any block's transactions")
	}
	if err != nil {
		return nil, fmt.Errorf("transactionIndex: %w", err)
	}
	r.Index = uint32(index)
	if r.Status, err = parseQuantity(v.Status); err != nil || r.Status > 1 {
		return nil, fmt.Errorf("status %q is not 0x0 or 0x1", v.Status)
	}
	if r.DIDLog != nil && (r.DIDLog.Data == "" || r.Status != 1) {
		return nil, fmt.Errorf("a didLog with status %q and data %q: only an accepted operation has one", v.Status, r.DIDLog.Data)
	}
	return r, nil
}
