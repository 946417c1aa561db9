// Command scalebench measures the node as its chain grows.
//
// It measures the node as its chain grows (`make scalebench`): for each size
// it generates a chain (`didlight devnet generate`, cached on disk), then,
// in a child process of its own that holds nothing else, opens the store and
// measures resolve and query CPU per call through the chain's API, RSS, and
// a follower's catch-up; the node's start time and RSS are those of
// `didlight node` started on the chain. It prints a Markdown table, one
// column per size.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	var err error
	if len(os.Args) > 2 && os.Args[1] == "measure" {
		err = measureChild(ctx, os.Args[2], os.Args[3:], os.Stdout)
	} else {
		err = run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "scalebench:", err)
		os.Exit(1)
	}
}

// options are scalebench's flags.
type options struct {
	sizes    []int
	cache    string
	seed     string
	requests int
	follow   bool
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	fs := flag.NewFlagSet("scalebench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sizes := fs.String("sizes", "10000,100000", "chain sizes in DIDs, comma-separated")
	var o options
	fs.StringVar(&o.cache, "cache", filepath.Join(os.TempDir(), "didlight-scalebench"), "where generated chains are kept between runs")
	fs.StringVar(&o.seed, "seed", "didlight", "the seed of the generated DIDs")
	fs.IntVar(&o.requests, "requests", 100_000, "mixed resolve and query calls made before RSS is read again")
	fs.BoolVar(&o.follow, "follow", true, "measure a follower catching up (as long again as a generation; -follow=false skips it)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	for s := range strings.SplitSeq(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return o, fmt.Errorf("-sizes: %q is not a number of DIDs", s)
		}
		o.sizes = append(o.sizes, n)
	}
	if o.requests < 1 {
		return o, fmt.Errorf("-requests %d: want at least 1", o.requests)
	}
	return o, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	bin := filepath.Join(o.cache, "didlight")
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/didlight").CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/didlight (run scalebench from the repository's root): %v\n%s", err, out)
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	var cols []*result
	for _, n := range o.sizes {
		dir := filepath.Join(o.cache, fmt.Sprintf("%s-%d", o.seed, n))
		gen, err := generate(ctx, bin, dir, o.seed, n, stderr)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "scalebench: measuring %d DIDs\n", n)
		r, err := measure(ctx, self, bin, dir, o, n)
		if err != nil {
			return err
		}
		r.Generation = gen
		cols = append(cols, r)
	}
	return writeTable(stdout, cols)
}

// generation is what generating a chain cost, kept beside it.
type generation struct {
	WallSeconds float64 `json:"wallSeconds"`
	CPUSeconds  float64 `json:"cpuSeconds"`
	StoreBytes  int64   `json:"storeBytes"`
}

// generationFile holds the generation's cost in the chain's directory.
const generationFile = "generation.json"

// generate returns the cost of the chain in dir, generating it first with
// `didlight devnet generate` unless it is there.
func generate(ctx context.Context, bin, dir, seed string, n int, stderr io.Writer) (generation, error) {
	var g generation
	if b, err := os.ReadFile(filepath.Join(dir, generationFile)); err == nil {
		return g, json.Unmarshal(b, &g)
	} else if !errors.Is(err, os.ErrNotExist) {
		return g, err
	}
	fmt.Fprintf(stderr, "scalebench: generating %d DIDs into %s\n", n, dir)
	cmd := exec.CommandContext(ctx, bin, "devnet", "generate", "--dids", strconv.Itoa(n), "--datadir", dir, "--seed", seed, "--force", "--plain-progress")
	cmd.Stdout, cmd.Stderr = stderr, stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return g, fmt.Errorf("generating %d DIDs: %v", n, err)
	}
	g.WallSeconds = time.Since(start).Seconds()
	g.CPUSeconds = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	info, err := os.Stat(filepath.Join(dir, "didlight.db"))
	if err != nil {
		return g, err
	}
	g.StoreBytes = info.Size()
	b, err := json.MarshalIndent(g, "", "  ")
	if err != nil {
		return g, err
	}
	return g, os.WriteFile(filepath.Join(dir, generationFile), b, 0o600)
}
