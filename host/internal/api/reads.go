package api

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/eidfork"
)

// The reads and the broadcast that the REST API and the chain's JSON-RPC
// methods both serve, from parsed parameters. Each returns its value or the
// failure in ELA's REST codes; the JSON-RPC methods answer the failure with
// their own codes (restError.rpc), so that both APIs fail alike.

// blockHashAt is the hash of the block at height.
func (s *Server) blockHashAt(height uint32) (ela.Hash, *restError) {
	h, err := s.chain.BlockHash(height)
	if err != nil {
		return h, s.chainError(err, unknownBlock, "no block at height %d", height)
	}
	return h, nil
}

// blockAt is the block at height with what the chain knows of it.
func (s *Server) blockAt(height uint32) (*ela.Block, ela.BlockContext, *restError) {
	b, ctx, err := s.chain.BlockByHeight(height)
	if err != nil {
		return nil, ctx, s.chainError(err, unknownBlock, "no block at height %d", height)
	}
	return b, ctx, nil
}

// blockByID is the block with hash h with what the chain knows of it.
func (s *Server) blockByID(h ela.Hash) (*ela.Block, ela.BlockContext, *restError) {
	b, ctx, err := s.chain.BlockByHash(h)
	if err != nil {
		return nil, ctx, s.chainError(err, unknownBlock, "no block %s", h)
	}
	return b, ctx, nil
}

// txByID is the transaction h, in a block or pooled (the zero context).
// One the chain does not hold that is an EID transaction whose operation
// it grafted (eidTx) fails as one this node does not serve.
func (s *Server) txByID(h ela.Hash) (*ela.Tx, ela.TxContext, *restError) {
	tx, ctx, err := s.chain.Tx(h)
	if err == nil {
		return tx, ctx, nil
	}
	if chain.KindOf(err) == chain.KindNotFound {
		if rerr := s.eidTx(h); rerr != nil {
			return nil, ctx, rerr
		}
	}
	return nil, ctx, s.chainError(err, unknownTransaction, "no transaction %s", h)
}

// eidTx is the failure of a lookup of h when h is an EID transaction the
// chain grafted an operation of (taken by a fork of EID, or loaded from an
// EID export), else nil. EID transactions are Ethereum transactions, which
// have no ELA form: the answer is ELA's 42001 "Invalid method", the code
// of a request the node does not serve, rather than 44001, which would say
// that the transaction does not exist; it says where to ask for it.
func (s *Server) eidTx(h ela.Hash) *restError {
	g, err := eidfork.GraftedTx(s.chain, h)
	switch {
	case err != nil:
		return s.chainError(err, internalError, "transaction %s", h)
	case g == nil:
		return nil
	}
	block := fmt.Sprintf("EID block %d", g.Block)
	if !g.Exact {
		block = "an EID block at or below " + strconv.FormatUint(g.Block, 10)
	}
	return fail(invalidMethod, fmt.Sprintf("transaction %s is an EID transaction (the %s of %s) taken from %s; "+
		"this node holds its operation, not the transaction, and EID transactions have no ELA form: "+
		"ask the EID node for it (eth_getTransactionByHash 0x%s)", h, g.Operation, g.Subject, block, h))
}

// mempoolJSON is the pooled transactions in full, in arrival order.
func (s *Server) mempoolJSON() []ela.TxJSON {
	pool := s.chain.Mempool()
	txs := make([]ela.TxJSON, len(pool))
	for i, tx := range pool {
		txs[i] = tx.JSON(ela.TxContext{})
	}
	return txs
}

// balance is what addr holds of an asset, a decimal string with 8 places.
func (s *Server) balance(addr ela.ProgramHash, asset ela.Hash) (string, *restError) {
	v, err := s.chain.Balance(addr, asset)
	if err != nil {
		return "", s.chainError(err, internalError, "balance of %s", addr.Address())
	}
	return v.String(), nil
}

// unspent is the unspent outputs of the addresses, in one snapshot.
func (s *Server) unspent(addrs ...ela.ProgramHash) ([]chain.UTXO, *restError) {
	all, err := s.chain.UTXOs(addrs...)
	if err != nil {
		return nil, s.chainError(err, internalError, "unspent outputs of %d address(es)", len(addrs))
	}
	return all, nil
}

// submit puts a signed transaction into the mempool, or relays it to the
// upstream on a follower, and returns its id. A transaction the chain
// refuses fails with the code of the rule it breaks (43001 for bytes that
// are not a transaction, 45xxx for the rest).
func (s *Server) submit(ctx context.Context, raw []byte) (string, *restError) {
	if s.opts.Follower != nil {
		return s.relayTx(ctx, raw)
	}
	if err := s.ensureTx(ctx, raw); err != nil {
		return "", fail(internalError, err.Error())
	}
	txid, err := s.chain.SubmitTx(raw)
	if err != nil {
		if reject, ok := errors.AsType[*chain.RejectError](err); ok {
			return "", fail(code(reject.Code), err.Error())
		}
		s.log.Error("broadcast failed", "err", err)
		return "", fail(internalError, err.Error())
	}
	return txid.String(), nil
}

// chainError maps a failed read: ErrNotFound to notFound with the detail
// format says, anything else (the store failed) to 45002.
func (s *Server) chainError(err error, notFound code, format string, args ...any) *restError {
	if chain.KindOf(err) == chain.KindNotFound {
		return fail(notFound, fmt.Sprintf(format, args...))
	}
	s.log.Error("read failed", "err", err)
	return fail(internalError, err.Error())
}
