package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"time"

	eidclient "github.com/didlight/didlight/host/client/eid"
	"github.com/didlight/didlight/host/internal/api"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/follow"
	"github.com/didlight/didlight/host/internal/node"
)

// followCheckWait bounds how long the node waits at start for its upstream
// to answer, before it starts anyway and keeps trying in the background.
const followCheckWait = 5 * time.Second

// followFlag defines --follow.
func followFlag(fs *flag.FlagSet, c *nodeConfig) {
	fs.StringVar(&c.follow, "follow", "", "follow the node at this URL: a didlight node's REST API (http://host:20334 or .../api/v1): sync and verify its blocks, serve reads, relay writes to it; or an EID node's JSON-RPC: index its DID operations and serve the DID reads and query; no blocks are made here")
	eidFollowFlags(fs, c)
}

// checkFollow refuses a malformed --follow URL and the flags a follower
// cannot honour; it normalizes the URL.
func (c *nodeConfig) checkFollow(set map[string]bool) error {
	if c.follow == "" {
		return nil
	}
	base, err := follow.ParseUpstream(c.follow)
	if _, eidErr := eidclient.ParseNetwork(c.follow); err != nil && eidErr != nil {
		return err // it names the flag's value
	}
	c.eidFollow.url = c.follow // kept as given: an EID node's URL may have any path
	if err == nil {
		c.follow = base
	}
	switch {
	case c.demo:
		return errors.New("--follow and --demo exclude each other: a follower publishes nothing; seed the upstream with --demo instead")
	case set["block-time"]:
		return errors.New("--follow and --block-time exclude each other: a follower makes no blocks; its upstream's block time applies")
	case set["arbiters"]:
		return errors.New("--follow and --arbiters exclude each other: a follower signs no confirms; it checks the upstream's against its --dev-seed's arbiters")
	}
	return nil
}

// newFollower makes the follower of cfg.follow for c, announcing self (the
// REST URL, known once the server listens); nil when the node does not
// follow.
func newFollower(cfg nodeConfig, c *chain.Chain, self func() string, log *slog.Logger) (*follow.Follower, error) {
	if cfg.follow == "" {
		return nil, nil
	}
	return follow.New(follow.Config{Upstream: cfg.follow, Chain: c, Self: self, Logger: log})
}

// restURL is n's REST URL, or "" before n runs (the follower then
// announces no URL).
func restURL(n *node.Node) string {
	if n == nil {
		return ""
	}
	return n.RESTURL()
}

// checkUpstream checks that f's upstream holds the same chain: a different
// genesis stops the node; an upstream that does not answer yet is only
// logged, as the follower keeps trying.
func checkUpstream(ctx context.Context, f *follow.Follower, log *slog.Logger) error {
	if f == nil {
		return nil
	}
	checkCtx, cancel := context.WithTimeout(ctx, followCheckWait)
	defer cancel()
	err := f.Check(checkCtx)
	if _, ok := errors.AsType[*follow.GenesisError](err); ok {
		return err
	}
	if err != nil && ctx.Err() == nil {
		log.Warn("the upstream does not answer yet; following starts when it does", "upstream", f.Upstream(), "err", err)
	}
	return nil
}

// runChain runs what makes the chain grow: the block producer, or a
// follower's sync.
func runChain(ctx context.Context, c *chain.Chain, f *follow.Follower) error {
	if f != nil {
		if err := f.Run(ctx); err != nil {
			return fmt.Errorf("follower: %w", err)
		}
		return nil
	}
	if err := c.Run(ctx); err != nil {
		return fmt.Errorf("block producer: %w", err)
	}
	return nil
}

// serverOptions adds a follower's settings to opts: the follower relays
// writes, and every node lists the followers that poll it.
func serverOptions(opts api.Options, f *follow.Follower) api.Options {
	opts.Follower = f
	opts.Peers = follow.NewPeers(nil)
	return opts
}
