package cli

import (
	"context"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"sync/atomic"
	"syscall"

	"github.com/didlight/didlight/host/internal/api"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/demo"
	"github.com/didlight/didlight/host/internal/gcfloor"
	"github.com/didlight/didlight/host/internal/metrics"
	"github.com/didlight/didlight/host/internal/node"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/bolt"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// runNode is `didlight node`: it runs until SIGINT or SIGTERM, then shuts
// down gracefully and exits 0.
func runNode(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseNodeFlags(args, os.Getenv, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "didlight node: %v\n", err)
		return 2
	}
	if !gcByEnv(os.Getenv) {
		defer gcfloor.Start(gcfloor.Node)()
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	log := slog.New(slog.NewTextHandler(stderr, nil))
	for _, w := range cfg.warnings {
		log.Warn(w)
	}
	if err := serveNode(ctx, cfg, stdout, log); err != nil {
		fmt.Fprintf(stderr, "didlight node: %v\n", err)
		return 1
	}
	log.Info("stopped")
	return 0
}

// serveNode opens the store and the chain, seeds the demo when asked,
// prints where the node serves, and serves until ctx ends. It then stops
// accepting requests, lets in-flight ones finish, stops the block producer
// and closes the chain and the store, in that order.
func serveNode(ctx context.Context, cfg nodeConfig, stdout io.Writer, log *slog.Logger) (err error) {
	if len(cfg.light.endpoints.urls) > 0 {
		return serveLight(ctx, cfg, stdout, log)
	}
	if eidNode, err := followsEID(ctx, cfg); err != nil || eidNode {
		if err != nil {
			return err
		}
		return serveEIDFollower(ctx, cfg, stdout, log)
	}
	eidFork, err := forksEID(ctx, &cfg)
	if err != nil {
		return err
	}
	mod, err := loadModule(cfg)
	if err != nil {
		return err
	}
	engine, closeEngine, err := startEngine(ctx, cfg, mod, log)
	if err != nil {
		return err
	}
	defer closeWith(&err, closeEngine)
	db, where, err := openStore(cfg)
	if err != nil {
		return err
	}
	defer closeWith(&err, db.Close)
	if err := importFixture(ctx, &cfg, db, engine, log); err != nil {
		return err
	}
	if err := forkUpstream(ctx, &cfg, db, engine, log); err != nil {
		return err
	}
	var plan *eidForkPlan // nil but on a fork of an EID node
	if eidFork {
		if plan, err = planEIDFork(ctx, cfg, db, log); err != nil {
			return err
		}
		cfg.genesisTime, cfg.forkHeight = plan.began, uint(plan.height)
	}
	c, err := chain.Open(chain.Config{DB: db, DevSeed: cfg.devSeed, Arbiters: cfg.arbiters, BlockTime: cfg.blockTime, Engine: engine, Logger: log, Follower: cfg.follow != "", GenesisTime: cfg.genesisTime,
		MempoolLog: mempoolLog(cfg), NoMining: cfg.noMining})
	if err != nil {
		return err
	}
	defer closeWith(&err, c.Close)
	var fork api.Fork // nil but on a fork of an EID node
	if plan != nil {
		if fork, err = openEIDFork(ctx, cfg, plan, c, log); err != nil {
			return err
		}
	}
	var self atomic.Pointer[node.Node] // the follower announces its REST URL once it is known
	f, err := newFollower(cfg, c, func() string { return restURL(self.Load()) }, log)
	if err != nil {
		return err
	}
	if err := checkUpstream(ctx, f, log); err != nil {
		return err
	}
	mapped, _ := db.(node.MappedStore) // a store in memory maps nothing
	running, err := node.Start(c, node.Config{
		API:      serverOptions(cfg.apiOptions(log, mod, metrics.Chain(c)), f),
		RESTAddr: cfg.restAddr, RPCAddr: cfg.rpcAddr,
		Run:    func(ctx context.Context) error { return runChain(ctx, c, f) },
		Mapped: mapped, MapBudget: int64(cfg.mapBudgetMB) << 20, Fork: fork,
	})
	if err != nil {
		return err
	}
	self.Store(running)
	defer closeWith(&err, running.Stop)
	log.Info("listening", "rest", running.RESTURL(), "rpc", running.RPCURL()) // before the demo is seeded, and the banner printed
	// Demo seeding stops when the node is told to stop, or stops by itself.
	seedCtx, stopSeeding := context.WithCancel(ctx)
	defer stopSeeding()
	go func() {
		<-running.Done()
		stopSeeding()
	}()

	if cfg.demo {
		seedDemo(seedCtx, c, cfg.noMining, log)
	}
	printBanner(stdout, cfg, c, running.Server, where, mod)
	select {
	case <-ctx.Done():
	case <-running.Done():
	}
	log.Info("stopping: HTTP first, then the block producer; then the store closes")
	return nil
}

// seedDemo publishes the demo on c (on a chain that mines nothing until
// asked, its blocks are mined as it goes). It never stops the node: a
// control that resets or reverts the chain meanwhile stops the seeding,
// and the log says so, as it says why seeding failed otherwise.
func seedDemo(ctx context.Context, c *chain.Chain, noMining bool, log *slog.Logger) {
	if noMining {
		c.SetMining(true)
		defer c.SetMining(false)
	}
	rep, err := demo.Seed(ctx, c)
	switch {
	case err == nil:
		log.Info("demo seeded", "dids", rep.DIDs, "published", rep.Published)
	case ctx.Err() != nil: // the node is stopping
	case errors.Is(err, chain.ErrReset):
		log.Warn("demo seeding stopped: a control reset or reverted the chain under it; start the node with --demo again to seed the rest",
			"published", rep.Published)
	default:
		log.Error("demo seeding failed; the node serves the chain as it is", "published", rep.Published, "err", err)
	}
}

// openStore opens the store the flags name and says where it is.
func openStore(cfg nodeConfig) (store.DB, string, error) {
	if cfg.mem {
		return mem.New(), "in memory (--mem): nothing is kept after exit", nil
	}
	db, err := bolt.Open(cfg.dataDir, bolt.Options{})
	if err != nil {
		return nil, "", err
	}
	where := db.Path()
	if abs, err := filepath.Abs(where); err == nil {
		where = abs
	}
	return db, where, nil
}

// mempoolLog is where a node with a data directory logs its mempool.
func mempoolLog(cfg nodeConfig) string {
	if cfg.mem {
		return ""
	}
	return filepath.Join(cfg.dataDir, chain.MempoolLogFile)
}

// closeWith runs close and keeps its error in *err unless *err holds one.
func closeWith(err *error, close func() error) {
	if cerr := close(); cerr != nil && *err == nil {
		*err = cerr
	}
}

// printBanner tells the user where the node serves and with which dev
// account, as devnet nodes do. Tools read the REST and JSON-RPC lines.
func printBanner(w io.Writer, cfg nodeConfig, c *chain.Chain, srv *api.Server, where string, mod nodeModule) {
	acct := c.DevAccount()
	height, _, _ := c.Tip()
	blocks := "mined as soon as transactions arrive"
	switch {
	case cfg.blockTime > 0:
		blocks = "mined every " + cfg.blockTime.String()
	case cfg.noMining:
		blocks = "mined only when asked (dev_mine, evm_mine, dev_increaseTime)"
	}
	if cfg.follow != "" {
		blocks = "following " + cfg.follow
	}
	if cfg.forkURL != "" && cfg.fork == "" {
		blocks += fmt.Sprintf("; a fork of the EID node %s at block %d, its DIDs taken when first asked", cfg.forkURL, cfg.forkHeight)
	}
	fmt.Fprintf(w, `didlight node %s
  REST API     %s
  JSON-RPC     %s
  DID SDK      %sidtx, %sresolve, %sreset
  web app      %s
  store        %s
  chain        height %d, blocks %s, %d arbiter(s)
  engine       %s
  dev account  %s  (devnet funds; these keys are public, never use them elsewhere)
    public key   %s
    private key  %s
    seed         %q
ready; Ctrl-C stops the node
`, version(), srv.RESTURL(), srv.RPCURL(), srv.RPCURL(), srv.RPCURL(), srv.RPCURL(), webLine(srv, mod), where,
		height, blocks, cfg.arbiters, engineLine(cfg, mod), acct.Address,
		hex.EncodeToString(acct.PublicKey.Bytes()), hex.EncodeToString(acct.PrivateKey.Bytes()), acct.Seed)
}

// version is the module version and VCS revision the binary was built
// from, as far as the build recorded them.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown version)"
	}
	v := info.Main.Version
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
	}
	return v
}
