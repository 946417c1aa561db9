package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/excerpt"
	"github.com/didlight/didlight/core/jsonrpc"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/devnet"
	"github.com/didlight/didlight/host/internal/wire"
)

// Devnet controls, as local chains offer them: mine blocks now, move the
// chain clock forward or set the next block's time, reset the chain to a
// genesis time, take a snapshot and revert to it. Each takes its params by
// name, or by position as the Anvil and Hardhat method it mirrors does
// (controlArgs); evm.go serves those methods' own names. A node that is
// not a devnet does not serve them.

// codeServerError is the JSON-RPC code of a devnet control that failed.
const codeServerError = -32000

// maxIncrease bounds one dev_increaseTime step: block times are 32-bit Unix
// seconds, which end in 2106.
const maxIncrease = 50 * 365 * 24 * 3600

// timeAnswer is what the clock controls answer: a time, Unix seconds.
type timeAnswer struct {
	Time int64 `json:"time"`
}

// devMine answers dev_mine: [blocks, interval] or {blocks, interval}, as
// anvil_mine takes them, both optional: that many blocks (1 if not given),
// each after the first stamped interval seconds after the one before if
// given. It answers the last block's {height, hash}.
func (s *Server) devMine(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	a, err := s.controlArgs("dev_mine", params, "blocks", "interval")
	if err != nil {
		return nil, err
	}
	b, err := s.mineBlocks(ctx, a)
	if err != nil {
		return nil, err
	}
	return wire.Block{Height: b.Header.Height, Hash: b.Hash().String()}, nil
}

// mineBlocks mines the blocks a asks for (blocks, interval).
func (s *Server) mineBlocks(ctx context.Context, a args) (*ela.Block, *jsonrpc.Error) {
	blocks, given, err := a.quantity("blocks", math.MaxUint32)
	if err != nil {
		return nil, err
	}
	if !given {
		blocks = 1
	}
	if blocks < 1 || blocks > devnet.MaxMineBlocks {
		return nil, jsonrpc.InvalidParams(fmt.Sprintf("blocks must be a whole number from 1 to %d", devnet.MaxMineBlocks))
	}
	interval, _, err := a.quantity("interval", maxIncrease)
	if err != nil {
		return nil, err
	}
	b, cerr := devnet.MineBlocks(ctx, s.chain, int(blocks), time.Duration(interval)*time.Second)
	if cerr != nil {
		return nil, controlFailure("mining", cerr)
	}
	return b, nil
}

// controlFailure reports a control the chain refused: a time or a snapshot
// it cannot take as invalid params, anything else as a server error doing
// what.
func controlFailure(what string, err error) *jsonrpc.Error {
	if chain.KindOf(err) == chain.KindInvalid {
		return jsonrpc.InvalidParams(err.Error())
	}
	return jsonrpc.Errorf(codeServerError, "Server error", "%s failed: %v", what, err)
}

// devIncreaseTime answers dev_increaseTime [seconds] or {seconds}, N > 0:
// it moves the chain clock N seconds forward and mines a block stamped
// with it; {time} is the chain time afterwards, in Unix seconds. Later
// blocks are stamped from it, and expiry is judged against it.
func (s *Server) devIncreaseTime(_ context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	a, err := s.controlArgs("dev_increaseTime", params, "seconds")
	if err != nil {
		return nil, err
	}
	d, err := a.increase()
	if err != nil {
		return nil, err
	}
	t, cerr := devnet.IncreaseTime(s.chain, d)
	if cerr != nil {
		return nil, controlFailure("moving the chain time", cerr)
	}
	return timeAnswer{t.Unix()}, nil
}

// increase reads the seconds param of an increase of the chain time.
func (a args) increase() (time.Duration, *jsonrpc.Error) {
	const name = "seconds"
	if _, err := a.required(name, wantQuantity); err != nil {
		return 0, err
	}
	n, _, err := a.quantity(name, math.MaxUint64)
	if err != nil {
		return 0, err
	}
	if n < 1 || n > maxIncrease {
		return 0, jsonrpc.InvalidParams(fmt.Sprintf("seconds must be a whole number from 1 to %d", maxIncrease))
	}
	return time.Duration(n) * time.Second, nil
}

// devSetNextBlockTime answers dev_setNextBlockTime [T] or {time: T}, T an
// RFC 3339 time or Unix seconds after the tip's time: {time} is T in Unix
// seconds. The next block carries T exactly, later ones T plus the time
// elapsed since; no block is made.
func (s *Server) devSetNextBlockTime(_ context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	a, err := s.controlArgs("dev_setNextBlockTime", params, "time")
	if err != nil {
		return nil, err
	}
	next, err := s.setNextBlockTime(a)
	if err != nil {
		return nil, err
	}
	return timeAnswer{next.Unix()}, nil
}

// setNextBlockTime sets the time the next block carries to a's time.
func (s *Server) setNextBlockTime(a args) (time.Time, *jsonrpc.Error) {
	t, given, err := a.time("time")
	if err != nil {
		return time.Time{}, err
	}
	if !given {
		return time.Time{}, jsonrpc.InvalidParams("time is missing: want an RFC 3339 time or Unix seconds")
	}
	next, cerr := devnet.SetNextBlockTime(s.chain, t)
	if cerr != nil {
		return time.Time{}, controlFailure("setting the next block time", cerr)
	}
	return next, nil
}

