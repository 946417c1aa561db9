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

// Call calls a JSON-RPC method and returns its result, raw: the JSON null
// when the node answered "result": null (listunspent does, for no outputs).
// params may be an object of named parameters or a list of positional ones.
func (c *Client) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	if err != nil {
		return nil, fmt.Errorf("client: %s params: %w", method, err)
	}
	b, err := c.do(ctx, http.MethodPost, c.rpc, body)
	if err != nil {
		return nil, err
	}
	// By member, so that "result": null tells from no result; the Elastos
	// nodes send both members, the one that does not apply as null.
	var resp map[string]json.RawMessage
	if err := json.Unmarshal(b, &resp); err != nil {
		return nil, &UnreachableError{URL: c.rpc, Err: fmt.Errorf("the answer is not JSON-RPC: %.200s", b)}
	}
	if raw := resp["error"]; len(raw) > 0 && string(raw) != "null" {
		var e jsonrpc.Error
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, &UnreachableError{URL: c.rpc, Err: fmt.Errorf("the answer's error is not a JSON-RPC error: %.200s", raw)}
		}
		return nil, &RPCError{URL: c.rpc, Code: e.Code, Message: e.Message, Data: e.Data}
	}
	result, ok := resp["result"]
	if !ok {
		return nil, &UnreachableError{URL: c.rpc, Err: fmt.Errorf("the answer has neither result nor error: %.200s", b)}
	}
	return result, nil
}

// Resolve calls resolvedid and returns the result object, raw, as
// core/resolve.Verify reads it.
func (c *Client) Resolve(ctx context.Context, did string, all bool) (json.RawMessage, error) {
	return c.callObject(ctx, "resolvedid", map[string]any{"did": did, "all": all})
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
	return c.callObject(ctx, "query", q)
}

// callObject is Call for a method whose result is never null.
func (c *Client) callObject(ctx context.Context, method string, params any) (json.RawMessage, error) {
	r, err := c.Call(ctx, method, params)
	if err == nil && string(r) == "null" {
		return nil, &UnreachableError{URL: c.rpc, Err: fmt.Errorf("%s answered null", method)}
	}
	return r, err
}
