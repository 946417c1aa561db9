package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/jsonrpc"
	"github.com/didlight/didlight/host/internal/wire"
)

// The reads a follower makes: blocks with their transactions in full,
// their confirms, block hashes and the node state.

// BlockHash returns the hash of the node's block at height.
func (c *Client) BlockHash(ctx context.Context, height uint32) (ela.Hash, error) {
	var s string
	if err := c.get(ctx, fmt.Sprintf("/block/hash/%d", height), &s); err != nil {
		return ela.Hash{}, err
	}
	h, err := ela.ParseHash(s)
	if err != nil {
		return h, fmt.Errorf("client: block hash at height %d: %w", height, err)
	}
	return h, nil
}

// Block returns the node's block at height with its transactions in full,
// as the REST API shows it; BlockJSON.Block rebuilds the binary block.
func (c *Client) Block(ctx context.Context, height uint32) (*ela.BlockJSON, error) {
	var b ela.BlockJSON
	if err := c.get(ctx, fmt.Sprintf("/block/details/height/%d", height), &b); err != nil {
		return nil, err
	}
	return &b, nil
}

// Confirm returns the DPoS confirm of the node's block at height. Its
// endpoint answers a JSON-RPC style envelope: an error there is an
// *RPCError.
func (c *Client) Confirm(ctx context.Context, height uint32) (*ela.ConfirmJSON, error) {
	u := fmt.Sprintf("%s/confirm/details/height/%d", c.rest, height)
	b, err := c.do(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	var env struct {
		Result *ela.ConfirmJSON `json:"result"`
		Error  *jsonrpc.Error   `json:"error"`
	}
	if err := json.Unmarshal(b, &env); err != nil {
		return nil, fmt.Errorf("client: %s: unexpected answer %.200s: %w", u, b, err)
	}
	switch {
	case env.Error != nil:
		return nil, &RPCError{URL: u, Code: env.Error.Code, Message: env.Error.Message, Data: env.Error.Data}
	case env.Result == nil:
		return nil, &UnreachableError{URL: u, Err: fmt.Errorf("the answer has neither result nor error: %.200s", b)}
	}
	return env.Result, nil
}

// NodeState is the node state (GET /node/state), its neighbors left raw.
// Light is what a light node (didlight node --light) says of itself; nil
// for a node with a chain of its own.
type NodeState = wire.NodeState[json.RawMessage, *LightState]

// LightState is what a light node's state says of the upstream it asks:
// its head, at which the node verified its answers.
type LightState struct {
	Mode string `json:"Mode"`
	Head *struct {
		Height uint64    `json:"Height"`
		Time   time.Time `json:"Time"`
	} `json:"Head"`
}

// State returns the node's state.
func (c *Client) State(ctx context.Context) (*NodeState, error) {
	var s NodeState
	if err := c.get(ctx, "/node/state", &s); err != nil {
		return nil, err
	}
	return &s, nil
}
