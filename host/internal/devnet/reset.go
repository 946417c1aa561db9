package devnet

import (
	"context"
	"fmt"
	"time"

	"github.com/didlight/didlight/core/ledger"
)

// Reset wipes c back to its genesis block: blocks, indexes and the
// mempool go; the node id and the snapshots stay. A chain begun at a
// genesis time asked for begins there again, its clock with it; otherwise
// the clock is the wall clock again. Callers of the chain's SubmitRequest
// still waiting get its ErrReset.
func Reset(ctx context.Context, c Chain) error { return reset(ctx, c, time.Time{}) }

// ResetAt is Reset to a new chain begun at t, as the chain's configured
// genesis time begins one: its genesis block is stamped t, and its blocks
// carry t plus the time elapsed since (the genesis block differs from the
// default one, so a follower needs the same genesis time). Later Resets
// begin at t too. A time the ledger cannot begin at gets ErrBadTime.
func ResetAt(ctx context.Context, c Chain, t time.Time) error {
	if err := ledger.CheckGenesisTime(t.Unix()); err != nil {
		return fmt.Errorf("%w: %v", ErrBadTime, err)
	}
	return reset(ctx, c, t)
}

// reset is Reset to a chain begun at asked, zero for where it began.
func reset(ctx context.Context, c Chain, asked time.Time) error {
	ctl, err := c.Control(ctx)
	if err != nil {
		return err
	}
	defer ctl.Release()
	return ctl.Reset(asked)
}
