package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/node"
)

// nodeConfig is what `didlight node` was asked to do.
type nodeConfig struct {
	mem        bool
	dataDir    string
	restAddr   string
	rpcAddr    string
	blockTime  time.Duration
	noMining   bool
	arbiters   int
	devSeed    string
	demo       bool
	adminToken string
	// adminTokenFile, corsOrigins and warnings: see nodeaccess.go.
	adminTokenFile  string
	corsOrigins     originList
	warnings        []string        // what the node logs at start, about its settings
	engine          string          // engineNative or engineWasm
	modulePath      string          // the module to use instead of the embedded one
	follow          string          // the upstream's REST base URL; "" makes blocks here (follow.go)
	eidFollow       eidFollowConfig // --follow of an EID node (follow_eid.go)
	genesisTime     time.Time       // a new chain's genesis time (nodetime.go); zero for the default
	importFile      string          // a fixture file to begin the chain from (devnet.go)
	fork            string          // the upstream's REST base URL to fork from (fork.go)
	forkURL         string          // --fork as given: an EID node's JSON-RPC too (fork_eid.go)
	forkHeight      uint            // the height to fork at; 0 for the upstream's tip
	mapBudgetMB     int             // the store's mapped pages kept at most (node.KeepMapped); 0 keeps all
	light           lightConfig     // a light node's upstream and settings (light.go); no endpoints for a node with a chain
	requireUpstream bool            // refuse to start a node that neither follows nor is light
	service         serviceConfig   // readiness, metrics, caching, rate limits (nodeservice.go)
}

// The engines --engine chooses between: core run natively, or the
// WebAssembly module run in wazero (host/wasmrt).
const (
	engineNative = "native"
	engineWasm   = "wasm"
)

// envPrefix starts the environment variable of each flag: --rest-addr is
// also read from DIDLIGHT_REST_ADDR. A flag on the command line wins.
const envPrefix = "DIDLIGHT_"

