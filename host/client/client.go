// Package client provides a client of the HTTP APIs of didlight and Elastos nodes.
//
// It calls a didlight (or Elastos) node over HTTP: the REST API under
// /api/v1 for balances, unspent outputs, transactions and broadcasts, the
// JSON-RPC API for resolve and query, and the chain's general JSON-RPC
// methods that every Elastos side-chain node serves ([ChainRPC]). It is what
// the command-line wallet and DID tools use.
//
// Errors say what went wrong where: *UnreachableError when no answer came
// (with the URL tried), *RESTError and *RPCError when the node answered
// with an error code.
package client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Default URLs of a local node (the ELA default ports).
const (
	DefaultREST = "http://127.0.0.1:20334"
	DefaultRPC  = "http://127.0.0.1:20336"
)

// maxAnswer caps how much of an answer is read: a block with full
// transactions is the largest (8 MB of transactions, about twice that in
// JSON).
const maxAnswer = 64 << 20

// Client calls one node. The zero value is not usable; use New.
type Client struct {
	rest string // base URL ending in /api/v1
	rpc  string
	http *http.Client
}

// New returns a client for the node whose REST API is at rest (with or
// without the /api/v1 suffix) and whose JSON-RPC API is at rpc. A nil
// httpClient means one with a 30-second timeout.
func New(rest, rpc string, httpClient *http.Client) *Client {
	if httpClient == nil {
		httpClient = &http.Client{Timeout: 30 * time.Second}
	}
	rest = strings.TrimSuffix(strings.TrimSuffix(rest, "/"), "/api/v1")
	return &Client{rest: rest + "/api/v1", rpc: rpc, http: httpClient}
}

// RESTURL returns the base URL of the REST API the client calls.
func (c *Client) RESTURL() string { return c.rest }

// RPCURL returns the URL of the JSON-RPC API the client calls.
func (c *Client) RPCURL() string { return c.rpc }

// UnreachableError is a request that got no HTTP answer, or one that is
// not the API's (another server on that port).
type UnreachableError struct {
	URL string
	Err error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("node unreachable at %s: %v (is `didlight node` running? set --rest/--rpc)", e.URL, e.Err)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// do sends a request and returns the body of a 200 answer.
func (c *Client) do(ctx context.Context, method, url string, body []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return nil, &UnreachableError{URL: url, Err: err}
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var uerr interface{ Unwrap() error }
		if errors.As(err, &uerr) && uerr.Unwrap() != nil {
			err = uerr.Unwrap() // drop the url.Error's repetition of method and URL
		}
		return nil, &UnreachableError{URL: url, Err: err}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return nil, &UnreachableError{URL: url, Err: fmt.Errorf("reading the answer: %w", err)}
	}
	if resp.StatusCode != http.StatusOK {
		return nil, &UnreachableError{URL: url, Err: fmt.Errorf("HTTP %s: %.200s", resp.Status, b)}
	}
	return b, nil
}
