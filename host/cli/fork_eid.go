package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	eidclient "github.com/didlight/didlight/host/client/eid"
	"github.com/didlight/didlight/host/internal/api"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/eidfork"
	"github.com/didlight/didlight/host/internal/light"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/bolt"
)

// forksEID reports whether --fork names an EID node: the URL says it is
// one (eid.Recognize), or, when it does not answer, the data directory
// holds a fork of one made before, which restarts from what it took. It
// then clears cfg.fork, which is for a didlight upstream (fork.go).
// --follow-budget with a --fork that is no EID node is refused.
func forksEID(ctx context.Context, cfg *nodeConfig) (bool, error) {
	if cfg.fork == "" {
		return false, nil
	}
	rctx, cancel := context.WithTimeout(ctx, followCheckWait)
	up, err := eidclient.Recognize(rctx, cfg.forkURL, nil)
	cancel()
	eid := err == nil && up.Kind == eidclient.EID
	if !eid && !cfg.mem {
		if eid, err = forkedBefore(cfg.dataDir); err != nil {
			return false, err
		}
	}
	switch {
	case eid:
		cfg.fork = ""
		return true, nil
	case cfg.eidFollow.budget != 0:
		return false, fmt.Errorf("--follow-budget with --fork is for an EID node; %s is not one", cfg.forkURL)
	}
	return false, nil // a didlight node: forked by syncing its blocks (fork.go)
}

// forkedBefore reports whether the data directory holds a fork of an EID
// chain, without making one where there is none.
func forkedBefore(dir string) (bool, error) {
	if _, err := os.Stat(filepath.Join(dir, bolt.FileName)); errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	db, err := bolt.Open(dir, bolt.Options{})
	if err != nil {
		return false, err
	}
	defer db.Close()
	_, ok, err := eidfork.Stored(db)
	return ok, err
}

// eidForkPlan is what a fork of an EID node needs before its chain opens.
type eidForkPlan struct {
	client *eidclient.Client
	height uint64
	began  time.Time // a new fork's genesis time: its fork block's; zero for a store forked before
}

// planEIDFork settles the fork of the EID node --fork names on db: the
// height db was forked at, else --fork-height, else the upstream's head;
// for a new fork, the time of that block, at which its chain begins (as a
// fork of a didlight node goes on from its fork point's time). Its
// upstream is asked within --follow-budget, by default as a follower's is
// (budgetFor).
func planEIDFork(ctx context.Context, cfg nodeConfig, db store.DB, log *slog.Logger) (*eidForkPlan, error) {
	network, err := eidclient.ParseNetwork(cfg.forkURL)
	if err != nil {
		return nil, err
	}
	budget, err := budgetFor(cfg.eidFollow.budget, network)
	if err != nil {
		return nil, err
	}
	p := &eidForkPlan{}
	if p.client, err = eidclient.New(eidclient.Config{Network: network, Budget: budget, Logger: log}); err != nil {
		return nil, err
	}
	height, forked, err := eidfork.Stored(db)
	switch {
	case err != nil:
		return nil, err
	case forked && cfg.forkHeight != 0 && uint64(cfg.forkHeight) != height:
		return nil, fmt.Errorf("--fork-height %d: the data directory holds a fork at height %d; fork into a new --datadir", cfg.forkHeight, height)
	case forked:
		p.height = height
		return p, nil
	case cfg.forkHeight != 0:
		p.height = uint64(cfg.forkHeight)
	default:
		if p.height, err = p.client.BlockNumber(ctx); err != nil {
			return nil, fmt.Errorf("--fork %s: the upstream's head: %w", cfg.forkURL, err)
		}
	}
	b, err := p.client.Block(ctx, p.height)
	if err != nil {
		return nil, fmt.Errorf("--fork %s: block %d: %w", cfg.forkURL, p.height, err)
	}
	p.began = b.Time
	return p, nil
}

// openEIDFork makes c the fork p planned.
func openEIDFork(ctx context.Context, cfg nodeConfig, p *eidForkPlan, c *chain.Chain, log *slog.Logger) (api.Fork, error) {
	f, err := eidfork.New(ctx, eidfork.Config{Chain: c, Client: p.client, Height: p.height, Logger: log,
		Resolver: light.New(light.Config{Client: p.client, Logger: log})})
	if err != nil {
		return nil, err
	}
	log.Info("EID fork", "upstream", cfg.forkURL, "height", p.height)
	return f, nil
}
