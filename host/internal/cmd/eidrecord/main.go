// Command eidrecord records a private EID node's answers to the EID test scenario.
//
// It runs the EID test scenario on a fresh private EID node and records the
// node's JSON-RPC answers into the eidtest package's testdata. Run it
// through `make eidrecord EID_GETH=/path/to/geth`, which starts it inside a
// network namespace of its own.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"log"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/didlight/didlight/host/internal/eidtest"
	"github.com/didlight/didlight/host/internal/eidtest/eidnode"
	"github.com/didlight/didlight/host/internal/eidtest/scenario"
)

func main() {
	geth := flag.String("geth", "", "a geth built from elastos/Elastos.ELA.SideChain.EID (required)")
	out := flag.String("out", filepath.Join("host", "internal", "eidtest", eidtest.Dir), "the directory the recording replaces")
	source := flag.String("source", "", "what the geth was built from (repository and tag or commit), noted in chain.json")
	flag.Parse()
	if *geth == "" {
		log.Fatal("eidrecord: -geth is required")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *geth, *out, *source); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, geth, out, source string) error {
	work, err := os.MkdirTemp("", "eidrecord-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	tmp := out + ".new"
	if err := os.RemoveAll(tmp); err != nil {
		return err
	}
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return err
	}
	n, err := eidnode.Start(ctx, eidnode.Config{Geth: geth, Dir: work})
	if err != nil {
		return err
	}
	defer n.Stop()
	rec := &recorder{client: &n.Client}
	m, err := scenario.Run(ctx, n, scenario.Hooks{
		Log: log.Printf,
		Checkpoint: func(ctx context.Context, c scenario.Checkpoint, m *scenario.Manifest) error {
			rec.reset()
			if err := rec.checkpoint(ctx, m); err != nil {
				return err
			}
			return rec.save(filepath.Join(tmp, eidtest.CheckpointFile(c.Name)))
		},
	})
	if err != nil {
		return err
	}
	rec.reset()
	if err := rec.chain(ctx, m); err != nil {
		return err
	}
	if err := rec.save(filepath.Join(tmp, eidtest.ChainRPCFile)); err != nil {
		return err
	}
	if err := writeJSON(filepath.Join(tmp, eidtest.ManifestFile), m); err != nil {
		return err
	}
	if err := writeJSON(filepath.Join(tmp, eidtest.ChainFile), chainInfo(ctx, n, geth, source)); err != nil {
		return err
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	if err := os.Rename(tmp, out); err != nil {
		return err
	}
	log.Printf("recorded %d steps and %d checkpoints into %s", len(m.Steps), len(m.Checkpoints), out)
	return nil
}

// info is chain.json: what recorded the answers, on which chain.
type info struct {
	ClientVersion string          `json:"clientVersion"` // web3_clientVersion
	GethVersion   []string        `json:"gethVersion"`   // `geth version`, line by line
	Source        string          `json:"source,omitempty"`
	Signer        string          `json:"signer"`
	Genesis       json.RawMessage `json:"genesis"`
}

func chainInfo(ctx context.Context, n *eidnode.Node, geth, source string) info {
	var v string
	if err := n.Call(ctx, &v, "web3_clientVersion"); err != nil {
		v = "unknown: " + err.Error()
	}
	outb, _ := exec.CommandContext(ctx, geth, "version").Output()
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(string(outb)), "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	return info{ClientVersion: v, GethVersion: lines, Source: source, Signer: n.Signer, Genesis: n.Genesis}
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

func init() {
	log.SetFlags(log.Ltime)
	log.SetPrefix("eidrecord ")
}
