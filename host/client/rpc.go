package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/didlight/didlight/core/jsonrpc"
)

// RPCError is an error answer of the JSON-RPC API.
type RPCError struct {
	URL     string
	Code    int
	Message string
	Data    any
}

func (e *RPCError) Error() string {
	if e.Data != nil {
		return fmt.Sprintf("node answered error %d: %s (%v)", e.Code, e.Message, e.Data)
	}
	return fmt.Sprintf("node answered error %d: %s", e.Code, e.Message)
}

// Call calls a JSON-RPC method and returns its result, raw.
func (c *Client) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	if err != nil {
		return nil, fmt.Errorf("client: %s params: %w", method, err)
	}
	b, err := c.do(ctx, http.MethodPost, c.rpc, body)
	if err != nil {
		return nil, err
	}
	var resp struct {
		Result json.RawMessage `json:"result"`
		Error  *jsonrpc.Error  `json:"error"`
	}
	if err := json.Unmarshal(b, &resp); err != nil {
		return nil, &UnreachableError{URL: c.rpc, Err: fmt.Errorf("the answer is not JSON-RPC: %.200s", b)}
	}
	if resp.Error != nil {
		return nil, &RPCError{URL: c.rpc, Code: resp.Error.Code, Message: resp.Error.Message, Data: resp.Error.Data}
	}
	if len(resp.Result) == 0 || string(resp.Result) == "null" {
		return nil, &UnreachableError{URL: c.rpc, Err: fmt.Errorf("the answer has neither result nor error: %.200s", b)}
	}
	return resp.Result, nil
}

// Resolve calls resolvedid and returns the result object, raw, as
// core/resolve.Verify reads it.
func (c *Client) Resolve(ctx context.Context, did string, all bool) (json.RawMessage, error) {
	return c.Call(ctx, "resolvedid", map[string]any{"did": did, "all": all})
}

// Query holds the parameters of the query method: exactly one of Service,
// Credential and Condition.
type Query struct {
	Service    string `json:"service,omitempty"`
	Credential string `json:"credential,omitempty"`
	Condition  string `json:"query,omitempty"`
	Skip       int    `json:"skip,omitempty"`
	Limit      int    `json:"limit,omitempty"`
}

// QueryDIDs calls query and returns the result object, raw.
func (c *Client) QueryDIDs(ctx context.Context, q Query) (json.RawMessage, error) {
	return c.Call(ctx, "query", q)
}
