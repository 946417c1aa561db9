package devnet

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/ledger"
)

// ErrBadTime is the error of a clock control given a time the chain cannot
// take; it is wrapped with the reason.
var ErrBadTime = errors.New("chain: time refused")

// IncreaseTime moves c's clock forward by d (whole seconds, at least one)
// and makes a block stamped with the new time, so that the tip's time,
// against which expiry is judged, moves at once. It returns that block's
// time.
func IncreaseTime(c Chain, d time.Duration) (time.Time, error) {
	ctl, err := c.Control(context.Background())
	if err != nil {
		return time.Time{}, err
	}
	defer ctl.Release()
	if err := advance(ctl, d); err != nil {
		return time.Time{}, err
	}
	b, err := ctl.Mine()
	if err != nil {
		return time.Time{}, err
	}
	return time.Unix(int64(b.Header.Timestamp), 0).UTC(), nil
}

// MoveClock moves c's clock forward by d (whole seconds, at least one)
// without making a block, as Anvil's and Hardhat's evm_increaseTime do: the
// next block carries the new time. It returns how far the chain's time is
// then ahead of the wall clock (negative: behind, for a chain begun in the
// past).
func MoveClock(c Chain, d time.Duration) (time.Duration, error) {
	ctl, err := c.Control(context.Background())
	if err != nil {
		return 0, err
	}
	defer ctl.Release()
	if err := advance(ctl, d); err != nil {
		return 0, err
	}
	clock, _, _ := ctl.Clock()
	return time.Duration(clock.Skew) * time.Second, nil
}

// SetNextBlockTime makes c's next block carry t exactly, and later blocks t
// plus the time elapsed since; t must be after the tip's time. It makes no
// block, and returns t.
func SetNextBlockTime(c Chain, t time.Time) (time.Time, error) {
	ctl, err := c.Control(context.Background())
	if err != nil {
		return time.Time{}, err
	}
	defer ctl.Release()
	if err := setNext(ctl, t.Unix()); err != nil {
		return time.Time{}, err
	}
	clock, tip, now := ctl.Clock()
	return time.Unix(int64(clock.BlockTime(tip, now)), 0).UTC(), nil
}

// MaxMineBlocks is the most blocks one MineBlocks makes.
const MaxMineBlocks = 10_000

// MineBlocks makes n blocks on c now (1 to MaxMineBlocks), the first from
// the mempool, and returns the last; with interval (whole seconds) each
// after the first is stamped interval after the one before, and the clock
// goes on from the last, as anvil_mine does.
func MineBlocks(ctx context.Context, c Chain, n int, interval time.Duration) (*ela.Block, error) {
	switch {
	case n < 1 || n > MaxMineBlocks:
		return nil, fmt.Errorf("chain: mining %d blocks, want 1 to %d", n, MaxMineBlocks)
	case interval < 0 || interval%time.Second != 0:
		return nil, fmt.Errorf("%w: interval %s, want whole seconds", ErrBadTime, interval)
	}
	ctl, err := c.Control(ctx)
	if err != nil {
		return nil, err
	}
	defer ctl.Release()
	var b *ela.Block
	for i := range n {
		if err := ctx.Err(); err != nil {
			return b, err
		}
		if i > 0 && interval > 0 {
			_, tip, _ := ctl.Clock()
			if err := setNext(ctl, int64(tip)+int64(interval/time.Second)); err != nil {
				return b, err
			}
		}
		if b, err = ctl.Mine(); err != nil {
			return b, err
		}
	}
	return b, nil
}

// advance moves ctl's clock forward by d.
func advance(ctl Control, d time.Duration) error {
	clock, _, now := ctl.Clock()
	return set(ctl, func() (ledger.Clock, error) { return clock.Advance(d, now) })
}

// setNext makes ctl's next block carry t.
func setNext(ctl Control, t int64) error {
	clock, tip, now := ctl.Clock()
	return set(ctl, func() (ledger.Clock, error) { return clock.SetNext(t, tip, now) })
}

// set stores the clock next returns, refusing with ErrBadTime a time the
// clock cannot take.
func set(ctl Control, next func() (ledger.Clock, error)) error {
	clock, err := next()
	if err != nil {
		return fmt.Errorf("%w: %v", ErrBadTime, err)
	}
	return ctl.SetClock(clock)
}
