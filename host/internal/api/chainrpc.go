package api

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/jsonrpc"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/wire"
)

// The chain's general JSON-RPC methods: those of the ID side chain node
// (Elastos.ELA.SideChain.ID main.go newRPCServer, with handlers in its
// service/service.go and Elastos.ELA.SideChain's), which Elastos tools call
// on any side chain. Blocks and transactions are the objects the REST API
// shows (one builder, core/ela), and the raw forms their wire encoding.
// Every method is a read but sendrawtransaction, a broadcast of a
// transaction its sender signed.

// JSON-RPC codes of the side chain's method errors (Elastos.ELA.SideChain
// service/error.go). A refused transaction carries its rule's code (45xxx),
// as the side chain's sendrawtransaction answers it (service.go ruleError).
const (
	codeInvalidTransaction = -32000
	codeUnknownTransaction = -32002
	codeUnknownBlock       = -32004
)

// rpc is the failure as a JSON-RPC error: the side chain's code for it,
// with the detail in data.
func (e *restError) rpc() *jsonrpc.Error {
	switch e.code {
	case invalidParams:
		return jsonrpc.InvalidParams(e.detail)
	case internalError:
		return jsonrpc.InternalError(e.detail)
	case unknownBlock:
		return &jsonrpc.Error{Code: codeUnknownBlock, Message: "Unknown Block", Data: e.detail}
	case unknownTransaction:
		return &jsonrpc.Error{Code: codeUnknownTransaction, Message: "Unknown Transaction", Data: e.detail}
	case code(ledger.Malformed):
		return &jsonrpc.Error{Code: codeInvalidTransaction, Message: "Invalid transaction", Data: e.detail}
	}
	return &jsonrpc.Error{Code: int(e.code), Message: e.code.desc(), Data: e.detail}
}

// getBlockCount answers getblockcount: the number of blocks, the tip's
// height + 1.
func (s *Server) getBlockCount() any {
	height, _, _ := s.chain.Tip()
	return height + 1
}

// getCurrentHeight answers getcurrentheight: the tip's height.
func (s *Server) getCurrentHeight() any {
	height, _, _ := s.chain.Tip()
	return height
}

// getBestBlockHash answers getbestblockhash: the tip's hash.
func (s *Server) getBestBlockHash() any {
	_, hash, _ := s.chain.Tip()
	return hash.String()
}

// noArgs makes a method of a read that takes no parameters: params must be
// absent, null, {} or [].
func noArgs(read func(*Server) any) method {
	return func(s *Server, _ context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
		if _, err := readArgs(params); err != nil {
			return nil, err
		}
		return read(s), nil
	}
}

// oneArg makes a method that takes the one parameter name, which read
// checks, and answers from the chain with answer.
func oneArg[T any](name string, read func(args, string) (T, *jsonrpc.Error), answer func(*Server, context.Context, T) (any, *restError)) method {
	return func(s *Server, ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
		a, err := readArgs(params, name)
		if err != nil {
			return nil, err
		}
		v, err := read(a, name)
		if err != nil {
			return nil, err
		}
		return rpcAnswer(answer(s, ctx, v))
	}
}

// rpcAnswer answers with result, or with err as a JSON-RPC error.
func rpcAnswer(result any, err *restError) (any, *jsonrpc.Error) {
	if err != nil {
		return nil, err.rpc()
	}
	return result, nil
}

// hashAtHeight answers getblockhash [height]: the hash of the block there.
func (s *Server) hashAtHeight(_ context.Context, height uint32) (any, *restError) {
	h, err := s.blockHashAt(height)
	if err != nil {
		return nil, err
	}
	return h.String(), nil
}

// getBlock answers getblock [blockhash, verbosity]: the block in raw hex
// (verbosity 0), as an object with its transactions' hashes (1, the
// default) or with its transactions in full (2).
func (s *Server) getBlock(_ context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	a, err := readArgs(params, "blockhash", "verbosity")
	if err != nil {
		return nil, err
	}
	h, err := a.hash("blockhash")
	if err != nil {
		return nil, err
	}
	verbosity, err := a.verbosity("verbosity")
	if err != nil {
		return nil, err
	}
	b, ctx, rerr := s.blockByID(h)
	switch {
	case rerr != nil:
		return nil, rerr.rpc()
	case verbosity == 0:
		return hex.EncodeToString(b.Bytes()), nil
	}
	return b.JSON(ctx, verbosity == 2), nil
}

// blockAtHeight answers getblockbyheight [height]: the block there with its
// transactions in full.
func (s *Server) blockAtHeight(_ context.Context, height uint32) (any, *restError) {
	b, ctx, err := s.blockAt(height)
	if err != nil {
		return nil, err
	}
	return b.JSON(ctx, true), nil
}

// getRawTransaction answers getrawtransaction [txid, verbose]: the
// transaction, in the chain or else in the mempool, in raw hex or (verbose)
// as an object.
func (s *Server) getRawTransaction(_ context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	a, err := readArgs(params, "txid", "verbose")
	if err != nil {
		return nil, err
	}
	h, err := a.hash("txid")
	if err != nil {
		return nil, err
	}
	verbose, err := a.flag("verbose")
	if err != nil {
		return nil, err
	}
	tx, ctx, rerr := s.txByID(h)
	switch {
	case rerr != nil:
		return nil, rerr.rpc()
	case verbose:
		return tx.JSON(ctx), nil
	}
	return hex.EncodeToString(tx.Bytes()), nil
}

// getRawMempool answers getrawmempool: the pooled transactions in full, in
// arrival order; [] when there are none.
func (s *Server) getRawMempool() any {
	return s.mempoolJSON()
}

