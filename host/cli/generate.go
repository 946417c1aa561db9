package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"slices"
	"syscall"
	"time"

	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/chaingen"
	"github.com/didlight/didlight/host/internal/store/bolt"
)

// generatedFile is the file `devnet generate` leaves beside the store it
// wrote: what it generated, so that --force replaces only its own chains.
const generatedFile = "generated.json"

// generatedDir is where a generation in progress writes its store; it is
// renamed into place once complete.
const generatedDir = ".generating"

// generated is the content of generatedFile.
type generated struct {
	Seed    string `json:"seed"`
	DevSeed string `json:"devSeed"`
	DIDs    int    `json:"dids"`
	Height  uint32 `json:"height"`
	Tip     string `json:"tip"`
}

func devnetGenerate(e *env, args []string) error {
	c := newCommand("devnet generate", "", `
Writes a chain of --dids DIDs into a new data directory, for measuring and
testing at scale: real signed DID and credential operations in blocks the
chain validates (a node started on it serves it, and followers sync it),
with a realistic mix: standard and customized DIDs, 0-5 services and 0-8
credentials of a few dozen types, updates, expiries, declared and revoked
credentials, deactivations. The same --seed always gives the same chain.
Requests are signed on every core; progress goes to stderr.

A data directory that is not empty is refused unless --force is given, and
--force replaces only a chain this command generated there.`, `
  didlight devnet generate --dids 10000 --datadir /tmp/chain10k
  didlight node --datadir /tmp/chain10k --block-time 10s
  didlight devnet generate --dids 100000 --datadir /tmp/chain100k --seed bench --force`)
	var (
		dids          int
		dir, seed     string
		devSeed       string
		force         bool
		plainProgress bool
	)
	c.fs.IntVar(&dids, "dids", 0, "how many DIDs to generate (required)")
	c.fs.StringVar(&dir, "datadir", "", "the data directory to write (required)")
	c.fs.StringVar(&seed, "seed", "didlight", "the seed the DIDs derive from")
	c.fs.StringVar(&devSeed, "dev-seed", chain.DefaultDevSeed, "the chain's dev seed (as `didlight node --dev-seed`)")
	c.fs.BoolVar(&force, "force", false, "replace a chain this command generated in --datadir before")
	c.fs.BoolVar(&plainProgress, "plain-progress", false, "print progress as lines even on a terminal")
	if err := noArgs(c, e, args); err != nil {
		return err
	}
	switch {
	case dids < 1:
		return usagef("--dids must be at least 1, not %d", dids)
	case dir == "":
		return usagef("--datadir is required")
	case seed == "" || devSeed == "":
		return usagef("--seed and --dev-seed must not be empty")
	}
	if err := clearDataDir(dir, devSeed, force); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	tmp := filepath.Join(dir, generatedDir)
	if err := os.RemoveAll(tmp); err != nil {
		return err
	}
	// Not a data directory until install copies it into place: no commit
	// needs a sync, and the copy is synced once.
	db, err := bolt.Open(tmp, bolt.Options{NoSync: true})
	if err != nil {
		return err
	}
	defer tuneGC(e.getenv)()
	bar := e.term.isTerminal(e.stderr) && !plainProgress
	show := newProgress(e.stderr, bar, time.Now)
	rep, err := chaingen.Generate(ctx, db, chaingen.Options{Seed: seed, DIDs: dids, DevSeed: devSeed, Progress: show.update})
	show.end()
	g := generated{Seed: seed, DevSeed: devSeed, DIDs: dids, Height: rep.Height}
	what := "the partial chain"
	if err == nil {
		what = "the generated chain"
		err = install(ctx, e, dir, db, g, bar)
	}
	// The store in tmp is removed once installed; until then the kernel
	// has its pages, and a sync would only write them to the disk.
	if cerr := db.CloseUnsynced(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%w (%s is in %s; --force removes it)", err, what, tmp)
	}
	if err := os.RemoveAll(tmp); err != nil {
		return err
	}
	path := filepath.Join(dir, bolt.FileName)
	size := int64(0)
	if info, err := os.Stat(path); err == nil {
		size = info.Size()
	}
	fmt.Fprintf(e.stdout, "generated %d DIDs (%d operations) in %d blocks, tip %d, in %s: %s, %.1f MB\nstart a node on it: didlight node --datadir %s\n",
		rep.DIDs, rep.Ops, rep.Height, rep.Height, show.elapsed().Round(time.Millisecond), path, float64(size)/1e6, dir)
	return nil
}

