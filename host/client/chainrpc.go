package client

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/host/internal/wire"
)

// JSON-RPC error codes of the chain's general methods (Elastos.ELA.SideChain
// service/error.go). A refused transaction carries its rule's code, the
// REST API's ([CodeDoubleSpend], [CodeDuplicate], ...). The Elastos nodes
// themselves answer every method error with -32603 and the reason in the
// message; didlight answers these.
const (
	RPCCodeInvalidParams      = -32602
	RPCCodeInvalidTransaction = -32000 // the bytes sent are not a transaction
	RPCCodeUnknownTransaction = -32002
	RPCCodeUnknownBlock       = -32004
)

// ChainRPC calls the general JSON-RPC methods every Elastos side-chain node
// serves (Elastos.ELA.SideChain.ID main.go, newRPCServer): blocks,
// transactions, the mempool, balances, unspent outputs, the node's state,
// and the broadcast of a signed transaction. It works with didlight and
// with the Elastos nodes, which need no REST URL for it (New("", rpc, nil)).
type ChainRPC struct{ c *Client }

// ChainRPC returns the typed calls of the chain's general JSON-RPC methods.
func (c *Client) ChainRPC() ChainRPC { return ChainRPC{c} }

// call calls method with params and decodes its result into v.
func (r ChainRPC) call(ctx context.Context, v any, method string, params ...any) error {
	if params == nil {
		params = []any{}
	}
	raw, err := r.c.Call(ctx, method, params)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("client: %s: unexpected result %.200s: %w", method, raw, err)
	}
	return nil
}

// result calls method with params and returns its result as a T, the zero
// T on failure.
func result[T any](ctx context.Context, r ChainRPC, method string, params ...any) (T, error) {
	var v T
	if err := r.call(ctx, &v, method, params...); err != nil {
		var zero T
		return zero, err
	}
	return v, nil
}

// hash calls a method whose result is a hash.
func (r ChainRPC) hash(ctx context.Context, method string, params ...any) (ela.Hash, error) {
	var s string
	if err := r.call(ctx, &s, method, params...); err != nil {
		return ela.Hash{}, err
	}
	h, err := ela.ParseHash(s)
	if err != nil {
		return h, fmt.Errorf("client: %s: %w", method, err)
	}
	return h, nil
}

// raw calls a method whose result is bytes in hex.
func (r ChainRPC) raw(ctx context.Context, method string, params ...any) ([]byte, error) {
	var s string
	if err := r.call(ctx, &s, method, params...); err != nil {
		return nil, err
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("client: %s: the result is not hex: %w", method, err)
	}
	return b, nil
}

// BlockCount calls getblockcount: the number of blocks, the tip's height + 1.
func (r ChainRPC) BlockCount(ctx context.Context) (uint32, error) {
	return result[uint32](ctx, r, "getblockcount")
}

// Height calls getcurrentheight: the tip's height.
func (r ChainRPC) Height(ctx context.Context) (uint32, error) {
	return result[uint32](ctx, r, "getcurrentheight")
}

// BestBlockHash calls getbestblockhash: the tip's hash.
func (r ChainRPC) BestBlockHash(ctx context.Context) (ela.Hash, error) {
	return r.hash(ctx, "getbestblockhash")
}

// BlockHash calls getblockhash: the hash of the block at height.
func (r ChainRPC) BlockHash(ctx context.Context, height uint32) (ela.Hash, error) {
	return r.hash(ctx, "getblockhash", height)
}

// Block calls getblock with verbosity 1: the block with its transactions'
// hashes (BlockJSON.Tx holds hashes only).
func (r ChainRPC) Block(ctx context.Context, hash ela.Hash) (*ela.BlockJSON, error) {
	return result[*ela.BlockJSON](ctx, r, "getblock", hash.String(), 1)
}

// BlockWithTxs calls getblock with verbosity 2: the block with its
// transactions in full; BlockJSON.Block rebuilds the binary block.
func (r ChainRPC) BlockWithTxs(ctx context.Context, hash ela.Hash) (*ela.BlockJSON, error) {
	return result[*ela.BlockJSON](ctx, r, "getblock", hash.String(), 2)
}

// RawBlock calls getblock with verbosity 0: the block's wire encoding, which
// [ela.ParseBlock] reads.
func (r ChainRPC) RawBlock(ctx context.Context, hash ela.Hash) ([]byte, error) {
	return r.raw(ctx, "getblock", hash.String(), 0)
}

