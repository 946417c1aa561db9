// Command clustertest runs didlight as a public resolver is run, and checks
// that it holds: a producer (a devnet mining a block a second, with the demo
// DIDs), three followers of it (`didlight node --follow`, each on a store of
// its own) and HAProxy in front of them with deploy/haproxy.cfg, the
// configuration the compose file runs, which keeps a follower in rotation
// while its GET /ready answers 200.
//
// Every process is a plain process on loopback; wrk (its own process)
// drives W3C resolutions of the producer's test identifiers through the
// balancer. Three phases, in one run:
//
//   - cost: wrk against one follower directly and through the balancer in
//     turn, round after round: requests per second, p50 and p99, and
//     HAProxy's own CPU time per request (from /proc);
//   - kill: under load, follower2 is killed with SIGKILL, then started
//     again on its store; the report gives when the balancer took it out
//     and put it back, and the requests that failed before it was out (in
//     the check window) and after (none may);
//   - lag: under load, follower3's link to the producer is cut (a relay
//     this program runs stops forwarding) while the producer mines, so that
//     it falls behind; /ready answers 503, the balancer takes it out, the
//     link comes back, it catches up and is put back. No request may fail.
//
// It exits 1 if a check fails. Usage (make clustertest runs it):
//
//	clustertest [-node BIN] [-haproxy haproxy] [-config deploy/haproxy.cfg] [-phase 15s] [-rounds 2] [-connections 16] [-json]
//
// Linux only: CPU time is read from /proc/<pid>/stat.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "clustertest:", err)
		}
		os.Exit(1)
	}
}

// config is what the flags set.
type config struct {
	node, haproxy, haproxyConfig string
	phase                        time.Duration
	rounds, connections          int
	json                         bool
}

func run(ctx context.Context, args []string, out io.Writer) error {
	var c config
	fs := flag.NewFlagSet("clustertest", flag.ContinueOnError)
	fs.StringVar(&c.node, "node", "", "the didlight binary (default: built from the checkout)")
	fs.StringVar(&c.haproxy, "haproxy", "haproxy", "the HAProxy binary")
	fs.StringVar(&c.haproxyConfig, "config", "deploy/haproxy.cfg", "HAProxy's configuration")
	fs.DurationVar(&c.phase, "phase", 15*time.Second, "how long the load of the kill and lag phases lasts")
	fs.IntVar(&c.rounds, "rounds", 2, "rounds of the cost phase (direct, then through the balancer, 5 s each)")
	fs.IntVar(&c.connections, "connections", 16, "wrk's connections")
	fs.BoolVar(&c.json, "json", false, "print the report as JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "didlight-clustertest-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if c.node == "" {
		if c.node, err = buildNode(ctx, dir); err != nil {
			return err
		}
	}
	cl, err := startCluster(ctx, c, dir)
	if err != nil {
		return err
	}
	defer cl.stop()
	rep, err := cl.measure(ctx)
	if err != nil {
		return err
	}
	if c.json {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		enc.Encode(rep)
	} else {
		rep.write(out)
	}
	if problems := rep.problems(); len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintln(out, "FAIL:", p)
		}
		return fmt.Errorf("%d check(s) failed (the logs of every process are in %s, kept)", len(problems), cl.keepLogs())
	}
	return nil
}
