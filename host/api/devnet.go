package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/didlight/didlight/core/jsonrpc"
)

// Devnet controls, as local chains offer them: mine a block now, move the
// chain clock forward. A node that is not a devnet does not serve them.

// devMine answers dev_mine (no params, or an empty object): {height, hash}
// of the block mined, empty if the mempool was.
func (s *Server) devMine(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	if err := s.devnetOnly("dev_mine", params, &struct{}{}); err != nil {
		return nil, err
	}
	b, err := s.chain.Mine(ctx)
	if err != nil {
		return nil, jsonrpc.Errorf(codeServerError, "Server error", "mining failed: %v", err)
	}
	return struct {
		Height uint32 `json:"height"`
		Hash   string `json:"hash"`
	}{b.Header.Height, b.Hash().String()}, nil
}

// codeServerError is the JSON-RPC code of a devnet control that failed.
const codeServerError = -32000

// maxIncrease bounds one dev_increaseTime step: block times are 32-bit Unix
// seconds, which end in 2106.
const maxIncrease = 50 * 365 * 24 * 3600

// devIncreaseTime answers dev_increaseTime {seconds: N > 0}: {time} is the
// chain time afterwards, in Unix seconds. Later blocks are stamped with it,
// and expiry is judged against it.
func (s *Server) devIncreaseTime(_ context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	var p struct {
		Seconds *int64 `json:"seconds"`
	}
	if err := s.devnetOnly("dev_increaseTime", params, &p); err != nil {
		return nil, err
	}
	if p.Seconds == nil || *p.Seconds <= 0 || *p.Seconds > maxIncrease {
		return nil, jsonrpc.InvalidParams(fmt.Sprintf("seconds must be a whole number from 1 to %d", maxIncrease))
	}
	t, err := s.chain.IncreaseTime(time.Duration(*p.Seconds) * time.Second)
	if err != nil {
		return nil, jsonrpc.Errorf(codeServerError, "Server error", "moving the chain time failed: %v", err)
	}
	return struct {
		Time int64 `json:"time"`
	}{t.Unix()}, nil
}

// devnetOnly refuses name on a node that is not a devnet, and decodes its
// params into v; a call without params is an empty object.
func (s *Server) devnetOnly(name string, params json.RawMessage, v any) *jsonrpc.Error {
	if !s.chain.Devnet() {
		return jsonrpc.Errorf(jsonrpc.CodeMethodNotFound, "Method not found", "%s is served by devnet nodes only", name)
	}
	switch string(bytes.TrimSpace(params)) {
	case "", "null", "[]":
		return nil
	}
	return jsonrpc.DecodeParams(params, v)
}