// broadcastRaw answers sendrawtransaction [data]: it puts the signed
// transaction (hex) into the mempool, as the REST broadcast does, and
// answers its id.
func (s *Server) broadcastRaw(ctx context.Context, raw []byte) (any, *restError) {
	return s.submit(ctx, raw)
}

// received answers getreceivedbyaddress [address, spendable]: the ELA the
// address holds in unspent outputs; with spendable, only in those it may
// spend now (Chain.Spendable), as the ELA main chain's history nodes read
// it (Elastos.ELA tx_history branches, servers/interfaces.go,
// GetReceivedByAddress), which the Essentials wallet asks.
func (s *Server) received(_ context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	a, err := readArgs(params, "address", "spendable")
	if err != nil {
		return nil, err
	}
	addr, err := a.address("address")
	if err != nil {
		return nil, err
	}
	spendable, err := a.flag("spendable")
	if err != nil {
		return nil, err
	}
	if !spendable {
		return rpcAnswer(s.balance(addr, ela.ELAAssetID()))
	}
	utxos, rerr := s.unspent(addr)
	if rerr != nil {
		return nil, rerr.rpc()
	}
	var sum ela.Fixed64
	for _, u := range utxos {
		if u.Asset == ela.ELAAssetID() && s.chain.Spendable(u) {
			sum += u.Value
		}
	}
	return sum.String(), nil
}

func toUnspentOutput(u chain.UTXO) wire.UnspentOutput {
	return wire.UnspentOutput{AssetID: u.Asset.String(), Txid: u.Txid.String(), VOut: u.Index, Address: u.Address.Address(),
		Amount: u.Value.String(), Confirmations: u.Confirmations, OutputLock: u.OutputLock, TxType: u.TxType}
}

// The kinds of outputs the main chain's wallet calls select (utxotype):
// every one, those that are votes (outputs of type OTVote in transactions
// of version 0x09 or later), those that are not, and (getutxosbyamount)
// those no pooled transaction spends. This chain's transactions are of the
// side chain's form, without output types: no output is a vote.
const (
	utxoMixed  = "mixed"
	utxoVote   = "vote"
	utxoNormal = "normal"
	utxoUnused = "unused"
)

// utxoType reads a utxotype parameter, one of kinds; mixed when absent.
func (a args) utxoType(name string, kinds ...string) (string, *jsonrpc.Error) {
	v, ok := a[name]
	if !ok {
		return utxoMixed, nil
	}
	var t string
	if json.Unmarshal(v, &t) != nil || !slices.Contains(kinds, t) {
		return "", badArg(name, orList(kinds), v)
	}
	return t, nil
}

// orList joins words as "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// selects reports whether an output of kind utxoType is u: none is a vote.
func (s *Server) selects(utxoType string, u chain.UTXO) bool {
	switch utxoType {
	case utxoVote:
		return false
	case utxoUnused:
		return !s.chain.PoolSpends(u.Txid, u.Index)
	}
	return true
}

// listUnspent answers listunspent [addresses, utxotype, spendable]: the
// unspent outputs of each address in chain order, null when there are none
// (as the side chain answers); utxotype and spendable select among them as
// the ELA main chain does (Elastos.ELA servers/interfaces.go, ListUnspent,
// spendable in its tx_history branches), which the Essentials wallet sends
// (the ID side chain ignores both).
func (s *Server) listUnspent(_ context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	a, err := readArgs(params, "addresses", "utxotype", "spendable")
	if err != nil {
		return nil, err
	}
	addrs, err := a.addresses("addresses")
	if err != nil {
		return nil, err
	}
	kind, err := a.utxoType("utxotype", utxoMixed, utxoVote, utxoNormal)
	if err != nil {
		return nil, err
	}
	spendable, err := a.flag("spendable")
	if err != nil {
		return nil, err
	}
	utxos, rerr := s.unspent(addrs...)
	if rerr != nil {
		return nil, rerr.rpc()
	}
	var out []wire.UnspentOutput
	for _, u := range utxos {
		if s.selects(kind, u) && (!spendable || s.chain.Spendable(u)) {
			out = append(out, toUnspentOutput(u))
		}
	}
	if len(out) == 0 {
		return json.RawMessage("null"), nil
	}
	return out, nil
}

// utxosByAmount answers getutxosbyamount [address, amount, utxotype], the
// ELA main chain's (Elastos.ELA servers/interfaces.go, GetUTXOsByAmount),
// which ela-cli's wallet and the Essentials wallet call to pick the inputs
// of a payment: the address's unspent outputs of utxotype (mixed, vote,
// normal or unused) that may be spent now, in chain order, until they hold
// amount (ELA, a decimal string); -32602 when they hold less.
func (s *Server) utxosByAmount(_ context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	a, err := readArgs(params, "address", "amount", "utxotype")
	if err != nil {
		return nil, err
	}
	addr, err := a.address("address")
	if err != nil {
		return nil, err
	}
	amount, err := a.amount("amount")
	if err != nil {
		return nil, err
	}
	kind, err := a.utxoType("utxotype", utxoMixed, utxoVote, utxoNormal, utxoUnused)
	if err != nil {
		return nil, err
	}
	utxos, rerr := s.unspent(addr)
	if rerr != nil {
		return nil, rerr.rpc()
	}
	out := []wire.UnspentOutput{}
	var total ela.Fixed64
	for _, u := range utxos {
		if total >= amount {
			break
		}
		if u.Asset == ela.ELAAssetID() && s.selects(kind, u) && s.chain.Spendable(u) {
			total += u.Value
			out = append(out, toUnspentOutput(u))
		}
	}
	if total < amount {
		return nil, jsonrpc.InvalidParams(fmt.Sprintf("amount: not enough unspent outputs: %s of utxotype %s holds %s that may be spent now, less than %s", addr.Address(), kind, total, amount))
	}
	return out, nil
}
