// Command loadbench measures a didlight node's serving speed from outside.
//
// It measures a didlight node's serving speed from outside, as a skeptic
// would: the node runs in its own process, a trivial Go net/http handler
// (the reference) in another, and wrk (Debian's package, in a third) drives
// each in turn with the same requests, alternating node and reference for
// each request kind, round after round. For every kind it reports requests
// per second, latency p50 and p99 (wrk's) and the server's CPU time per
// request (the server process's own accounting, from /proc), and each as a
// ratio to the reference measured in the same run.
//
// wrk keeps its 32 connections busy (a closed loop): at saturation its
// latencies are mostly queueing (32 in flight over the rate, by Little's
// law) and the scheduler's slices, and a slow answer delays the requests
// behind it without their being counted (coordinated omission). So each
// kind is then also sent at a fixed rate (an open loop: -open-share of the
// reference's wrk rate in that round, or -open-rate), the same for node and
// reference, by this program's generator in a process of its own
// (`loadbench gen`), with each latency counted from the time its request
// was due, and p50, p99 and p99.9 reported with the server's CPU per
// request. A run in which the generator did not keep its schedule is
// marked invalid.
//
// Usage (make loadbench runs it with the defaults):
//
//	loadbench [-node BIN] [-datadir DIR] [-duration 10s] [-rounds 2] [-threads 2] [-connections 32] [-dids 256] [-kinds k1,k2] [-sized-ref]
//		[-open-share 0.25] [-open-rate R] [-open-conns 256] [-json] [-light] [-eid-geth GETH] [-eid-follow] [-service]
//
// With -sized-ref the reference pads its answer to the mean size of the
// node's answers to each kind, so that the ratios show what the node's
// work costs apart from what writing a large answer costs any server.
//
// Without -node it builds ./cmd/didlight from the checkout. Without -datadir
// the node serves the demo chain in memory (--mem --demo); with it, the
// chain in DIR (a generated large chain, say). The node's block producer
// makes no block while the benchmark runs: it sends no transactions.
//
// With -light it also starts a light node (`didlight node --light`) in
// front of the recorded EID scenario's replay, served by this program, and
// measures its kinds (light-*: resolvedid, did_resolveDID as the SDKs send
// it and W3C resolution, answered from what it kept). With -eid-geth it
// starts a private EID node instead, runs the scenario on it, and measures
// it too (eid-did_resolveDID): only inside a network namespace of its own
// (make eidbench). With -eid-follow it also starts an EID follower of the
// same upstream (`didlight node --follow`), waits until it has synced, and
// measures it (eidf-*: did_resolveDID, resolvedid and a query page from its
// index). -versus then compares a light or follower kind with resolvedid on
// the devnet node, or with the EID node's did_resolveDID, in the same run.
//
// With -service it also measures what running the node as a public
// service costs and saves (service.go): metrics, the rate limit, HTTP
// caching (304s and fresh answers) and compression.
//
// Linux only: server CPU time is read from /proc/<pid>/stat.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) == 3 && (os.Args[1] == "ref" || os.Args[1] == "gen") {
		runChild(os.Args[1], os.Args[2])
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "loadbench:", err)
		}
		os.Exit(2)
	}
}

// runChild runs this program as one of its child processes: the
// reference (`loadbench ref ADDR`) or the generator (`loadbench gen
// SPEC`). A signal ends them as its default has it: the parent stops the
// reference with SIGTERM.
func runChild(mode, arg string) {
	var err error
	if mode == "ref" {
		err = runRef(arg)
	} else {
		err = runGen(context.Background(), arg)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "loadbench %s: %v\n", mode, err)
		os.Exit(1)
	}
}

// options are the flags of a run.
type options struct {
	node, datadir string
	load          load
	rounds        int
	dids          int
	kinds         string
	versus        string
	sizedRef      bool
	json          bool
	openShare     float64 // of the reference's wrk rate: the open loop's rate
	openRate      float64 // when set, the open loop's rate instead
	openConns     int
	light         bool   // also a light node, in front of the recorded EID scenario's replay
	eidGeth       string // also a live EID node with this geth, and a light node in front of it
	eidFollow     bool   // also an EID follower of the EID upstream
	service       bool   // also the service kinds (service.go)
}

