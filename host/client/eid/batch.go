package eid

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/didlight/didlight/core/did/sdkjson"
	"github.com/didlight/didlight/core/excerpt"
	"github.com/didlight/didlight/host/client"
)

// A JSON-RPC batch is a list of requests in one HTTP request, answered by
// a list of their answers in any order (JSON-RPC 2.0, section 6).
// go-ethereum's server answers them since 1.9 (rpc/handler.go,
// handleBatch), and EID is built on 1.9.7; its answer to a batch of n is
// read up to Config.MaxAnswer like any other. A batch counts as n requests
// of the budget.

// batch calls method once for each element of params in one batch and
// returns the results in params' order, once check (nil: none) accepts
// each. It asks the endpoints as call does; one element answered with an
// error fails the batch with that error.
func (c *Client) batch(ctx context.Context, method, subject string, params []any, check func(i int, raw json.RawMessage) error) ([]json.RawMessage, error) {
	ps := make([]json.RawMessage, len(params))
	for i, p := range params {
		var err error
		if ps[i], err = json.Marshal(p); err != nil {
			return nil, fmt.Errorf("eid: %s params: %w", method, err)
		}
	}
	var results []json.RawMessage
	err := c.retry(ctx, method, subject, len(ps), func(ctx context.Context, e *endpoint) *attempt {
		rs, a := c.t.batch(ctx, e.url, method, ps)
		if a != nil {
			return a
		}
		for i, raw := range rs {
			if check == nil {
				break
			}
			if err := check(i, raw); err != nil {
				return &attempt{err: &client.UnreachableError{URL: e.url, Err: fmt.Errorf("%s %s answered %s: %w", method, ps[i], excerpt.Bytes(raw), err)}}
			}
		}
		results = rs
		return nil
	})
	return results, err
}

// batch sends method once for each of params to url in one request and
// returns the results in params' order.
func (t *transport) batch(ctx context.Context, url, method string, params []json.RawMessage) ([]json.RawMessage, *attempt) {
	if len(params) == 0 {
		return nil, nil
	}
	reqs := make([]request, len(params))
	ids := make([]string, len(params))
	for i, p := range params {
		ids[i] = newID()
		reqs[i] = request{JSONRPC: "2.0", ID: ids[i], Method: method, Params: p}
	}
	body, err := json.Marshal(reqs)
	if err != nil {
		return nil, &attempt{err: fmt.Errorf("eid: %s params: %w", method, err)}
	}
	b, a := t.post(ctx, url, body)
	if a != nil {
		return nil, a
	}
	results, err := decodeBatch(b, ids, url)
	if err != nil {
		return nil, &attempt{err: err}
	}
	return results, nil
}

// decodeBatch reads the answer to a batch of requests with ids, sent to
// url: the results in the order of ids, or the first element's
// *client.RPCError, or a *client.UnreachableError for anything else (not
// a list, an element that is not a 2.0 answer, an id missing, unknown or
// answered twice).
func decodeBatch(b []byte, ids []string, url string) ([]json.RawMessage, error) {
	garbled := func(format string, args ...any) error {
		return &client.UnreachableError{URL: url, Err: fmt.Errorf(format, args...)}
	}
	at := make(map[string]int, len(ids))
	for i, id := range ids {
		at[id] = i
	}
	results := make([]json.RawMessage, len(ids))
	var failed error
	d := sdkjson.NewDecoder(b)
	n := 0
	for el := d.Array(); el.Next() && d.Err() == nil; {
		raw := d.Raw()
		a, err := readAnswer(raw)
		if err != nil {
			return nil, garbled("%w: element %d: %s", ErrNotJSONRPC, n, excerpt.Bytes(raw))
		}
		var id string
		json.Unmarshal(a.ID, &id)
		i, ok := at[id]
		if !ok || results[i] != nil {
			return nil, garbled("%w: the batch's answer has id %s unknown or twice", ErrWrongID, excerpt.Bytes(a.ID))
		}
		r, err := a.check(raw, id, url)
		if err != nil {
			if _, rpc := err.(*client.RPCError); !rpc {
				return nil, err
			}
			if failed == nil {
				failed = err
			}
			r = json.RawMessage("null")
		}
		results[i] = r
		n++
	}
	if err := d.Finish(); err != nil {
		return nil, garbled("%w: the answer to a batch is not a list of answers: %s", ErrNotJSONRPC, excerpt.Bytes(b))
	}
	if failed != nil {
		return nil, failed
	}
	if n != len(ids) {
		return nil, garbled("%w: %d answers to a batch of %d", ErrWrongID, n, len(ids))
	}
	return results, nil
}
