package eidtest

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/didlight/didlight/host/internal/eidtest/eidnode"
	"github.com/didlight/didlight/host/internal/eidtest/scenario"
)

// GethEnv names the variable holding the path of a geth built from
// elastos/Elastos.ELA.SideChain.EID: set (as `make eidtest` sets it),
// [NewUpstream] runs a live node instead of the replay.
const GethEnv = "EID_GETH"

// Upstream is an EID node for a test, and what the scenario did on it.
type Upstream struct {
	*Server
	// Manifest is the scenario's manifest up to the checkpoint: assert
	// against it and against what the upstream answers, never against
	// txids or times written in a test.
	Manifest *scenario.Manifest
	Live     bool // a live node, not the replay
}

// NewUpstream returns an EID upstream at opts.Checkpoint: the replay of
// the committed recording, or, with EID_GETH set, a live private node on
// which the scenario ran fresh up to that checkpoint (started once per
// test binary and checkpoint, inside the network namespace the test runs
// in). Options apply in both modes.
func NewUpstream(t testing.TB, opts Options) *Upstream {
	t.Helper()
	if opts.Checkpoint == "" {
		opts.Checkpoint = scenario.Final
	}
	if !slices.Contains(scenario.Checkpoints, opts.Checkpoint) {
		t.Fatalf("eidtest: no checkpoint %q; the scenario has %v", opts.Checkpoint, scenario.Checkpoints)
	}
	if geth := os.Getenv(GethEnv); geth != "" {
		l, err := liveNode(geth, opts.Checkpoint)
		if err != nil {
			t.Fatalf("eidtest: live EID node (%s=%s): %v", GethEnv, geth, err)
		}
		return &Upstream{Server: newServer(t, l, opts), Manifest: l.manifest, Live: true}
	}
	r, m, err := loadReplay(opts.Checkpoint)
	if err != nil {
		t.Fatal(err)
	}
	return &Upstream{Server: newServer(t, r, opts), Manifest: m}
}

// NewReplay returns a server answering from the committed recording at
// opts.Checkpoint, whatever EID_GETH says, and the manifest up to it.
func NewReplay(t testing.TB, opts Options) *Upstream {
	t.Helper()
	if opts.Checkpoint == "" {
		opts.Checkpoint = scenario.Final
	}
	r, m, err := loadReplay(opts.Checkpoint)
	if err != nil {
		t.Fatal(err)
	}
	return &Upstream{Server: newServer(t, r, opts), Manifest: m}
}

// Handler returns an HTTP handler answering as an EID node from the
// committed recording at checkpoint, and the manifest up to it: the replay
// [NewReplay] serves, for a program that serves it outside a test (a
// benchmark's upstream, in a process apart from the one it measures).
func Handler(checkpoint string) (http.Handler, *scenario.Manifest, error) {
	r, m, err := loadReplay(checkpoint)
	if err != nil {
		return nil, nil, err
	}
	s := &Server{src: r}
	return http.HandlerFunc(s.serveHTTP), m, nil
}

// Recording holds the committed recording, read once.
type Recording struct {
	Manifest    *scenario.Manifest
	Chain       []Exchange            // chain.jsonl
	Checkpoints map[string][]Exchange // by checkpoint name
}

var (
	loadOnce sync.Once
	loaded   *Recording
	loadErr  error
)

// Load reads the committed recording (once per test binary).
func Load() (*Recording, error) {
	loadOnce.Do(func() {
		dir, err := recordingDir()
		if err != nil {
			loadErr = err
			return
		}
		rec := &Recording{Checkpoints: map[string][]Exchange{}}
		if rec.Manifest, err = scenario.Load(filepath.Join(dir, ManifestFile)); err != nil {
			loadErr = err
			return
		}
		if rec.Chain, err = ReadFile(filepath.Join(dir, ChainRPCFile)); err != nil {
			loadErr = err
			return
		}
		for _, c := range rec.Manifest.Checkpoints {
			if rec.Checkpoints[c.Name], err = ReadFile(filepath.Join(dir, CheckpointFile(c.Name))); err != nil {
				loadErr = err
				return
			}
		}
		loaded = rec
	})
	return loaded, loadErr
}

// loadReplay indexes the checkpoint's answers, then the chain's.
func loadReplay(checkpoint string) (*replay, *scenario.Manifest, error) {
	rec, err := Load()
	if err != nil {
		return nil, nil, err
	}
	m, err := rec.Manifest.StepsUntil(checkpoint)
	if err != nil {
		return nil, nil, err
	}
	r := &replay{checkpoint: checkpoint, answers: map[string][]byte{}}
	for _, xs := range [][]Exchange{rec.Checkpoints[checkpoint], rec.Chain} {
		for _, x := range xs {
			if err := r.add(x); err != nil {
				return nil, nil, err
			}
		}
	}
	return r, m, nil
}

// live is a node the scenario ran on, shared by the tests of one binary.
type live struct {
	node     *eidnode.Node
	manifest *scenario.Manifest
}

func (l *live) answer(ctx context.Context, req request) ([]byte, error) {
	_, body, err := l.node.Post(ctx, req.raw)
	if err != nil {
		return nil, err
	}
	return NewExchange("", req.raw, 0, body).Response, nil
}

var (
	liveMu    sync.Mutex
	liveNodes = map[string]*live{} // by checkpoint
	liveDirs  []string
)

// liveNode returns the node at checkpoint, starting it and running the
// scenario on it the first time.
func liveNode(geth, checkpoint string) (*live, error) {
	liveMu.Lock()
	defer liveMu.Unlock()
	if l, ok := liveNodes[checkpoint]; ok {
		return l, nil
	}
	dir, err := os.MkdirTemp("", "eidtest-")
	if err != nil {
		return nil, err
	}
	liveDirs = append(liveDirs, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	n, err := eidnode.Start(ctx, eidnode.Config{Geth: geth, Dir: dir})
	if err != nil {
		return nil, err
	}
	m, err := scenario.Run(ctx, n, scenario.Hooks{Until: checkpoint})
	if err != nil {
		n.Stop()
		return nil, err
	}
	l := &live{node: n, manifest: m}
	liveNodes[checkpoint] = l
	return l, nil
}

// Main runs a package's tests (call it from TestMain), then stops the live
// nodes they started and removes their files. Without it, a live node dies
// with the test binary (it is started with a parent-death signal) but its
// files stay in the temporary directory.
func Main(m *testing.M) int {
	code := m.Run()
	liveMu.Lock()
	defer liveMu.Unlock()
	for _, l := range liveNodes {
		l.node.Stop()
	}
	for _, d := range liveDirs {
		os.RemoveAll(d)
	}
	return code
}
