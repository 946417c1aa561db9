package client

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/host/internal/wire"
)

// Error codes of the node REST API that callers act on (Elastos.ELA
// servers/errors/errcode.go).
const (
	CodeUnknownTransaction = 44001
	CodeDoubleSpend        = 45010
	CodeDuplicate          = 45011
)

// RESTError is an error answer of the REST API: the ELA error code, its
// text, and the detail the node gave.
type RESTError struct {
	URL    string
	Code   int
	Desc   string
	Detail string
}

func (e *RESTError) Error() string {
	what := e.Detail // the node's own words, when it gave some
	if what == "" {
		what = e.Desc
	}
	switch e.Code {
	case CodeDoubleSpend:
		what = "double spend: an input is already spent, in the chain or by a pending transaction: " + what
	case CodeDuplicate:
		what = "the node already has this transaction: " + what
	}
	return fmt.Sprintf("node refused (%d): %s", e.Code, what)
}

// get reads the Result of a REST endpoint into v.
func (c *Client) get(ctx context.Context, path string, v any) error {
	return c.rest1(ctx, http.MethodGet, path, nil, v)
}

// rest1 calls one REST endpoint and unwraps its Desc/Error/Result envelope.
func (c *Client) rest1(ctx context.Context, method, path string, body []byte, v any) error {
	u := c.rest + path
	b, err := c.do(ctx, method, u, body)
	if err != nil {
		return err
	}
	var env wire.RESTEnvelope[*int, json.RawMessage]
	if err := json.Unmarshal(b, &env); err != nil || env.Error == nil {
		return &UnreachableError{URL: u, Err: fmt.Errorf("the answer is not a node REST envelope: %.200s", b)}
	}
	if *env.Error != 0 {
		e := &RESTError{URL: u, Code: *env.Error, Desc: env.Desc}
		json.Unmarshal(env.Result, &e.Detail) // a string when the node says more
		return e
	}
	if err := json.Unmarshal(env.Result, v); err != nil {
		return fmt.Errorf("client: %s: unexpected Result %.200s: %w", u, env.Result, err)
	}
	return nil
}

// Height returns the height of the node's chain tip.
func (c *Client) Height(ctx context.Context) (uint32, error) {
	var h uint32
	err := c.get(ctx, "/block/height", &h)
	return h, err
}

// Balance returns the ELA balance of an address.
func (c *Client) Balance(ctx context.Context, addr string) (ela.Fixed64, error) {
	var s string
	if err := c.get(ctx, "/asset/balances/"+url.PathEscape(addr), &s); err != nil {
		return 0, err
	}
	return ela.ParseFixed64(s)
}

// UTXO is an unspent output of an address.
type UTXO struct {
	Asset ela.Hash
	Txid  ela.Hash
	Index uint16
	Value ela.Fixed64
}

// UTXOs returns the unspent outputs of an address in the node's chain (not
// counting what pooled transactions spend), every asset.
func (c *Client) UTXOs(ctx context.Context, addr string) ([]UTXO, error) {
	var groups []wire.AssetUTXOs
	if err := c.get(ctx, "/asset/utxos/"+url.PathEscape(addr), &groups); err != nil {
		return nil, err
	}
	var out []UTXO
	for _, g := range groups {
		asset, err := ela.ParseHash(g.AssetID)
		if err != nil {
			return nil, fmt.Errorf("client: UTXOs of %s: asset id: %w", addr, err)
		}
		for _, u := range g.UTXO {
			txid, err := ela.ParseHash(u.Txid)
			if err != nil {
				return nil, fmt.Errorf("client: UTXOs of %s: txid: %w", addr, err)
			}
			v, err := ela.ParseFixed64(u.Value)
			if err != nil {
				return nil, fmt.Errorf("client: UTXOs of %s: value: %w", addr, err)
			}
			out = append(out, UTXO{Asset: asset, Txid: txid, Index: u.Index, Value: v})
		}
	}
	return out, nil
}

// Transaction returns a transaction the node holds, in a block or pooled
// (blockhash "" and 0 confirmations). An unknown one is a *RESTError with
// [CodeUnknownTransaction].
func (c *Client) Transaction(ctx context.Context, txid ela.Hash) (*ela.TxJSON, error) {
	var tx ela.TxJSON
	if err := c.get(ctx, "/transaction/"+txid.String(), &tx); err != nil {
		return nil, err
	}
	return &tx, nil
}

// Send broadcasts a signed transaction and returns its id.
func (c *Client) Send(ctx context.Context, raw []byte) (ela.Hash, error) {
	body, _ := json.Marshal(map[string]string{"Action": "sendrawtransaction", "data": hex.EncodeToString(raw)})
	var s string
	if err := c.rest1(ctx, http.MethodPost, "/transaction", body, &s); err != nil {
		return ela.Hash{}, err
	}
	return ela.ParseHash(s)
}

// WaitConfirmed polls every interval until the transaction is in a block,
// and returns it then. It fails when ctx ends, or when the node forgets the
// transaction (evicted from its pool).
func (c *Client) WaitConfirmed(ctx context.Context, txid ela.Hash, interval time.Duration) (*ela.TxJSON, error) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		tx, err := c.Transaction(ctx, txid)
		if err != nil {
			return nil, err
		}
		if tx.Confirmations > 0 {
			return tx, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("client: transaction %s not in a block yet: %w", txid, ctx.Err())
		case <-t.C:
		}
	}
}

// TipTime returns the height and block time of the node's chain tip: the
// time against which the node judges whether documents have expired. A
// light node (didlight node --light), which has no blocks, tells its
// upstream's head in its node state.
func (c *Client) TipTime(ctx context.Context) (uint32, time.Time, error) {
	h, err := c.Height(ctx)
	if err != nil {
		return 0, time.Time{}, err
	}
	var hash string
	if err := c.get(ctx, fmt.Sprintf("/block/hash/%d", h), &hash); err != nil {
		if s, serr := c.State(ctx); serr == nil && s.Light != nil && s.Light.Head != nil {
			return uint32(min(s.Light.Head.Height, math.MaxUint32)), s.Light.Head.Time.UTC(), nil
		}
		return 0, time.Time{}, err
	}
	var block struct {
		Height uint32 `json:"height"`
		Time   int64  `json:"time"`
	}
	if err := c.get(ctx, "/block/details/hash/"+url.PathEscape(hash), &block); err != nil {
		return 0, time.Time{}, err
	}
	return block.Height, time.Unix(block.Time, 0).UTC(), nil
}
