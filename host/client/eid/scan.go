package eid

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
)

// The reads of a scan of the chain: blocks with their transactions, and
// the receipts of the transactions that carry DID operations, in batches.

// TxBlock is a block as eth_getBlockByNumber gives it with its
// transactions: what a scan for DID operations takes from it.
type TxBlock struct {
	Number     uint64
	Hash       string // 0x and 64 hex digits, lower case
	ParentHash string // the same
	Time       uint64 // the header's timestamp, Unix seconds
	Txs        []Tx
}

// Tx is a transaction of a TxBlock.
type Tx struct {
	Hash  string // 0x and 64 hex digits, lower case
	Index uint32 // its position in the block
	From  string // the sender: 0x and 40 hex digits, lower case
	To    string // the recipient, the same; "" for a contract creation
}

// Blocks returns the blocks from number from on, at most n, with their
// transactions, asked in one batch. The list ends early, before the
// first block the endpoint does not have (past its head).
func (c *Client) Blocks(ctx context.Context, from uint64, n int) ([]*TxBlock, error) {
	if n <= 0 {
		return nil, nil
	}
	if from > math.MaxUint64-uint64(n) {
		return nil, fmt.Errorf("eid: blocks %d and %d after it: past the last block number", from, n-1)
	}
	params := make([]any, n)
	for i := range params {
		params[i] = []any{fmt.Sprintf("%#x", from+uint64(i)), true}
	}
	blocks := make([]*TxBlock, n)
	_, err := c.batch(ctx, "eth_getBlockByNumber", fmt.Sprintf("%d to %d", from, from+uint64(n)-1), params, func(i int, raw json.RawMessage) (err error) {
		blocks[i], err = decodeTxBlock(raw, from+uint64(i))
		return err
	})
	if err != nil {
		return nil, err
	}
	for i, b := range blocks {
		if b == nil {
			return blocks[:i], nil
		}
	}
	return blocks, nil
}

// decodeTxBlock reads the answer to eth_getBlockByNumber for number with
// transactions: nil for null, and an error unless it is that block, its
// transactions in order.
func decodeTxBlock(raw json.RawMessage, number uint64) (*TxBlock, error) {
	var v *struct {
		Number, Hash, ParentHash, Timestamp string
		Transactions                        []struct {
			Hash, From, TransactionIndex, BlockHash string
			To                                      *string
		}
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("not a block with its transactions: %v", err)
	}
	if v == nil {
		return nil, nil
	}
	b := &TxBlock{Txs: make([]Tx, len(v.Transactions))}
	var err error
	if b.Number, err = parseQuantity(v.Number); err != nil || b.Number != number {
		return nil, fmt.Errorf("block number %q, not the %d asked for", v.Number, number)
	}
	if b.Hash, err = hexBytes(v.Hash, 32); err != nil {
		return nil, fmt.Errorf("hash: %w", err)
	}
	if b.ParentHash, err = hexBytes(v.ParentHash, 32); err != nil {
		return nil, fmt.Errorf("parentHash: %w", err)
	}
	if b.Time, err = parseQuantity(v.Timestamp); err != nil {
		return nil, fmt.Errorf("timestamp: %w", err)
	}
	for i, t := range v.Transactions {
		tx := &b.Txs[i]
		if tx.Hash, err = hexBytes(t.Hash, 32); err != nil {
			return nil, fmt.Errorf("transaction %d: hash: %w", i, err)
		}
		if bh, err := hexBytes(t.BlockHash, 32); err != nil || bh != b.Hash {
			return nil, fmt.Errorf("transaction %d: blockHash %q is not the block's", i, t.BlockHash)
		}
		if index, err := parseQuantity(t.TransactionIndex); err != nil || index != uint64(i) {
			return nil, fmt.Errorf("transaction %d: transactionIndex %q is not its position", i, t.TransactionIndex)
		}
		tx.Index = uint32(i)
		if tx.From, err = hexBytes(t.From, 20); err != nil {
			return nil, fmt.Errorf("transaction %d: from: %w", i, err)
		}
		if t.To != nil {
			if tx.To, err = hexBytes(*t.To, 20); err != nil {
				return nil, fmt.Errorf("transaction %d: to: %w", i, err)
			}
		}
	}
	return b, nil
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
