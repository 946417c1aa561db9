package chain

import (
	"context"
	"fmt"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/devnet"
	"github.com/didlight/didlight/host/internal/mempool"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// ErrBadTime is the error of a devnet clock control given a time the chain
// cannot take (devnet's controls, devnet.ResetAt); it is wrapped with the reason.
var ErrBadTime = devnet.ErrBadTime

// Control begins a devnet control (package devnet): it checks that ctx is
// alive and the chain makes its own blocks and is open, and holds the
// block maker (mining) until the control's Release.
func (c *Chain) Control(ctx context.Context) (devnet.Control, error) {
	if err := c.lockControl(ctx); err != nil {
		return nil, err
	}
	return control{c}, nil
}

// control is a devnet control under way on a chain; it holds c.mining.
type control struct{ c *Chain }

// Clock returns the chain's clock, its tip's time and the wall clock's.
func (k control) Clock() (ledger.Clock, uint32, int64) {
	k.c.mu.RLock()
	clock, tip := k.c.clock, k.c.tip.Time
	k.c.mu.RUnlock()
	return clock, tip, k.c.now().Unix()
}

// SetClock stores clock and makes it the chain's.
func (k control) SetClock(clock ledger.Clock) error {
	err := k.c.update(func(tx store.Tx) error { return putMeta(tx, metaClock, record.Clock(clock)) })
	if err != nil {
		return fmt.Errorf("chain: setting the clock: %w", err)
	}
	k.c.mu.Lock()
	k.c.clock = clock
	k.c.mu.Unlock()
	return nil
}

// Mine makes a block.
func (k control) Mine() (*ela.Block, error) { return k.c.mine() }

// Info logs what a control did.
func (k control) Info(msg string, args ...any) { k.c.log.Info(msg, args...) }

// Release ends the control.
func (k control) Release() { k.c.mining.Unlock() }

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

// Reset wipes the chain back to a genesis block stamped asked, zero for
// where it began (devnet.Reset).
func (k control) Reset(asked time.Time) error {
	c := k.c
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