// How a generation has the garbage collector work, unless GOGC or
// GOMEMLIMIT say otherwise: it allocates much and keeps little, so
// collecting at five times the live heap rather than twice saves CPU for
// memory, and the limit bounds the memory.
const (
	generateGCPercent = 400
	generateMemLimit  = 3 << 30
)

// gcByEnv says whether GOGC or GOMEMLIMIT set the collector's policy: then
// a command keeps it rather than its own.
func gcByEnv(getenv func(string) string) bool {
	return getenv("GOGC") != "" || getenv("GOMEMLIMIT") != ""
}

// tuneGC sets the collector for a generation, and returns what restores it.
func tuneGC(getenv func(string) string) (restore func()) {
	if gcByEnv(getenv) {
		return func() {}
	}
	percent := debug.SetGCPercent(generateGCPercent)
	limit := debug.SetMemoryLimit(generateMemLimit)
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}

// install writes dir's generatedFile for g, then the store db as dir's
// store, compacted (bolt.InstallInto): a chain written block by block has
// its buckets' pages interleaved, and this copy, which moving the store
// into place needs anyway, lays each bucket out in one run of pages. A
// disk without room for the copy gets the store as written, and a note.
func install(ctx context.Context, e *env, dir string, db *bolt.DB, g generated, bar bool) error {
	c, err := chain.Open(chain.Config{DB: db, DevSeed: g.DevSeed})
	if err != nil {
		return err
	}
	_, tip, _ := c.Tip()
	g.Tip = tip.String()
	c.Close()
	b, err := json.MarshalIndent(g, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, generatedFile), append(b, '\n'), 0o600); err != nil {
		return err
	}
	total := int64(0)
	if info, err := os.Stat(db.Path()); err == nil {
		total = info.Size()
	}
	stop := watchCompaction(e, dir, total, bar)
	compacted, err := db.InstallInto(ctx, dir)
	stop()
	if err == nil && !compacted {
		fmt.Fprintf(e.stderr, "note: too little free disk space in %s to compact the store (a copy of up to %.1f MB): moved into place as written; `didlight compact --datadir %s` lays it out for faster scans once there is room\n",
			dir, float64(total)/1e6, dir)
	}
	return err
}

// clearDataDir checks that dir may be generated into: absent or empty,
// or, with force, holding nothing but a chain this command generated
// (which it removes) and other files it leaves alone. A store another
// node wrote is never touched.
func clearDataDir(dir, devSeed string, force bool) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return usagef("--datadir %s: %v", dir, err)
	case len(entries) == 0:
		return nil
	case !force:
		return usagef("--datadir %s is not empty; give --force to replace a chain generated there before", dir)
	}
	names := make([]string, len(entries))
	for i, en := range entries {
		names[i] = en.Name()
	}
	if slices.Contains(names, bolt.FileName) {
		if err := checkGenerated(dir, devSeed); err != nil {
			return err
		}
	}
	for _, name := range []string{bolt.FileName, generatedFile, generatedDir} {
		if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return nil
}

// checkGenerated returns an error unless the store in dir holds the chain
// its generatedFile describes (perhaps grown since by a node).
func checkGenerated(dir, devSeed string) error {
	refuse := func(why string) error {
		return usagef("--datadir %s holds a chain this command did not generate (%s): not touching it", dir, why)
	}
	b, err := os.ReadFile(filepath.Join(dir, generatedFile))
	if err != nil {
		return refuse("no " + generatedFile)
	}
	var g generated
	if err := json.Unmarshal(b, &g); err != nil {
		return refuse(generatedFile + " does not read: " + err.Error())
	}
	db, err := bolt.Open(dir, bolt.Options{})
	if err != nil {
		return err
	}
	defer db.Close()
	if g.DevSeed != "" {
		devSeed = g.DevSeed
	}
	c, err := chain.Open(chain.Config{DB: db, DevSeed: devSeed})
	if err != nil {
		return refuse(err.Error())
	}
	defer c.Close()
	h, err := c.BlockHash(g.Height)
	if err != nil || h.String() != g.Tip {
		return refuse(fmt.Sprintf("its block %d is not the generated tip %s", g.Height, g.Tip))
	}
	return nil
}
