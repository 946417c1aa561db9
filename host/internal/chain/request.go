package chain

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/core/spend"
)

// devSpread is how many unspent outputs the dev account keeps for
// SubmitRequest: while it has fewer, each funding transaction splits its
// change in two, so that concurrent requests find outputs to spend.
const devSpread = 16

// SubmitRequest wraps an identity request in a transaction funded by the
// dev account (paying the minimum fee), submits it, and waits until it is
// in a block or ctx ends. A request the chain refuses gets a *RejectError
// (code 45009, wrapping the *idop.RuleError); a request evicted from the
// mempool before its block, or pending when the chain is reset, gets that
// error. Each refusal is counted (Counts). Someone must produce blocks (Run, Mine) for it to return.
func (c *Chain) SubmitRequest(ctx context.Context, req idop.Request) (ela.Hash, error) {
	return c.submitRequest(ctx, req, nil)
}

// Epoch returns the chain's epoch, which each reset and each revert moves
// on: what the chain holds in one epoch is not taken back before the next.
func (c *Chain) Epoch() uint64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.epoch
}

// SubmitRequestIn is SubmitRequest for a caller that publishes on the
// chain as it was in epoch (Epoch), such as a task seeding it: once a
// reset or a revert has moved the chain on, the request is not admitted
// and gets ErrReset, as it would had it been pending then.
func (c *Chain) SubmitRequestIn(ctx context.Context, epoch uint64, req idop.Request) (ela.Hash, error) {
	return c.submitRequest(ctx, req, &epoch)
}

// submitRequest is SubmitRequest, in epoch if it is not nil, its answer
// counted.
func (c *Chain) submitRequest(ctx context.Context, req idop.Request, epoch *uint64) (ela.Hash, error) {
	txid, err := c.publish(ctx, req, epoch)
	c.counts.answered(err)
	return txid, err
}

// publish admits req in a transaction funded by the dev account, in epoch
// if it is not nil, and waits for its block.
func (c *Chain) publish(ctx context.Context, req idop.Request, epoch *uint64) (ela.Hash, error) {
	if err := req.Check(); err != nil {
		return ela.Hash{}, reject(ledger.Payload, err)
	}
	for {
		if epoch != nil && c.Epoch() != *epoch {
			return ela.Hash{}, ErrReset
		}
		e, err := c.fundAndAdmit(ctx, req, epoch)
		if err != nil {
			return ela.Hash{}, err
		}
		if e == nil {
			continue // the dev output was spent meanwhile: fund again
		}
		select {
		case err := <-e.Done:
			return e.txid, err
		case <-ctx.Done():
			return e.txid, ctx.Err()
		}
	}
}

// fundAndAdmit builds the transaction carrying req on a dev output that
// no pooled transaction spends and no other request has claimed, waiting
// for a block when there is none, and admits it. It returns nil when
// another transaction spent the output first.
func (c *Chain) fundAndAdmit(ctx context.Context, req idop.Request, epoch *uint64) (*entry, error) {
	tip, stop := c.Subscribe()
	defer stop()
	for {
		tx, coin, err := c.fund(req)
		if err != nil {
			return nil, err
		}
		if tx != nil {
			e, err := c.admit(tx.Bytes(), epoch)
			c.pool.Unclaim(ela.Input{TxID: coin.Txid, Index: coin.Index})
			if r, ok := errors.AsType[*RejectError](err); ok && r.Code == int(ledger.DoubleSpend) {
				return nil, nil
			}
			return e, err
		}
		select {
		case _, ok := <-tip:
			if !ok {
				return nil, errClosed
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// fund returns the signed transaction carrying req, spending the oldest
// dev output that pays the fee and is neither spent by a pooled
// transaction nor claimed by another request, which it claims for the
// caller to release (mempool.Pool.Unclaim); or a nil transaction when there is
// none.
func (c *Chain) fund(req idop.Request) (*ela.Tx, UTXO, error) {
	all, err := c.UTXOs(c.dev.ProgramHash)
	if err != nil {
		return nil, UTXO{}, err
	}
	outputs := slices.DeleteFunc(all, func(u UTXO) bool { return u.Asset != c.params.Asset })
	coins := make([]spend.Coin, len(outputs))
	for i, u := range outputs {
		coins[i] = spend.Coin{Txid: u.Txid, Index: u.Index, Value: u.Value}
	}
	i, free, busy := c.pool.Claim(coins, c.params.MinFee)
	switch {
	case i < 0 && busy == 0:
		return nil, UTXO{}, fmt.Errorf("chain: the dev account %s has no output left that pays the fee", c.dev.Address)
	case i < 0:
		return nil, UTXO{}, nil
	}
	coin := outputs[i]
	order := spend.Order{
		From:  c.dev.ProgramHash,
		Coins: []spend.Coin{coins[i]},
		Asset: c.params.Asset,
		Fee:   c.params.MinFee,
		Payload: &ela.Operation{
			Header:  ela.OperationHeader(req.Header),
			Payload: req.Payload,
			Proof:   ela.OperationProof(req.Proof),
		},
	}
	if change := coin.Value - c.params.MinFee; free < devSpread && change >= 2*ela.OneELA {
		// Half the change as a payment to the dev account, the rest as
		// change: one more output for concurrent requests to spend.
		order.To = []spend.Payment{{To: c.dev.ProgramHash, Amount: change / 2}}
	}
	tx, err := spend.Build(order)
	if err != nil {
		c.pool.Unclaim(ela.Input{TxID: coin.Txid, Index: coin.Index})
		return nil, UTXO{}, err
	}
	tx.SignStandard(c.dev.PrivateKey)
	return tx, coin, nil
}
