package eidnode

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
)

// Client calls a node's JSON-RPC over HTTP.
type Client struct {
	URL  string
	HTTP *http.Client // nil: http.DefaultClient
	next atomic.Int64 // the id of the next request Call sends
}

// Post sends body as it is and returns the answer's body as it came.
func (c *Client) Post(ctx context.Context, body []byte) (status int, answer []byte, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	answer, err = io.ReadAll(resp.Body)
	return resp.StatusCode, answer, err
}

// RPCError is a JSON-RPC error object a node answered.
type RPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *RPCError) Error() string { return fmt.Sprintf("json-rpc error %d: %s", e.Code, e.Message) }

// Call sends a JSON-RPC 2.0 request and decodes its result into result
// (nil to drop it). An error answer is returned as *RPCError.
func (c *Client) Call(ctx context.Context, result any, method string, params ...any) error {
	if params == nil {
		params = []any{}
	}
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.next.Add(1), "method": method, "params": params})
	if err != nil {
		return err
	}
	status, answer, err := c.Post(ctx, body)
	if err != nil {
		return fmt.Errorf("eidnode: %s: %w", method, err)
	}
	var env struct {
		Result json.RawMessage `json:"result"`
		Error  *RPCError       `json:"error"`
	}
	if err := json.Unmarshal(answer, &env); err != nil {
		return fmt.Errorf("eidnode: %s: HTTP %d, answer %.200q: %w", method, status, answer, err)
	}
	if env.Error != nil {
		return env.Error
	}
	if result == nil {
		return nil
	}
	if err := json.Unmarshal(env.Result, result); err != nil {
		return fmt.Errorf("eidnode: %s: result %.200s: %w", method, env.Result, err)
	}
	return nil
}