// openLoad is the open-loop load of a kind in a round in which wrk drove
// the reference at refRate; a zero rate when the open loop is off.
func (o options) openLoad(refRate float64) openLoad {
	rate := o.openRate
	if rate == 0 {
		rate = o.openShare * refRate
	}
	return openLoad{Rate: rate, Duration: o.load.duration, Connections: o.openConns}
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("loadbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.node, "node", "", "the didlight binary to measure (default: go build ./cmd/didlight)")
	fs.StringVar(&o.datadir, "datadir", "", "serve the chain in this data directory (default: the demo chain in memory)")
	fs.DurationVar(&o.load.duration, "duration", 10*time.Second, "how long wrk drives a server per kind and round (whole seconds)")
	fs.IntVar(&o.rounds, "rounds", 2, "rounds; each runs every kind against the node, then the reference")
	fs.IntVar(&o.load.threads, "threads", 2, "wrk threads")
	fs.IntVar(&o.load.connections, "connections", 32, "wrk connections, shared by its threads")
	fs.IntVar(&o.dids, "dids", 256, "how many of the chain's DIDs the resolve kinds cycle through; the node keeps 32 MB of resolve answers, so more than about 10 000 measure answers mostly built anew")
	fs.StringVar(&o.kinds, "kinds", "", "comma-separated request kinds to run (default all but query-pages: resolvedid, resolvedid-all, query, height, w3c; query-pages: a page per DID, skip 0, 1, 2…, built anew when they outgrow the node's 32 MB of kept pages)")
	fs.StringVar(&o.versus, "versus", "", "also compare each kind's node figures with this kind's, measured in the same run (say resolvedid)")
	fs.BoolVar(&o.sizedRef, "sized-ref", false, "the reference pads its answer to each kind's node answer size (asked in a header sent to both), so that the ratios leave out what size costs")
	fs.BoolVar(&o.json, "json", false, "print the measurements as JSON instead of tables")
	fs.Float64Var(&o.openShare, "open-share", 0.25, "the open loop's fixed rate, as a share of the reference's wrk rate for the kind in the same round (0 with no -open-rate: no open loop)")
	fs.Float64Var(&o.openRate, "open-rate", 0, "the open loop's fixed rate in requests per second, instead of -open-share")
	fs.IntVar(&o.openConns, "open-conns", 256, "keep-alive connections the open loop's generator sends on, each request due on an idle one; too few and requests wait for one (the run is marked invalid)")
	fs.BoolVar(&o.light, "light", false, "also start a light node (didlight node --light) in front of the recorded EID scenario's replay, served by this program, and measure it: the light-* kinds")
	fs.BoolVar(&o.eidFollow, "eid-follow", false, "with -light or -eid-geth: also start an EID follower (didlight node --follow) of the same EID upstream, once it has synced, and measure it: the eidf-* kinds")
	fs.BoolVar(&o.service, "service", false, "also measure the node as a public service: against nodes started --no-metrics (bare-*) and with a rate limit counting every request (limited-*), W3C answers compressed (w3c-gzip, w3c-br, resolvedid-gzip), revalidated (w3c-304) and asked afresh (w3c-fresh)")
	fs.StringVar(&o.eidGeth, "eid-geth", "", "also start a private EID node with this geth, run the EID scenario on it, and measure it (eid-did_resolveDID) and a light node in front of it (light-*); only inside a network namespace of its own (make eidbench)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	switch {
	case fs.NArg() > 0:
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case o.load.duration < time.Second:
		return o, fmt.Errorf("-duration %v: want at least 1s", o.load.duration)
	case o.rounds < 1:
		return o, fmt.Errorf("-rounds %d: want at least 1", o.rounds)
	case o.dids < 1:
		return o, fmt.Errorf("-dids %d: want at least 1", o.dids)
	case o.load.threads < 1 || o.load.connections < o.load.threads:
		return o, fmt.Errorf("-threads %d -connections %d: want threads ≥ 1 and connections ≥ threads", o.load.threads, o.load.connections)
	case o.openShare < 0 || o.openShare > 1:
		return o, fmt.Errorf("-open-share %v: want a share from 0 to 1", o.openShare)
	case o.openRate < 0:
		return o, fmt.Errorf("-open-rate %v: want a rate of 0 or more", o.openRate)
	case o.openConns < 1:
		return o, fmt.Errorf("-open-conns %d: want at least 1", o.openConns)
	case o.eidFollow && !o.light && o.eidGeth == "":
		return o, errors.New("-eid-follow: give -light or -eid-geth, the EID upstream it follows")
	}
	return o, nil
}

// run measures: it starts both servers, checks every kind's answer, then
// runs the rounds and reports.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	if _, err := exec.LookPath("wrk"); err != nil {
		return errors.New("wrk is not installed: `make loadbench` installs Debian's package, or apt-get install wrk")
	}
	dir, err := os.MkdirTemp("", "loadbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bin := o.node
	if bin == "" {
		if bin, err = buildNode(ctx, dir); err != nil {
			return err
		}
	}
	logf, err := os.Create(filepath.Join(dir, "servers.log"))
	if err != nil {
		return err
	}
	defer logf.Close()
	fail := func(err error) error {
		logf.Sync()
		log, _ := os.ReadFile(logf.Name())
		return fmt.Errorf("%v\nservers' log:\n%s", err, tail(log, 4000))
	}

	node, err := startNode(ctx, bin, o.datadir, logf)
	if err != nil {
		return fail(err)
	}
	defer node.stop()
	ref, err := startRef(ctx, logf)
	if err != nil {
		return fail(err)
	}
	defer ref.stop()

	dids, err := listDIDs(ctx, node.urls["JSON-RPC"], o.dids)
	if err != nil {
		return fail(err)
	}
	servers := map[string]*server{"": node}
	all := kinds(dids)
	if o.service {
		extra, err := startServiceNodes(ctx, bin, o.datadir, logf)
		if err != nil {
			return fail(err)
		}
		for name, s := range extra {
			defer s.stop()
			servers[name] = s
		}
		etags, err := etagsOf(ctx, node, dids)
		if err != nil {
			return fail(err)
		}
		all = append(all, serviceKinds(dids, etags)...)
	}
	if o.light || o.eidGeth != "" {
		up, err := startUpstream(ctx, o, dir, logf)
		if err != nil {
			return fail(err)
		}
		defer up.stop()
		light, err := startLight(ctx, bin, up, logf)
		if err != nil {
			return fail(err)
		}
		defer light.stop()
		servers["light"], servers["eid"] = light, up.eid
		all = append(all, lightKinds(up.dids, up.live, up.eid != nil)...)
		if o.eidFollow {
			follower, err := startFollower(ctx, bin, up, logf)
			if err != nil {
				return fail(err)
			}
			defer follower.stop()
			servers["eidf"] = follower
			all = append(all, followerKinds(up.dids)...)
		}
	}
	ks, err := selectKinds(all, o.kinds)
	if err != nil {
		return err
	}
	if o.versus != "" && !slices.ContainsFunc(ks, func(k kind) bool { return k.name == o.versus }) {
		return fmt.Errorf("-versus %s: not one of the kinds run", o.versus)
	}
	urls := make([][2]*url.URL, len(ks))
	for i, k := range ks {
		n, r, err := targets(servers[k.server], ref, k)
		if err != nil {
			return err
		}
		size, err := check(ctx, n.String(), k)
		if err != nil {
			return fail(err)
		}
		if o.sizedRef {
			ks[i].refSize = size
		}
		urls[i] = [2]*url.URL{n, r}
	}
	fmt.Fprintf(stderr, "loadbench: the node (%s) against the reference; wrk %d threads, %d connections, %v a run, %d round(s), %d distinct DIDs\n",
		chainName(o.datadir), o.load.threads, o.load.connections, o.load.duration, o.rounds, len(dids))
	var runs []measurement
	var opens []openMeasurement
	for round := 1; round <= o.rounds; round++ {
		for i, k := range ks {
			for j, s := range []*server{servers[k.server], ref} {
				m, err := measure(ctx, dir, s, urls[i][j], k, o.load)
				if err != nil {
					return fail(err)
				}
				m.Round = round
				runs = append(runs, m)
				fmt.Fprintf(stderr, "  round %d %-15s %-4s %8.0f req/s  p99 %v\n", round, k.name, s.name, m.Rate, m.P99)
			}
			l := o.openLoad(runs[len(runs)-1].Rate)
			for j, s := range []*server{servers[k.server], ref} {
				if l.Rate <= 0 {
					break
				}
				m, err := measureOpen(ctx, dir, s, urls[i][j], k, l)
				if err != nil {
					return fail(err)
				}
				m.Round = round
				opens = append(opens, m)
				fmt.Fprintf(stderr, "  round %d %-15s %-4s %8.0f req/s open  p99 %v %s\n", round, k.name, s.name, m.Rate, m.P99, m.Invalid)
			}
		}
	}
	sum := summarize(runs, ks)
	vs := versus(sum, o.versus)
	osum := summarizeOpens(opens, ks)
	if o.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Runs        []measurement     `json:"runs"`
			Summary     []ratio           `json:"summary"`
			Versus      []relative        `json:"versus,omitempty"`
			Open        []openMeasurement `json:"open,omitempty"`
			OpenSummary []openRatio       `json:"open_summary,omitempty"`
		}{runs, sum, vs, opens, osum})
	}
	printReport(stdout, runs, sum)
	printVersus(stdout, o.versus, vs)
	printOpen(stdout, opens, osum)
	return nil
}

