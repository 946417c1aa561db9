package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/didlight/didlight/host/client"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/devnet"
	"github.com/didlight/didlight/host/internal/follow"
	"github.com/didlight/didlight/host/internal/store"
)

// forkFlags defines --fork and --fork-height.
func forkFlags(fs *flag.FlagSet, c *nodeConfig) {
	fs.StringVar(&c.fork, "fork", "", "begin the chain as a fork of the node at this URL: of a didlight node's REST API, sync and verify its blocks as --follow does, up to --fork-height, then make blocks here on top of them; of an EID node's JSON-RPC, take each DID from it when first asked, as it stood at --fork-height, verified, and mine operations on it here (docs/eid-fork.md)")
	fs.UintVar(&c.forkHeight, "fork-height", 0, "with --fork: the height (an EID node's block number) to fork at; 0 means the upstream's tip")
}

// checkFork refuses a malformed --fork URL and the flags a fork cannot
// take; it normalizes the URL.
func (c *nodeConfig) checkFork(set map[string]bool) error {
	if c.fork == "" {
		if set["fork-height"] {
			return errors.New("--fork-height needs --fork")
		}
		return nil
	}
	c.forkURL = c.fork
	base, err := follow.ParseUpstream(c.fork)
	if err != nil {
		return err
	}
	c.fork = base
	switch {
	case c.follow != "":
		return errors.New("--fork and --follow exclude each other: a fork makes its own blocks after the upstream's, a follower never does")
	case c.importFile != "":
		return errors.New("--fork and --import exclude each other: a chain begins from one or the other")
	case set["genesis-time"]:
		return errors.New("--fork and --genesis-time exclude each other: a fork takes the upstream's genesis")
	case c.forkHeight > 1<<32-1:
		return fmt.Errorf("--fork-height %d is past the last height a block can have", c.forkHeight)
	}
	return nil
}

// forkUpstream syncs db's chain, which must hold nothing but its genesis,
// from cfg.fork up to cfg.forkHeight, validating every block as a follower
// does, before the node opens it to make its own blocks, whose coinbases
// fund the dev account. A chain the upstream began at a genesis time of
// its own goes on from the fork point's time; one on the wall clock's time
// stays on it.
func forkUpstream(ctx context.Context, cfg *nodeConfig, db store.DB, engine chain.Engine, log *slog.Logger) error {
	if cfg.fork == "" {
		return nil
	}
	hc := &http.Client{Timeout: 30 * time.Second}
	genesis, err := client.New(cfg.fork, "", hc).Block(ctx, 0)
	if err != nil {
		return fmt.Errorf("--fork: reading the upstream's genesis block: %w", err)
	}
	began := time.Unix(int64(genesis.Time), 0).UTC()
	if began.Equal(chain.GenesisTime) {
		began = time.Time{}
	}
	c, err := chain.Open(chain.Config{DB: db, DevSeed: cfg.devSeed, GenesisTime: began, Engine: engine, Logger: log, Follower: true})
	if err != nil {
		return fmt.Errorf("--fork: %w", err)
	}
	height, err := syncFork(ctx, cfg, c, hc, log)
	if cerr := c.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("--fork: %w", err)
	}
	log.Info("forked", "upstream", cfg.fork, "height", height)
	c, err = chain.Open(chain.Config{DB: db, DevSeed: cfg.devSeed, Engine: engine, Logger: log})
	if err != nil {
		return fmt.Errorf("--fork: %w", err)
	}
	defer c.Close()
	if err := c.PayCoinbasesToDev(); err != nil {
		return fmt.Errorf("--fork: %w", err)
	}
	if began.IsZero() {
		return nil
	}
	_, _, at := c.Tip()
	if _, err := devnet.SetNextBlockTime(c, time.Unix(at+1, 0)); err != nil {
		return fmt.Errorf("--fork: %w", err)
	}
	return nil
}

// syncFork brings the follower's chain c up to the fork height.
func syncFork(ctx context.Context, cfg *nodeConfig, c *chain.Chain, hc *http.Client, log *slog.Logger) (uint32, error) {
	if h, _, _ := c.Tip(); h != 0 {
		return 0, fmt.Errorf("the store holds a chain of %d blocks: fork into an empty one (--mem, or a new --datadir); run the node again without --fork to go on with a fork made before", h)
	}
	f, err := follow.New(follow.Config{Upstream: cfg.fork, Chain: c, Self: func() string { return "" }, HTTP: hc, Logger: log})
	if err != nil {
		return 0, err
	}
	return f.SyncTo(ctx, uint32(cfg.forkHeight))
}
