package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/didlight/didlight/core/eid"
	eidclient "github.com/didlight/didlight/host/client/eid"
	"github.com/didlight/didlight/host/internal/api"
	"github.com/didlight/didlight/host/internal/eidfollow"
	"github.com/didlight/didlight/host/internal/eidindex"
	"github.com/didlight/didlight/host/internal/eidsync"
	"github.com/didlight/didlight/host/internal/metrics"
	"github.com/didlight/didlight/host/internal/node"
)

// eidFollowConfig is what --follow of an EID node takes.
type eidFollowConfig struct {
	url       string // --follow as given
	fromBlock uint64
	contract  string
	budget    float64 // --follow-budget; 0 for the default (budgetFor)
}

// eidFollowFlags defines the flags of --follow to an EID node.
func eidFollowFlags(fs *flag.FlagSet, c *nodeConfig) {
	fs.Uint64Var(&c.eidFollow.fromBlock, "from-block", 0, "with --follow of an EID node: the first block scanned when the store is empty (default the chain's genesis); a store continues from its head")
	fs.Float64Var(&c.eidFollow.budget, "follow-budget", 0, "with --follow of an EID node: requests a second the upstream is sent at most, each block or receipt of a batch counted as one; -1 for no limit (default: no limit for an EID node on this machine, else "+strconv.Itoa(eidclient.DefaultBudget)+")")
	fs.StringVar(&c.eidFollow.contract, "did-contract", "", "with --follow of an EID node: the DID contract's address (0x and 40 hex digits); mainnet's and testnet's are built in")
}

// followsEID reports whether --follow names an EID node, asking the URL
// what it is (eid.Recognize, as a light node does). --from-block and
// --did-contract are refused for a didlight upstream.
func followsEID(ctx context.Context, cfg nodeConfig) (bool, error) {
	if cfg.follow == "" {
		if cfg.eidFollow.fromBlock != 0 || cfg.eidFollow.contract != "" || cfg.eidFollow.budget != 0 && cfg.fork == "" {
			return false, errors.New("--from-block, --did-contract and --follow-budget need --follow of an EID node (--follow-budget: or --fork of one)")
		}
		return false, nil
	}
	rctx, cancel := context.WithTimeout(ctx, followCheckWait)
	up, err := eidclient.Recognize(rctx, cfg.eidFollow.url, nil)
	cancel()
	switch {
	case err == nil && up.Kind == eidclient.EID:
		return true, nil
	case cfg.eidFollow.fromBlock != 0 || cfg.eidFollow.contract != "" || cfg.eidFollow.budget != 0:
		return false, fmt.Errorf("--from-block, --did-contract and --follow-budget are for an EID node; %s is not one (%v)", cfg.eidFollow.url, err)
	case !strings.HasSuffix(cfg.follow, "/api/v1"):
		return false, fmt.Errorf("--follow %s: not an EID node's JSON-RPC (%v), nor a didlight node's REST API", cfg.eidFollow.url, err)
	}
	return false, nil // a didlight node, or one that does not answer yet: followed as before
}

// serveEIDFollower runs an EID follower until ctx ends: its index in the
// node's store, fed by a scan of the EID node, served by its own server.
func serveEIDFollower(ctx context.Context, cfg nodeConfig, stdout io.Writer, log *slog.Logger) (err error) {
	network, err := eidclient.ParseNetwork(cfg.eidFollow.url)
	if err != nil {
		return err
	}
	budget, err := budgetFor(cfg.eidFollow.budget, network)
	if err != nil {
		return err
	}
	client, err := eidclient.New(eidclient.Config{Network: network, Budget: budget, Logger: log})
	if err != nil {
		return err
	}
	id, err := client.ChainID(ctx)
	if err != nil {
		return fmt.Errorf("--follow %s: the chain id: %w", cfg.eidFollow.url, err)
	}
	if _, ok := eidsync.ContractOf(id); !ok && cfg.eidFollow.contract == "" {
		return fmt.Errorf("--follow %s: chain id %d is neither mainnet's (22) nor testnet's (23), whose DID contracts are built in: give its contract with --did-contract", cfg.eidFollow.url, id)
	}
	db, where, err := openStore(cfg)
	if err != nil {
		return err
	}
	defer closeWith(&err, db.Close)
	ix, err := eidindex.Open(eidindex.Config{DB: db, Network: eid.NetworkOf(id), Logger: log})
	if err != nil {
		return err
	}
	defer closeWith(&err, ix.Close)
	report, every := func(p eidsync.Progress) { log.Info("EID scan", "line", eidsync.Line(p, false)) }, 10*time.Second
	if (osTerminal{}).isTerminal(stdout) { // a bar under the banner; the log keeps stderr
		bar := eidsync.NewRenderer(stdout, true)
		defer bar.End()
		report, every = bar.Show, time.Second
	}
	scan, err := eidsync.New(eidsync.Config{Upstream: client, Sink: ix, From: cfg.eidFollow.fromBlock, Contract: cfg.eidFollow.contract,
		Report: report, ReportEvery: every})
	if err != nil {
		return err
	}
	mod, err := loadModule(cfg)
	if err != nil {
		return err
	}
	running, err := node.StartEIDFollower(eidfollow.New(ix, scan, cfg.eidFollow.url), node.Config{
		API:      cfg.apiOptions(log, mod, metrics.EIDFollower(ix, scan)),
		RESTAddr: cfg.restAddr, RPCAddr: cfg.rpcAddr,
	})
	if err != nil {
		return err
	}
	defer closeWith(&err, running.Stop)
	srv := running.Server
	fmt.Fprintf(stdout, `didlight node %s
  REST API     %s
  JSON-RPC     %s
  W3C          %s1.0/identifiers/{did}
  mode         EID follower: indexes the DID operations of the EID chain, verified as EID checked them; serves the DID reads and query
  upstream     %s (chain id %d)
  store        %s
ready; Ctrl-C stops the node
`, version(), srv.RESTURL(), srv.RPCURL(), strings.TrimSuffix(srv.RESTURL(), "api/v1"), cfg.eidFollow.url, id, where)
	select {
	case <-ctx.Done():
	case <-running.Done():
	}
	log.Info("stopping: HTTP first, then the scan; then the store closes")
	return nil
}

// budgetFor returns the request budget of an EID follower's upstream: the
// one asked (-1 for none), or by default none for endpoints on this
// machine, whose node is the operator's own, and the EID client's default
// for any other, so that a public endpoint is not flooded.
func budgetFor(asked float64, network eidclient.Network) (float64, error) {
	switch {
	case asked == -1 || asked > 0:
		return asked, nil
	case asked != 0 || math.IsNaN(asked):
		return 0, fmt.Errorf("--follow-budget %v: want requests a second above 0, or -1 for no limit", asked)
	}
	for _, e := range network.Endpoints {
		if u, err := url.Parse(e); err != nil || !api.IsLoopback(u.Hostname()) {
			return eidclient.DefaultBudget, nil
		}
	}
	return -1, nil
}