// startUpstream starts the EID upstream of the light node: a live EID
// node with -eid-geth, else the replay.
func startUpstream(ctx context.Context, o options, dir string, logw io.Writer) (*upstream, error) {
	if o.eidGeth != "" {
		return liveUpstream(ctx, o.eidGeth, filepath.Join(dir, "eid"), logw)
	}
	return replayUpstream()
}

// selectKinds keeps the kinds named in list (all but the opt-in ones when
// list is empty).
func selectKinds(all []kind, list string) ([]kind, error) {
	if list == "" {
		return slices.DeleteFunc(slices.Clone(all), func(k kind) bool { return k.optIn }), nil
	}
	var out []kind
	for name := range strings.SplitSeq(list, ",") {
		i := slices.IndexFunc(all, func(k kind) bool { return k.name == name })
		if i < 0 {
			return nil, fmt.Errorf("-kinds: unknown kind %q", name)
		}
		out = append(out, all[i])
	}
	return out, nil
}

// buildNode builds ./cmd/didlight into dir.
func buildNode(ctx context.Context, dir string) (string, error) {
	bin := filepath.Join(dir, "didlight")
	out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/didlight").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build ./cmd/didlight (run loadbench from the repository's root): %v\n%s", err, out)
	}
	return bin, nil
}

