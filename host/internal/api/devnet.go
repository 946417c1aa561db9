package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/didlight/didlight/core/excerpt"
	"github.com/didlight/didlight/core/jsonrpc"
	"github.com/didlight/didlight/host/internal/chain"
)

// Devnet controls, as local chains offer them: mine a block now, move the
// chain clock forward or set the next block's time, reset the chain to a
// genesis time, take a snapshot and revert to it. A node that is not a
// devnet does not serve them.

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

// devSetNextBlockTime answers dev_setNextBlockTime {time: T}, T an RFC
// 3339 time or Unix seconds after the tip's time: {time} is T in Unix
// seconds. The next block carries T exactly, later ones T plus the time
// elapsed since; no block is made.
func (s *Server) devSetNextBlockTime(_ context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	var p struct {
		Time json.RawMessage `json:"time"`
	}
	if err := s.devnetOnly("dev_setNextBlockTime", params, &p); err != nil {
		return nil, err
	}
	if p.Time == nil {
		return nil, jsonrpc.InvalidParams("time is missing: want an RFC 3339 time or Unix seconds")
	}
	t, perr := parseTimeParam(p.Time)
	if perr != nil {
		return nil, perr
	}
	next, err := s.chain.SetNextBlockTime(t)
	if err != nil && chain.KindOf(err) == chain.KindInvalid {
		return nil, jsonrpc.InvalidParams(err.Error())
	}
	if err != nil {
		return nil, jsonrpc.Errorf(codeServerError, "Server error", "setting the next block time failed: %v", err)
	}
	return struct {
		Time int64 `json:"time"`
	}{next.Unix()}, nil
}

// devReset answers dev_reset, with no params or {time: T}: it wipes the
// chain back to its genesis block, begun at T (an RFC 3339 time or Unix
// seconds) if given, else where it began. {height, hash, time} describe
// the genesis block.
func (s *Server) devReset(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	var p struct {
		Time json.RawMessage `json:"time"`
	}
	if err := s.devnetOnly("dev_reset", params, &p); err != nil {
		return nil, err
	}
	var at time.Time
	if p.Time != nil {
		var perr *jsonrpc.Error
		if at, perr = parseTimeParam(p.Time); perr != nil {
			return nil, perr
		}
	}
	err := s.resetAt(ctx, at)
	if err != nil && chain.KindOf(err) == chain.KindInvalid {
		return nil, jsonrpc.InvalidParams(err.Error())
	}
	if err != nil {
		return nil, jsonrpc.Errorf(codeServerError, "Server error", "reset failed: %v", err)
	}
	b, _, err := s.chain.BlockByHeight(0)
	if err != nil {
		return nil, jsonrpc.Errorf(codeServerError, "Server error", "reading the genesis block: %v", err)
	}
	return struct {
		Height uint32 `json:"height"`
		Hash   string `json:"hash"`
		Time   int64  `json:"time"`
	}{0, b.Hash().String(), int64(b.Header.Timestamp)}, nil
}

// devSnapshot answers dev_snapshot (no params): {id}, the snapshot's id as
// a hex string ("0x1", as Anvil and Hardhat name theirs), which dev_revert
// takes.
func (s *Server) devSnapshot(_ context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	if err := s.devnetOnly("dev_snapshot", params, &struct{}{}); err != nil {
		return nil, err
	}
	id, err := s.chain.Snapshot()
	if err != nil {
		return nil, jsonrpc.Errorf(codeServerError, "Server error", "snapshot failed: %v", err)
	}
	return struct {
		ID string `json:"id"`
	}{"0x" + strconv.FormatUint(id, 16)}, nil
}

// devRevert answers dev_revert {id}: the chain, its mempool, indexes and
// clock go back to snapshot id (a hex string "0x…" or a number), which is
// dropped with every later one; {height, hash} name the tip then. An
// unknown id is refused with -32602, and nothing changes.
func (s *Server) devRevert(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	var p struct {
		ID json.RawMessage `json:"id"`
	}
	if err := s.devnetOnly("dev_revert", params, &p); err != nil {
		return nil, err
	}
	id, perr := parseSnapshotID(p.ID)
	if perr != nil {
		return nil, perr
	}
	err := s.chain.Revert(ctx, id)
	if err != nil && chain.KindOf(err) == chain.KindInvalid {
		return nil, jsonrpc.InvalidParams(fmt.Sprintf("no snapshot 0x%x: never taken, or dropped by a revert to it or to an earlier one", id))
	}
	if err != nil {
		return nil, jsonrpc.Errorf(codeServerError, "Server error", "revert failed: %v", err)
	}
	height, hash, _ := s.chain.Tip()
	return struct {
		Height uint32 `json:"height"`
		Hash   string `json:"hash"`
	}{height, hash.String()}, nil
}

// parseSnapshotID reads the id param of dev_revert: "0x" and hex digits,
// as dev_snapshot gives it, or a whole number.
func parseSnapshotID(raw json.RawMessage) (uint64, *jsonrpc.Error) {
	if raw == nil {
		return 0, jsonrpc.InvalidParams("id is missing: want the id dev_snapshot gave, such as \"0x1\"")
	}
	text := string(bytes.TrimSpace(raw))
	if json.Unmarshal(raw, &text) == nil {
		if hex, ok := strings.CutPrefix(strings.ToLower(text), "0x"); ok {
			if id, err := strconv.ParseUint(hex, 16, 64); err == nil {
				return id, nil
			}
		}
	} else if id, err := strconv.ParseUint(text, 10, 64); err == nil {
		return id, nil
	}
	return 0, jsonrpc.InvalidParams(fmt.Sprintf("id %s is not a snapshot id: want the id dev_snapshot gave, such as \"0x1\"", excerpt.Quote(text)))
}

// resetAt resets the chain to a genesis time, zero for where it began.
func (s *Server) resetAt(ctx context.Context, at time.Time) error {
	if at.IsZero() {
		return s.chain.Reset(ctx)
	}
	return s.chain.ResetAt(ctx, at)
}

// parseTimeParam reads the time param of a devnet control: an RFC 3339
// string or a whole number of Unix seconds (parseTime).
func parseTimeParam(raw json.RawMessage) (time.Time, *jsonrpc.Error) {
	text := string(bytes.TrimSpace(raw))
	if json.Unmarshal(raw, &text) != nil && (text == "" || text[0] == '"') {
		return time.Time{}, jsonrpc.InvalidParams("time is not a JSON string or number")
	}
	t, err := parseTime(text)
	if err != nil {
		return time.Time{}, jsonrpc.InvalidParams(err.Error())
	}
	return t, nil
}

// parseTime reads a time a devnet control is given: RFC 3339 (a fraction
// of a second is dropped, block times being whole seconds) or a whole
// number of Unix seconds.
func parseTime(text string) (time.Time, error) {
	if secs, err := strconv.ParseInt(text, 10, 64); err == nil {
		return time.Unix(secs, 0).UTC(), nil
	}
	t, err := time.Parse(time.RFC3339, text)
	if err != nil {
		return time.Time{}, fmt.Errorf("time %s is neither an RFC 3339 time such as 2025-06-01T00:00:00Z nor whole Unix seconds", excerpt.Quote(text))
	}
	return t.UTC().Truncate(time.Second), nil
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
