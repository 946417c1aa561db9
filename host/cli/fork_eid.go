package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	eidclient "github.com/didlight/didlight/host/client/eid"
	"github.com/didlight/didlight/host/internal/api"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/eidfork"
	"github.com/didlight/didlight/host/internal/light"
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
	return eidfork.Forked(db)
}

// openEIDFork makes c, opened on a new or forked store, the fork of the
// EID node --fork names: at the height the store was forked at, else
// --fork-height, else the upstream's head. Its upstream is asked within
// --follow-budget, by default as a follower's is (budgetFor).
func openEIDFork(ctx context.Context, cfg nodeConfig, c *chain.Chain, log *slog.Logger) (api.Fork, uint64, error) {
	network, err := eidclient.ParseNetwork(cfg.forkURL)
	if err != nil {
		return nil, 0, err
	}
	budget, err := budgetFor(cfg.eidFollow.budget, network)
	if err != nil {
		return nil, 0, err
	}
	client, err := eidclient.New(eidclient.Config{Network: network, Budget: budget, Logger: log})
	if err != nil {
		return nil, 0, err
	}
	height, forked, err := eidfork.Height(c)
	switch {
	case err != nil:
		return nil, 0, err
	case forked && cfg.forkHeight != 0 && uint64(cfg.forkHeight) != height:
		return nil, 0, fmt.Errorf("--fork-height %d: the data directory holds a fork at height %d; fork into a new --datadir", cfg.forkHeight, height)
	case !forked && cfg.forkHeight != 0:
		height = uint64(cfg.forkHeight)
	case !forked:
		if height, err = client.BlockNumber(ctx); err != nil {
			return nil, 0, fmt.Errorf("--fork %s: the upstream's head: %w", cfg.forkURL, err)
		}
	}
	f, err := eidfork.New(ctx, eidfork.Config{Chain: c, Client: client, Height: height, Logger: log,
		Resolver: light.New(light.Config{Client: client, Logger: log})})
	if err != nil {
		return nil, 0, err
	}
	log.Info("EID fork", "upstream", cfg.forkURL, "height", height, "budget", budget)
	return f, height, nil
}
