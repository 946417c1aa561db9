package client

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/didlight/didlight/host/internal/wire"
)

// The devnet controls of a didlight node (the dev_* JSON-RPC methods, see
// docs/devnet.md). A node that is not a devnet, a follower for one,
// refuses them with -32601; a browser's cross-site request gets -32003.

// Block names a block as the controls answer: its height and hash.
type Block = wire.Block

// Snapshot calls dev_snapshot and returns the snapshot's id ("0x1", ...).
func (c *Client) Snapshot(ctx context.Context) (string, error) {
	var r struct{ ID string }
	return r.ID, c.devCall(ctx, "dev_snapshot", nil, &r)
}

// Revert calls dev_revert: the chain goes back to snapshot id, which is
// kept with the earlier ones (a later Revert may go back to it again); the
// later ones are dropped. It returns the tip it went back to.
func (c *Client) Revert(ctx context.Context, id string) (Block, error) {
	var b Block
	return b, c.devCall(ctx, "dev_revert", map[string]string{"id": id}, &b)
}

// Reset calls dev_reset: the chain goes back to a genesis block, stamped
// at if at is not zero (else where the chain began).
func (c *Client) Reset(ctx context.Context, at time.Time) (Block, error) {
	params := map[string]string{}
	if !at.IsZero() {
		params["time"] = at.UTC().Format(time.RFC3339)
	}
	var b Block
	return b, c.devCall(ctx, "dev_reset", params, &b)
}

// Mine calls dev_mine: a block now, empty or not.
func (c *Client) Mine(ctx context.Context) (Block, error) {
	var b Block
	return b, c.devCall(ctx, "dev_mine", nil, &b)
}

// IncreaseTime calls dev_increaseTime: the chain's clock moves d forward
// (whole seconds) and a block is mined stamped with it, whose time it
// returns.
func (c *Client) IncreaseTime(ctx context.Context, d time.Duration) (time.Time, error) {
	var r struct{ Time int64 }
	err := c.devCall(ctx, "dev_increaseTime", map[string]int64{"seconds": int64(d / time.Second)}, &r)
	return time.Unix(r.Time, 0).UTC(), err
}

// SetNextBlockTime calls dev_setNextBlockTime: the next block carries t
// exactly (it must be after the tip's time); nothing is mined.
func (c *Client) SetNextBlockTime(ctx context.Context, t time.Time) (time.Time, error) {
	var r struct{ Time int64 }
	err := c.devCall(ctx, "dev_setNextBlockTime", map[string]string{"time": t.UTC().Format(time.RFC3339)}, &r)
	return time.Unix(r.Time, 0).UTC(), err
}

// devCall calls a control and decodes its result object into out.
func (c *Client) devCall(ctx context.Context, method string, params, out any) error {
	if params == nil {
		params = map[string]any{}
	}
	raw, err := c.callObject(ctx, method, params)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return &UnreachableError{URL: c.rpc, Err: fmt.Errorf("%s answered %.200s: %v", method, raw, err)}
	}
	return nil
}