// devReset answers dev_reset, with no params, [T] or {time: T}: it wipes
// the chain back to its genesis block, begun at T (an RFC 3339 time or
// Unix seconds) if given, else where it began. {height, hash, time}
// describe the genesis block.
func (s *Server) devReset(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	a, err := s.controlArgs("dev_reset", params, "time")
	if err != nil {
		return nil, err
	}
	at, _, err := a.time("time")
	if err != nil {
		return nil, err
	}
	if cerr := s.resetAt(ctx, at); cerr != nil {
		return nil, controlFailure("reset", cerr)
	}
	b, _, cerr := s.chain.BlockByHeight(0)
	if cerr != nil {
		return nil, jsonrpc.Errorf(codeServerError, "Server error", "reading the genesis block: %v", cerr)
	}
	return struct {
		wire.Block
		Time int64 `json:"time"`
	}{wire.Block{Height: 0, Hash: b.Hash().String()}, int64(b.Header.Timestamp)}, nil
}

// devSnapshot answers dev_snapshot (no params): {id}, the snapshot's id as
// a hex string ("0x1", as Anvil and Hardhat name theirs), which dev_revert
// takes.
func (s *Server) devSnapshot(_ context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	id, err := s.snapshot("dev_snapshot", params)
	if err != nil {
		return nil, err
	}
	return struct {
		ID string `json:"id"`
	}{id}, nil
}

// snapshot takes a snapshot for method, which takes no params, and
// returns its id as a hex quantity.
func (s *Server) snapshot(method string, params json.RawMessage) (string, *jsonrpc.Error) {
	if _, err := s.controlArgs(method, params); err != nil {
		return "", err
	}
	id, err := devnet.Snapshot(s.chain)
	if err != nil {
		return "", jsonrpc.Errorf(codeServerError, "Server error", "snapshot failed: %v", err)
	}
	return "0x" + strconv.FormatUint(id, 16), nil
}

// devRevert answers dev_revert [id] or {id}: the chain, its mempool,
// indexes and clock go back to snapshot id (a hex string "0x…" or a
// number), which is kept, with the earlier ones; the later ones are
// dropped. {height, hash} name the tip then. An unknown id is refused
// with -32602, and nothing changes.
func (s *Server) devRevert(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	id, reverted, err := s.revert(ctx, "dev_revert", params)
	switch {
	case err != nil:
		return nil, err
	case !reverted:
		return nil, jsonrpc.InvalidParams(fmt.Sprintf("no snapshot 0x%x: never taken, or dropped by a revert to an earlier one", id))
	}
	height, hash, _ := s.chain.Tip()
	return wire.Block{Height: height, Hash: hash.String()}, nil
}

// revert reverts the chain to the snapshot method's params name, and
// reports whether there is one by that id: a revert to an unknown id
// changes nothing, and each method answers it in its own way.
func (s *Server) revert(ctx context.Context, method string, params json.RawMessage) (id uint64, reverted bool, err *jsonrpc.Error) {
	a, err := s.controlArgs(method, params, "id")
	if err != nil {
		return 0, false, err
	}
	if id, err = parseSnapshotID(a["id"]); err != nil {
		return 0, false, err
	}
	cerr := devnet.Revert(ctx, s.chain, id)
	if errors.Is(cerr, devnet.ErrUnknownSnapshot) {
		return id, false, nil
	}
	if cerr != nil {
		return id, false, jsonrpc.Errorf(codeServerError, "Server error", "revert failed: %v", cerr)
	}
	return id, true, nil
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
		return devnet.Reset(ctx, s.chain)
	}
	return devnet.ResetAt(ctx, s.chain, at)
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
// number of Unix seconds, in decimal or as a hex quantity ("0x…").
func parseTime(text string) (time.Time, error) {
	if secs, err := strconv.ParseInt(text, 10, 64); err == nil {
		return time.Unix(secs, 0).UTC(), nil
	}
	if hex, ok := strings.CutPrefix(text, "0x"); ok { // a hex quantity, as Anvil and Hardhat take timestamps
		if secs, err := strconv.ParseInt(hex, 16, 64); err == nil {
			return time.Unix(secs, 0).UTC(), nil
		}
	}
	t, err := time.Parse(time.RFC3339, text)
	if err != nil {
		return time.Time{}, fmt.Errorf("time %s is neither an RFC 3339 time such as 2025-06-01T00:00:00Z nor whole Unix seconds", excerpt.Quote(text))
	}
	return t.UTC().Truncate(time.Second), nil
}

// controlArgs refuses the control name on a node that is not a devnet,
// and reads its params: by name, by position in names (the form Anvil's
// and Hardhat's methods take), or as an array holding one object of them
// by name.
func (s *Server) controlArgs(name string, params json.RawMessage, names ...string) (args, *jsonrpc.Error) {
	if !s.chain.Devnet() {
		return nil, jsonrpc.Errorf(jsonrpc.CodeMethodNotFound, "Method not found", "%s is served by devnet nodes only", name)
	}
	if obj, ok := soleObject(params); ok && len(names) > 0 {
		params = obj
	}
	return readArgs(params, names...)
}

// soleObject returns the object params holds if it is an array of one
// object.
func soleObject(params json.RawMessage) (json.RawMessage, bool) {
	var list []json.RawMessage
	params = bytes.TrimSpace(params)
	if len(params) == 0 || params[0] != '[' || json.Unmarshal(params, &list) != nil || len(list) != 1 {
		return nil, false
	}
	obj := bytes.TrimSpace(list[0])
	return obj, len(obj) > 0 && obj[0] == '{'
}