// envName returns the environment variable read for flag name.
func envName(name string) string {
	return envPrefix + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

// parseNodeFlags reads the node's flags from args, each defaulting to its
// environment variable (looked up with getenv) when that is set. Usage
// goes to stderr; -h returns flag.ErrHelp, and errors are returned.
func parseNodeFlags(args []string, getenv func(string) string, stderr io.Writer) (nodeConfig, error) {
	var c nodeConfig
	fs := flag.NewFlagSet("didlight node", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are returned, to be printed once
	fs.Usage = func() {}
	fs.BoolVar(&c.mem, "mem", false, "keep the chain in memory only (nothing survives the process)")
	fs.StringVar(&c.dataDir, "datadir", "./didlight-data", "directory of the chain's store file")
	fs.StringVar(&c.restAddr, "rest-addr", "127.0.0.1:20334", "host:port of the REST API (/api/v1)")
	fs.StringVar(&c.rpcAddr, "rpc-addr", "127.0.0.1:20336", "host:port of the JSON-RPC API and the DID-SDK endpoints (/idtx, /resolve, /reset)")
	durationFlag(fs, &c.blockTime, "block-time", 0, "mine a block every interval (5s, 1m…), empty or not; 0 mines as soon as transactions arrive")
	fs.BoolVar(&c.noMining, "no-mining", false, "mine no block until a control asks (dev_mine, evm_mine, dev_increaseTime), as Anvil's --no-mining; /idtx then waits for one")
	fs.IntVar(&c.arbiters, "arbiters", 1, "number of arbiter keys that sign each block's DPoS confirm")
	fs.StringVar(&c.devSeed, "dev-seed", "didlight", "seed of the dev account's and arbiters' keys")
	fs.BoolVar(&c.demo, "demo", false, "publish demo DIDs (services, credentials, updates, deactivations, expiries) unless already there")
	fs.StringVar(&c.adminToken, "admin-token", "", "token that lets non-loopback clients call GET /api/v1/restart (visible in the process list: prefer --admin-token-file)")
	accessFlags(fs, &c)
	fs.StringVar(&c.engine, "engine", engineNative, "what validates transactions and identity operations: native (core in this process) or wasm (the didlight WebAssembly module in wazero)")
	followFlag(fs, &c)
	genesisTimeFlag(fs, &c)
	forkFlags(fs, &c)
	lightFlags(fs, &c)
	serviceFlags(fs, &c.service)
	fs.StringVar(&c.importFile, "import", "", "begin the chain from this fixture file (didlight devnet export), validating every block; the store must hold no chain yet (use --mem, or a new --datadir). Its dev seed is taken unless --dev-seed is given")
	fs.IntVar(&c.mapBudgetMB, "map-budget", node.DefaultMapBudget>>20, "MB of the store's file the node keeps mapped (resident) before it drops its pages, which stay in the kernel's page cache (Linux; see docs/scale.md); 0 never drops them")
	fs.StringVar(&c.modulePath, "module", "", "didlight.wasm to use (for --engine wasm and the browser app) instead of the module embedded in the binary")

	set := map[string]bool{}
	var envErr error
	fs.VisitAll(func(f *flag.Flag) {
		if v := getenv(envName(f.Name)); v != "" && envErr == nil {
			if err := fs.Set(f.Name, v); err != nil {
				envErr = fmt.Errorf("%s=%q: %v", envName(f.Name), v, err)
			}
			set[f.Name] = true
		}
	})
	if envErr != nil {
		return c, envErr
	}
	c.corsOrigins.fromEnv, c.light.endpoints.fromEnv, c.service.proxies.fromEnv = set["cors-origin"], set["light"], set["trusted-proxy"]
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		nodeUsage(fs, stderr)
		return c, err
	} else if err != nil {
		return c, fmt.Errorf("%v (run \"didlight node -h\")", err)
	}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if err := c.check(fs.Args(), set); err != nil {
		return c, err
	}
	return c, c.checkAccess(args, set)
}

// nodeUsage writes the node's help: what it does, and every flag with its
// environment variable and default.
func nodeUsage(fs *flag.FlagSet, w io.Writer) {
	fmt.Fprintf(w, "Usage: didlight node [flags]\n\nRuns a local identity chain: it mines blocks, accepts transactions and DID\n"+
		"operations, and serves the REST and JSON-RPC APIs. With --follow it follows\nanother node's chain; with --light it has none, and resolves DIDs through EID\n"+
		"nodes, verifying each answer. Both listeners answer GET /health and GET /ready\n"+
		"(for a load balancer); the REST one GET /metrics (Prometheus) to loopback\nclients and the admin token. Each flag may also be set with its environment\nvariable; the command line wins.\n\nFlags:\n")
	fs.VisitAll(func(f *flag.Flag) {
		fmt.Fprintf(w, "  --%s (%s, default %q)\n      %s\n", f.Name, envName(f.Name), f.DefValue, f.Usage)
	})
}

// check refuses settings that cannot work together or at all.
func (c *nodeConfig) check(extra []string, set map[string]bool) error {
	switch {
	case len(extra) > 0:
		return fmt.Errorf("unexpected argument %q (flags start with --)", extra[0])
	case c.mem && set["datadir"]:
		return errors.New("--mem and --datadir exclude each other: a chain in memory has no data directory")
	case !c.mem && c.dataDir == "":
		return errors.New("--datadir is empty: give a directory, or --mem")
	case c.blockTime < 0:
		return fmt.Errorf("--block-time %v is negative", c.blockTime)
	case c.noMining && set["block-time"]:
		return errors.New("--no-mining and --block-time exclude each other: one mines nothing until asked, the other a block every interval")
	case c.noMining && c.follow != "":
		return errors.New("--no-mining and --follow exclude each other: a follower makes no blocks; its upstream's apply")
	case c.arbiters < 1 || c.arbiters > chain.MaxArbiters:
		return fmt.Errorf("--arbiters %d: want 1 to %d", c.arbiters, chain.MaxArbiters)
	case c.devSeed == "":
		return errors.New("--dev-seed is empty")
	case c.mapBudgetMB < 0:
		return fmt.Errorf("--map-budget %d is negative: give MB, or 0 to keep every page mapped", c.mapBudgetMB)
	case c.engine != engineNative && c.engine != engineWasm:
		return fmt.Errorf("--engine %q: want %s or %s", c.engine, engineNative, engineWasm)
	case c.importFile != "" && c.follow != "":
		return errors.New("--import and --follow exclude each other: a follower takes its blocks from its upstream")
	}
	if c.importFile != "" && !set["dev-seed"] {
		c.devSeed = "" // the file's
	}
	if err := c.checkLight(set); err != nil {
		return err
	}
	if err := c.checkFork(set); err != nil {
		return err
	}
	if err := c.service.check(); err != nil {
		return err
	}
	return c.checkFollow(set)
}
