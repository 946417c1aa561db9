package api

import (
	"context"
	"encoding/json"

	"github.com/didlight/didlight/core/jsonrpc"
	"github.com/didlight/didlight/host/internal/devnet"
)

// The devnet controls under the names of the Ethereum devnets' test
// helpers (Hardhat, Anvil, ganache), which test suites call with params by
// position, answered with the shapes those nodes give their results. Where
// they differ, Anvil's shape is taken (docs/devnet.md lists each).

// evmSnapshot answers evm_snapshot []: the snapshot's id, a hex quantity
// string ("0x1").
func (s *Server) evmSnapshot(_ context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	return s.snapshot("evm_snapshot", params)
}

// evmRevert answers evm_revert [id]: true once the chain is back at
// snapshot id (which stays, as dev_revert keeps it), false for an id that
// names no snapshot, which changes nothing.
func (s *Server) evmRevert(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	_, reverted, err := s.revert(ctx, "evm_revert", params)
	if err != nil {
		return nil, err
	}
	return reverted, nil
}

// evmMine answers evm_mine [], [timestamp] (Hardhat) or [{timestamp,
// blocks}] (Anvil): the blocks asked for (one if not said), the first
// stamped timestamp if given. It answers "0x0", as both do.
func (s *Server) evmMine(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	a, err := s.controlArgs("evm_mine", params, "timestamp", "blocks")
	if err != nil {
		return nil, err
	}
	if t, ok := a["timestamp"]; ok {
		if _, err := s.setNextBlockTime(args{"time": t}); err != nil {
			return nil, err
		}
	}
	if _, err := s.mineBlocks(ctx, a); err != nil {
		return nil, err
	}
	return "0x0", nil
}

// evmIncreaseTime answers evm_increaseTime [seconds]: the chain clock moves
// forward without a block (the next block carries the new time), and the
// answer is how far the chain's time is then ahead of the wall clock, in
// seconds, a number (Anvil and ganache; Hardhat answers its decimal string).
func (s *Server) evmIncreaseTime(_ context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	a, err := s.controlArgs("evm_increaseTime", params, "seconds")
	if err != nil {
		return nil, err
	}
	d, err := a.increase()
	if err != nil {
		return nil, err
	}
	lead, cerr := devnet.MoveClock(s.chain, d)
	if cerr != nil {
		return nil, controlFailure("moving the chain time", cerr)
	}
	return int64(lead.Seconds()), nil
}

// evmSetNextBlockTimestamp answers evm_setNextBlockTimestamp [time]: the
// next block carries time (Unix seconds, decimal or a hex quantity, or RFC
// 3339). It answers null, as Anvil does (Hardhat answers the time as a
// decimal string).
func (s *Server) evmSetNextBlockTimestamp(_ context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	a, err := s.controlArgs("evm_setNextBlockTimestamp", params, "time")
	if err != nil {
		return nil, err
	}
	if _, err := s.setNextBlockTime(a); err != nil {
		return nil, err
	}
	return json.RawMessage("null"), nil
}