// startNode starts `didlight node` on free loopback ports, with flags:
// the demo in memory, or the chain in datadir.
func startNode(ctx context.Context, bin, datadir string, logw io.Writer, flags ...string) (*server, error) {
	args := append([]string{"node", "--rest-addr", "127.0.0.1:0", "--rpc-addr", "127.0.0.1:0"}, flags...)
	if datadir != "" {
		args = append(args, "--datadir", datadir)
	} else {
		args = append(args, "--mem", "--demo")
	}
	s, err := startServer(ctx, "node", exec.Command(bin, args...), logw, func(l string) bool { return strings.HasPrefix(l, "ready") }, 5*time.Minute)
	if err != nil {
		return nil, err
	}
	if s.urls["REST API"] == "" || s.urls["JSON-RPC"] == "" {
		s.stop()
		return nil, fmt.Errorf("the node's banner named no REST API or JSON-RPC URL (%v)", s.urls)
	}
	return s, nil
}

// chainName says which chain the node serves.
func chainName(datadir string) string {
	if datadir == "" {
		return "the demo chain in memory"
	}
	return "the chain in " + datadir
}

// startRef starts the reference handler: this program, as `loadbench ref`.
func startRef(ctx context.Context, logw io.Writer) (*server, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	return startServer(ctx, "ref", exec.Command(self, "ref", "127.0.0.1:0"), logw, func(l string) bool { return strings.HasPrefix(l, "ref ") }, 30*time.Second)
}

// targets are the URLs kind k is sent to: the node's listener URL with the
// kind's path, and the same path on the reference (which answers every
// path), so that both get the same request line.
func targets(node, ref *server, k kind) (nodeURL, refURL *url.URL, err error) {
	base := node.urls["JSON-RPC"]
	switch k.listener {
	case "rest":
		base = node.urls["REST API"]
	case "root":
		base = strings.TrimSuffix(node.urls["REST API"], "/api/v1")
	}
	if nodeURL, err = url.Parse(base + k.path); err != nil {
		return nil, nil, err
	}
	if refURL, err = url.Parse(ref.urls["ref"]); err != nil {
		return nil, nil, err
	}
	refURL.Path = nodeURL.Path
	return nodeURL, refURL, nil
}

// measurement is one wrk run against one server.
type measurement struct {
	Round     int           `json:"round"`
	Kind      string        `json:"kind"`
	Server    string        `json:"server"` // "node" or "ref"
	Requests  int64         `json:"requests"`
	Size      int64         `json:"bytes_per_answer"` // as wrk read it: body and headers
	Rate      float64       `json:"req_per_s"`
	P50       time.Duration `json:"p50_ns"`
	P99       time.Duration `json:"p99_ns"`
	CPUPerReq time.Duration `json:"server_cpu_per_req_ns"`
	cpu       time.Duration // the server's CPU time during the run
	elapsed   time.Duration // the run's length, as wrk timed it
}

// measure runs wrk with kind k against s at target and reads s's CPU
// time around it.
func measure(ctx context.Context, dir string, s *server, target *url.URL, k kind, l load) (measurement, error) {
	before, err := cpuTime(s.pid)
	if err != nil {
		return measurement{}, err
	}
	r, err := runWrk(ctx, dir, target, k, l)
	if err != nil {
		return measurement{}, err
	}
	after, err := cpuTime(s.pid)
	if err != nil {
		return measurement{}, err
	}
	if r.sockErrors > 0 || r.statusErrors > 0 {
		return measurement{}, fmt.Errorf("%s %s: %d socket errors and %d error statuses in %d requests", s.name, k.name, r.sockErrors, r.statusErrors, r.requests)
	}
	return measurement{Kind: k.name, Server: s.role(), Requests: r.requests, Size: r.bytes / r.requests, Rate: r.rate(), P50: r.p50, P99: r.p99,
		CPUPerReq: (after - before) / time.Duration(r.requests), cpu: after - before, elapsed: r.elapsed}, nil
}

// tail is the end of b, at most n bytes.
func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
