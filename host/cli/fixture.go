package cli

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/eidindex"
	"github.com/didlight/didlight/host/internal/fixture"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/bolt"
)

// devnetStoreLock is how long export and import wait for a running node
// to release the data directory.
const devnetStoreLock = 2 * time.Second

func devnetExport(e *env, args []string) error {
	c := newCommand("devnet export", "FILE", `
Writes the chain of a data directory (stop its node first) to FILE: its dev
seed, genesis, and every block after genesis with its DPoS confirm, versioned
and checksummed. Check the file into a repository; "didlight node --import
FILE" or "didlight devnet import" starts a chain from it, validating every
block. The mempool is not exported. The data directory of a fork of an EID
node (node --fork) exports the DIDs it took too, and an EID follower's (node
--follow of an EID node) every DID it indexed, as a chain of --dev-seed with
no block yet: a devnet loading the file holds the real chain's DIDs
(docs/eid-fork.md).`, `
  didlight devnet export --datadir ./didlight-data testdata/chain.fixture
  didlight devnet export --datadir ./d --dev-seed team testdata/chain.fixture`)
	var dir, seed string
	c.fs.StringVar(&dir, "datadir", "./didlight-data", "the data directory of the chain to export")
	c.fs.StringVar(&seed, "dev-seed", "didlight", "the dev seed the chain was made with")
	file, err := oneArg(c, e, args, "FILE")
	if err != nil {
		return err
	}
	db, err := openDevnetStore(dir)
	if err != nil {
		return err
	}
	defer db.Close()
	f, err := exportStore(db, seed)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		return err
	}
	if err := writeAtomic(file, buf.Bytes(), 0o644); err != nil { // a file to share, as any other in a repository
		return err
	}
	dids := ""
	if len(f.DIDs) > 0 {
		dids = fmt.Sprintf(" and %d DIDs of EID", len(f.DIDs))
	}
	fmt.Fprintf(e.stdout, "exported %d blocks after genesis (dev seed %q)%s to %s\n", len(f.Blocks), f.Seed, dids, file)
	return nil
}

// exportStore returns the fixture of the store: an EID follower's index,
// or a chain of dev seed seed.
func exportStore(db store.DB, seed string) (*fixture.File, error) {
	if _, follower, err := eidindex.Holds(db); err != nil || follower {
		if err != nil {
			return nil, err
		}
		return fixture.ExportEID(db, seed)
	}
	ch, err := chain.Open(chain.Config{DB: db, DevSeed: seed})
	if err != nil {
		return nil, err
	}
	defer ch.Close()
	return fixture.Export(ch)
}

func devnetImport(e *env, args []string) error {
	c := newCommand("devnet import", "FILE", `
Loads the fixture FILE (written by "didlight devnet export") into a data
directory that holds no chain yet, or only its genesis, validating every block
as a follower does. The data directory then takes the file's dev seed and
genesis time: run "didlight node --datadir DIR --dev-seed SEED" on it. A
foreign or corrupt file, or a block the chain refuses, changes nothing.`, `
  didlight devnet import --datadir ./d testdata/chain.fixture`)
	var dir, seed string
	c.fs.StringVar(&dir, "datadir", "./didlight-data", "the data directory to load the chain into")
	c.fs.StringVar(&seed, "dev-seed", "", "refuse a file of another dev seed than this one")
	file, err := oneArg(c, e, args, "FILE")
	if err != nil {
		return err
	}
	f, err := readFixture(file)
	if err != nil {
		return err
	}
	// Validated before the data directory is opened, which would make it.
	if err := fixture.Validate(context.Background(), chain.Config{DevSeed: seed}, f); err != nil {
		return err
	}
	db, err := openDevnetStore(dir)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := fixture.Import(context.Background(), db, chain.Config{DevSeed: seed}, f); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "imported %d blocks after genesis (dev seed %q) into %s\n", len(f.Blocks), f.Seed, db.Path())
	return nil
}

// importFixture loads cfg.importFile into db before the node opens its
// chain (`didlight node --import`), and takes the file's dev seed when
// --dev-seed was not given.
func importFixture(ctx context.Context, cfg *nodeConfig, db store.DB, engine chain.Engine, log *slog.Logger) error {
	if cfg.importFile == "" {
		return nil
	}
	f, err := readFixture(cfg.importFile)
	if err != nil {
		return err
	}
	err = fixture.Import(ctx, db, chain.Config{DevSeed: cfg.devSeed, GenesisTime: cfg.genesisTime, Engine: engine, Logger: log}, f)
	if err != nil {
		return err
	}
	cfg.devSeed = f.Seed
	log.Info("fixture imported", "file", cfg.importFile, "blocks", len(f.Blocks))
	return nil
}

// readFixture reads the fixture file at path.
func readFixture(path string) (*fixture.File, error) {
	r, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	f, err := fixture.Read(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// openDevnetStore opens the store of a data directory that no node holds.
func openDevnetStore(dir string) (*bolt.DB, error) {
	db, err := bolt.Open(dir, bolt.Options{LockTimeout: devnetStoreLock})
	if err != nil {
		return nil, fmt.Errorf("%w (stop the node that uses %s first)", err, dir)
	}
	return db, nil
}

// oneArg parses args, which must hold exactly one positional argument,
// named name in the error, and returns it.
func oneArg(c *cmdSpec, e *env, args []string, name string) (string, error) {
	rest, err := c.parse(e, args)
	if err != nil {
		return "", err
	}
	if len(rest) != 1 {
		return "", usagef("want one argument, %s; got %d (run \"didlight %s -h\")", name, len(rest), c.name)
	}
	return rest[0], nil
}
