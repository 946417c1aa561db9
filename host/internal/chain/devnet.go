package chain

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/mempool"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// ErrBadTime is the error of a devnet clock control given a time the chain
// cannot take (IncreaseTime, SetNextBlockTime, ResetAt); it is wrapped with
// the reason.
var ErrBadTime = errors.New("chain: time refused")

// IncreaseTime moves the devnet clock forward by d (whole seconds, at
// least one) and makes a block stamped with the new time, so that the tip's
// time, against which expiry is judged, moves at once. It returns that
// block's time. The clock is stored: it survives a restart.
func (c *Chain) IncreaseTime(d time.Duration) (time.Time, error) {
	return c.setClock(func(clock ledger.Clock, _ uint32, now int64) (ledger.Clock, error) {
		return clock.Advance(d, now)
	}, true)
}

// MoveClock moves the devnet clock forward by d (whole seconds, at least
// one) without making a block, as Anvil's and Hardhat's evm_increaseTime
// do: the next block carries the new time. It returns how far the chain's
// time is then ahead of the wall clock (negative: behind, for a chain
// begun in the past).
func (c *Chain) MoveClock(d time.Duration) (time.Duration, error) {
	if _, err := c.setClock(func(clock ledger.Clock, _ uint32, now int64) (ledger.Clock, error) {
		return clock.Advance(d, now)
	}, false); err != nil {
		return 0, err
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	return time.Duration(c.clock.Skew) * time.Second, nil
}

// MaxMineBlocks is the most blocks one MineBlocks makes.
const MaxMineBlocks = 10_000

// MineBlocks makes n blocks now (1 to MaxMineBlocks), the first from the
// mempool, and returns the last; with interval (whole seconds) each after
// the first is stamped interval after the one before, and the clock goes
// on from the last, as anvil_mine does.
func (c *Chain) MineBlocks(ctx context.Context, n int, interval time.Duration) (*ela.Block, error) {
	switch {
	case n < 1 || n > MaxMineBlocks:
		return nil, fmt.Errorf("chain: mining %d blocks, want 1 to %d", n, MaxMineBlocks)
	case interval < 0 || interval%time.Second != 0:
		return nil, fmt.Errorf("%w: interval %s, want whole seconds", ErrBadTime, interval)
	}
	if err := c.lockControl(ctx); err != nil {
		return nil, err
	}
	defer c.mining.Unlock()
	var b *ela.Block
	for i := range n {
		if err := ctx.Err(); err != nil {
			return b, err
		}
		if i > 0 && interval > 0 {
			next := func(clock ledger.Clock, tip uint32, now int64) (ledger.Clock, error) {
				return clock.SetNext(int64(tip)+int64(interval/time.Second), tip, now)
			}
			if err := c.storeClock(next); err != nil {
				return b, err
			}
		}
		var err error
		if b, err = c.mine(); err != nil {
			return b, err
		}
	}
	return b, nil
}

// SetNextBlockTime makes the next block carry t exactly, and later blocks t
// plus the time elapsed since; t must be after the tip's time. It makes no
// block, and returns t.
func (c *Chain) SetNextBlockTime(t time.Time) (time.Time, error) {
	return c.setClock(func(clock ledger.Clock, tip uint32, now int64) (ledger.Clock, error) {
		return clock.SetNext(t.Unix(), tip, now)
	}, false)
}

// setClock stores the clock next returns, given the current one, the
// tip's time and the wall clock's, and makes a block if mine is set. It
// returns the time the next block carries, or the block's if it made one.
func (c *Chain) setClock(next func(ledger.Clock, uint32, int64) (ledger.Clock, error), mine bool) (time.Time, error) {
	if err := c.lockControl(context.Background()); err != nil {
		return time.Time{}, err
	}
	defer c.mining.Unlock()
	if err := c.storeClock(next); err != nil {
		return time.Time{}, err
	}
	if !mine {
		c.mu.RLock()
		clock, tip := c.clock, c.tip.Time
		c.mu.RUnlock()
		return time.Unix(int64(clock.BlockTime(tip, c.now().Unix())), 0).UTC(), nil
	}
	b, err := c.mine()
	if err != nil {
		return time.Time{}, err
	}
	return time.Unix(int64(b.Header.Timestamp), 0).UTC(), nil
}

// storeClock stores the clock next returns, given the current one, the
// tip's time and the wall clock's, and makes it the chain's; the caller
// holds c.mining.
func (c *Chain) storeClock(next func(ledger.Clock, uint32, int64) (ledger.Clock, error)) error {
	c.mu.RLock()
	clock, tip := c.clock, c.tip.Time
	c.mu.RUnlock()
	clock, err := next(clock, tip, c.now().Unix())
	if err != nil {
		return fmt.Errorf("%w: %v", ErrBadTime, err)
	}
	err = c.update(func(tx store.Tx) error { return putMeta(tx, metaClock, record.Clock(clock)) })
	if err != nil {
		return fmt.Errorf("chain: setting the clock: %w", err)
	}
	c.mu.Lock()
	c.clock = clock
	c.mu.Unlock()
	return nil
}

// PayCoinbasesToDev makes the coinbases of the blocks the chain makes from
// now on pay the dev account rather than arbiter 0, and is stored, so that
// it holds after a restart and a reset (a revert gives back what its
// snapshot held). A fork of another
// node's chain does this, so that its dev account, which pays for /idtx, is
// funded by the fork's own blocks whatever the upstream left it.
func (c *Chain) PayCoinbasesToDev() error {
	if err := c.lockControl(context.Background()); err != nil {
		return err
	}
	defer c.mining.Unlock()
	if err := c.update(func(tx store.Tx) error { return putMeta(tx, metaPayDev, nil) }); err != nil {
		return fmt.Errorf("chain: paying coinbases to the dev account: %w", err)
	}
	c.producer = c.dev.ProgramHash
	return nil
}

// Reset wipes the chain back to its genesis block: blocks, indexes and the
// mempool go; the node id stays. A chain begun at a genesis time asked for
// begins there again, its clock with it; otherwise the clock is the wall
// clock again. Callers of SubmitRequest still waiting get ErrReset.
func (c *Chain) Reset(ctx context.Context) error { return c.reset(ctx, time.Time{}) }

// ResetAt is Reset to a new chain begun at t, as Config.GenesisTime begins
// one: its genesis block is stamped t, and its blocks carry t plus the time
// elapsed since (the genesis block differs from the default one, so a
// follower needs the same genesis time). Later Resets begin at t too.
func (c *Chain) ResetAt(ctx context.Context, t time.Time) error {
	if err := ledger.CheckGenesisTime(t.Unix()); err != nil {
		return fmt.Errorf("%w: %v", ErrBadTime, err)
	}
	return c.reset(ctx, t)
}

// reset is Reset to a chain begun at asked, zero for where it began.
func (c *Chain) reset(ctx context.Context, asked time.Time) error {
	if err := c.lockControl(ctx); err != nil {
		return err
	}
	defer c.mining.Unlock()
	c.mu.RLock()
	epoch := c.epoch + 1
	c.mu.RUnlock()
	var b beginning
	err := c.update(func(tx store.Tx) error {
		if asked.IsZero() {
			was, err := readBegan(tx)
			if err != nil {
				return err
			}
			if was.asked {
				asked = was.at
			}
		}
		b = c.beginAt(asked)
		for _, name := range allBuckets {
			if err := tx.DeleteBucket(name); err != nil {
				return err
			}
		}
		for key, v := range map[string][]byte{metaEpoch: record.U64(epoch), metaTxnCount: record.U64(0)} {
			if err := putMeta(tx, key, v); err != nil {
				return err
			}
		}
		return c.writeGenesis(tx, b)
	})
	if err != nil {
		return fmt.Errorf("chain: reset: %w", err)
	}
	c.genesis = b.genesis
	g := b.genesis
	c.restart(head{tip: record.Tip{Height: 0, Hash: g.Hash(), Time: g.Header.Timestamp}, header: g.Header,
		clock: b.clock, epoch: epoch, txnCount: uint64(len(g.Transactions))})
	if err := c.dropPoolLog(); err != nil {
		return fmt.Errorf("chain: reset: %w", err)
	}
	c.log.Info("chain reset to genesis", "epoch", epoch, "genesis time", time.Unix(int64(g.Header.Timestamp), 0).UTC())
	return nil
}

// lockControl begins a devnet control: it checks that ctx is alive and the
// chain makes its own blocks and is open, and takes c.mining, which the
// caller releases.
func (c *Chain) lockControl(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := c.produces(); err != nil {
		return err
	}
	c.mining.Lock()
	if c.isClosed() {
		c.mining.Unlock()
		return errClosed
	}
	return nil
}

// restart makes h the chain's head after a reset or a revert: the pooled
// transactions go (their waiting submitters get ErrReset), cached
// documents too, and subscribers hear of the new tip.
func (c *Chain) restart(h head) {
	c.cache.DropDocuments()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.setHead(h)
	c.pool.Reset(mempool.Position{Epoch: h.epoch, Height: h.tip.Height, Tip: h.tip.Hash})
	c.subs.notify(h.tip.Height)
}