// BlockByHeight calls getblockbyheight: the block at height with its
// transactions in full.
func (r ChainRPC) BlockByHeight(ctx context.Context, height uint32) (*ela.BlockJSON, error) {
	return result[*ela.BlockJSON](ctx, r, "getblockbyheight", height)
}

// Transaction calls getrawtransaction, verbose: the transaction, in a block
// or pooled (blockhash "" and 0 confirmations). An unknown one is an
// *RPCError ([RPCCodeUnknownTransaction] from didlight).
func (r ChainRPC) Transaction(ctx context.Context, txid ela.Hash) (*ela.TxJSON, error) {
	return result[*ela.TxJSON](ctx, r, "getrawtransaction", txid.String(), true)
}

// RawTransaction calls getrawtransaction: the transaction's wire encoding,
// which [ela.ParseTx] reads.
func (r ChainRPC) RawTransaction(ctx context.Context, txid ela.Hash) ([]byte, error) {
	return r.raw(ctx, "getrawtransaction", txid.String(), false)
}

// Mempool calls getrawmempool: the pooled transactions in full.
func (r ChainRPC) Mempool(ctx context.Context) ([]ela.TxJSON, error) {
	return result[[]ela.TxJSON](ctx, r, "getrawmempool")
}

// Balance calls getreceivedbyaddress: the ELA the address holds in unspent
// outputs. Nodes write amounts with eight decimals or, the Elastos nodes,
// without trailing zeros; both parse.
func (r ChainRPC) Balance(ctx context.Context, addr string) (ela.Fixed64, error) {
	var s string
	if err := r.call(ctx, &s, "getreceivedbyaddress", addr); err != nil {
		return 0, err
	}
	v, err := ela.ParseFixed64(s)
	if err != nil {
		return 0, fmt.Errorf("client: getreceivedbyaddress %s: %w", addr, err)
	}
	return v, nil
}

// Unspent is an unspent output as listunspent lists it.
type Unspent struct {
	Address       string
	Asset         ela.Hash
	Txid          ela.Hash
	Index         uint16
	Value         ela.Fixed64
	Confirmations uint32
	OutputLock    uint32     // the height before which it cannot be spent; 0 for none
	TxType        ela.TxType // of the transaction that made it; didlight and the main chain say it, side chains 0
}

// ListUnspent calls listunspent: the unspent outputs of the addresses,
// none when the node answers null.
func (r ChainRPC) ListUnspent(ctx context.Context, addrs ...string) ([]Unspent, error) {
	var list []wire.UnspentOutput
	if err := r.call(ctx, &list, "listunspent", addrs); err != nil {
		return nil, err
	}
	if list == nil {
		return nil, nil
	}
	out := make([]Unspent, len(list))
	for i, u := range list {
		asset, err1 := ela.ParseHash(u.AssetID)
		txid, err2 := ela.ParseHash(u.Txid)
		v, err3 := ela.ParseFixed64(u.Amount)
		for _, err := range []error{err1, err2, err3} {
			if err != nil {
				return nil, fmt.Errorf("client: listunspent: output %d: %w", i, err)
			}
		}
		out[i] = Unspent{Address: u.Address, Asset: asset, Txid: txid, Index: u.VOut, Value: v,
			Confirmations: u.Confirmations, OutputLock: u.OutputLock, TxType: u.TxType}
	}
	return out, nil
}

// SendRawTransaction calls sendrawtransaction: it broadcasts a signed
// transaction and returns its id. A transaction the node refuses is an
// *RPCError with the code of the rule it breaks.
func (r ChainRPC) SendRawTransaction(ctx context.Context, raw []byte) (ela.Hash, error) {
	return r.hash(ctx, "sendrawtransaction", hex.EncodeToString(raw))
}

// ConnectionCount calls getconnectioncount: the number of peers.
func (r ChainRPC) ConnectionCount(ctx context.Context) (int, error) {
	return result[int](ctx, r, "getconnectioncount")
}

// Neighbors calls getneighbors: the peers, each as "host:port (inbound)" or
// "(outbound)".
func (r ChainRPC) Neighbors(ctx context.Context) ([]string, error) {
	return result[[]string](ctx, r, "getneighbors")
}

// RPCNodeState is getnodestate's result, without the neighbors' details.
type RPCNodeState = wire.RPCNodeState[json.RawMessage]

// NodeState calls getnodestate.
func (r ChainRPC) NodeState(ctx context.Context) (*RPCNodeState, error) {
	return result[*RPCNodeState](ctx, r, "getnodestate")
}
