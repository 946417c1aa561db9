package eid

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/didlight/didlight/core/excerpt"
)

// The chain's reads: what the SDKs probe, and what a verifier takes from
// the chain beside a DID's answer (the time of the head, against which
// expiry is judged; a transaction's block and sender).

// BlockNumber returns the number of the chosen endpoint's head block
// (eth_blockNumber).
func (c *Client) BlockNumber(ctx context.Context) (uint64, error) {
	return c.quantity(ctx, "eth_blockNumber")
}

// ChainID returns the chain id the chosen endpoint answers (eth_chainId):
// 22 on mainnet, 23 on testnet.
func (c *Client) ChainID(ctx context.Context) (uint64, error) {
	return c.quantity(ctx, "eth_chainId")
}

func (c *Client) quantity(ctx context.Context, method string) (uint64, error) {
	var n uint64
	_, err := c.call(ctx, method, "", nil, func(raw json.RawMessage) (err error) {
		n, err = quantity(raw)
		return err
	})
	return n, err
}

// ClientVersion returns the name and version the chosen endpoint gives
// itself (web3_clientVersion), such as "Geth/v1.9.7.0-…/linux-amd64/go1.20":
// for logs, not to be trusted.
func (c *Client) ClientVersion(ctx context.Context) (string, error) {
	var v string
	_, err := c.call(ctx, "web3_clientVersion", "", nil, func(raw json.RawMessage) error {
		if err := json.Unmarshal(raw, &v); err != nil {
			return fmt.Errorf("want a string")
		}
		v = excerpt.Cut(v)
		return nil
	})
	return v, err
}

// Block is a block's header as eth_getBlockByNumber gives it.
type Block struct {
	Number     uint64
	Hash       string    // 0x and 64 hex digits, lower case
	ParentHash string    // the same
	Time       time.Time // the block's timestamp, UTC
	Raw        json.RawMessage
}

// Head returns the chosen endpoint's head block: its Time is the chain
// time a light client judges expiry by.
func (c *Client) Head(ctx context.Context) (*Block, error) {
	return c.block(ctx, "latest", "latest")
}

// Block returns the block at number, or an error wrapping [ErrNotFound]
// when the endpoint has none there.
func (c *Client) Block(ctx context.Context, number uint64) (*Block, error) {
	return c.block(ctx, fmt.Sprintf("%#x", number), fmt.Sprint(number))
}

func (c *Client) block(ctx context.Context, tag, subject string) (*Block, error) {
	var b *Block
	_, err := c.call(ctx, "eth_getBlockByNumber", subject, []any{tag, false}, func(raw json.RawMessage) (err error) {
		b, err = decodeBlock(raw, tag)
		return err
	})
	if err == nil && b == nil {
		err = fmt.Errorf("eid: block %s: %w", subject, ErrNotFound)
	}
	return b, err
}

// decodeBlock reads the answer to eth_getBlockByNumber for tag: nil for
// null, and an error unless it is the block asked for.
func decodeBlock(raw json.RawMessage, tag string) (*Block, error) {
	var v *struct {
		Number, Hash, ParentHash, Timestamp string
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("not a block: %v", err)
	}
	if v == nil {
		return nil, nil
	}
	b := &Block{Raw: raw}
	var err error
	if b.Number, err = parseQuantity(v.Number); err != nil {
		return nil, fmt.Errorf("number: %w", err)
	}
	if tag != "latest" && fmt.Sprintf("%#x", b.Number) != tag {
		return nil, fmt.Errorf("block %d, not the %s asked for", b.Number, tag)
	}
	if b.Hash, err = hexBytes(v.Hash, 32); err != nil {
		return nil, fmt.Errorf("hash: %w", err)
	}
	if b.ParentHash, err = hexBytes(v.ParentHash, 32); err != nil {
		return nil, fmt.Errorf("parentHash: %w", err)
	}
	t, err := parseQuantity(v.Timestamp)
	if err == nil && t > math.MaxInt64 {
		err = fmt.Errorf("timestamp %d is past any time", t)
	}
	if err != nil {
		return nil, fmt.Errorf("timestamp: %w", err)
	}
	b.Time = time.Unix(int64(t), 0).UTC()
	return b, nil
}

// Transaction is what eth_getTransactionByHash tells of a transaction.
type Transaction struct {
	Hash        string // 0x and 64 hex digits, lower case
	Pending     bool   // in no block yet: BlockHash is "" and BlockNumber 0
	BlockHash   string
	BlockNumber uint64
	From        string // the sender: 0x and 40 hex digits, lower case
	To          string // the recipient, "" for a contract creation
	Raw         json.RawMessage
}

// Transaction returns the transaction whose hash is txid, with or
// without 0x (EID's did_resolveDID writes txids without), or an error
// wrapping [ErrNotFound] when the endpoint knows none.
func (c *Client) Transaction(ctx context.Context, txid string) (*Transaction, error) {
	hash, err := hexBytes("0x"+strings.TrimPrefix(txid, "0x"), 32)
	if err != nil {
		return nil, fmt.Errorf("eid: transaction id %s: want 64 hex digits, with or without 0x", excerpt.Quote(txid))
	}
	var tx *Transaction
	_, err = c.call(ctx, "eth_getTransactionByHash", hash, []any{hash}, func(raw json.RawMessage) (err error) {
		tx, err = decodeTransaction(raw, hash)
		return err
	})
	if err == nil && tx == nil {
		err = fmt.Errorf("eid: transaction %s: %w", hash, ErrNotFound)
	}
	return tx, err
}

// decodeTransaction reads the answer to eth_getTransactionByHash for
// hash: nil for null, and an error unless it is that transaction.
func decodeTransaction(raw json.RawMessage, hash string) (*Transaction, error) {
	var v *struct {
		Hash, BlockHash, BlockNumber, From string
		To                                 *string
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("not a transaction: %v", err)
	}
	if v == nil {
		return nil, nil
	}
	tx := &Transaction{Raw: raw, Pending: v.BlockNumber == ""}
	var err error
	if tx.Hash, err = hexBytes(v.Hash, 32); err != nil || tx.Hash != hash {
		return nil, fmt.Errorf("transaction %s, not the %s asked for", excerpt.Quote(v.Hash), hash)
	}
	if !tx.Pending {
		if tx.BlockNumber, err = parseQuantity(v.BlockNumber); err != nil {
			return nil, fmt.Errorf("blockNumber: %w", err)
		}
		if tx.BlockHash, err = hexBytes(v.BlockHash, 32); err != nil {
			return nil, fmt.Errorf("blockHash: %w", err)
		}
	}
	if tx.From, err = hexBytes(v.From, 20); err != nil {
		return nil, fmt.Errorf("from: %w", err)
	}
	if v.To != nil {
		if tx.To, err = hexBytes(*v.To, 20); err != nil {
			return nil, fmt.Errorf("to: %w", err)
		}
	}
	return tx, nil
}
