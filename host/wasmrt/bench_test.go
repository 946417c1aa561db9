package wasmrt_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/cputime"
	"github.com/didlight/didlight/wasm/abi"
)

// BenchmarkVerifyHistory10 verifies the resolve result of a DID with ten
// operations (a create and nine updates: 20 signatures, ten documents) in
// every way there is, interleaved in each iteration so that one run gives
// comparable numbers: natively (resolve.Verify), through the module in
// wazero with the host's crypto and without it, and through the JS loader
// in Node (a child process running wasm/js/bench.mjs) with node:crypto and
// without. Each is timed in CPU time (in the child, Node's own), reported
// as <way>-ms/op, and as <way>/native, its ratio to native verification.
func BenchmarkVerifyHistory10(b *testing.B) {
	host, fallback := runtimes(b)
	ctx := context.Background()
	h := newHistory(b, "user4.id.primary", 9, false)
	tip := t0.AddDate(0, 0, 30)
	result := h.result(b, true, tip)
	in, err := json.Marshal(abi.VerifyResolveResultInput{Result: result, Now: tip})
	if err != nil {
		b.Fatal(err)
	}
	wazero := func(name string) func() error {
		rt := map[string]any{"wazero": host, "wazero-fallback": fallback}[name]
		r := rt.(interface {
			Call(context.Context, string, []byte, abi.Env) ([]byte, error)
		})
		return func() error {
			out, err := r.Call(ctx, "verify_resolve_result", in, abi.Env{})
			if err == nil && !strings.HasPrefix(string(out), `{"result":`) {
				err = fmt.Errorf("%s", out)
			}
			return err
		}
	}
	ways := []struct {
		name string
		run  func() (time.Duration, error) // the CPU time one verification took
	}{
		{"native", timed(func() error {
			_, err := resolve.Verify(result, nil, keys.Native{}, tip)
			return err
		})},
		{"wazero", timed(wazero("wazero"))},
		{"wazero-fallback", timed(wazero("wazero-fallback"))},
	}
	for _, hostCrypto := range []bool{true, false} {
		child, err := startNode(b, result, hostCrypto)
		if err != nil {
			b.Logf("no Node measurement: %v", err)
			break
		}
		name := map[bool]string{true: "node", false: "node-fallback"}[hostCrypto]
		ways = append(ways, struct {
			name string
			run  func() (time.Duration, error)
		}{name, child.verify})
	}
	spent := make([]time.Duration, len(ways))
	for b.Loop() {
		for i, w := range ways {
			d, err := w.run()
			if err != nil {
				b.Fatalf("%s: %v", w.name, err)
			}
			spent[i] += d
		}
	}
	for i, w := range ways {
		b.ReportMetric(float64(spent[i].Nanoseconds())/float64(b.N)/1e6, w.name+"-ms/op")
		if i > 0 {
			b.ReportMetric(float64(spent[i])/float64(spent[0]), w.name+"/native")
		}
	}
}

// timed returns f measured in this process's CPU time.
func timed(f func() error) func() (time.Duration, error) {
	return func() (time.Duration, error) {
		t0 := cputime.Now()
		err := f()
		return cputime.Now() - t0, err
	}
}

// nodeChild is wasm/js/bench.mjs serving verifications over its stdin and
// stdout.
type nodeChild struct {
	in  *bufio.Writer
	out *bufio.Scanner
}

// startNode starts the Node benchmark on the module under test and the
// result, and waits until it has verified the result once.
func startNode(b *testing.B, result []byte, hostCrypto bool) (*nodeChild, error) {
	node := loaderNode(b)
	dir := b.TempDir()
	wasmFile, historyFile := filepath.Join(dir, "didlight.wasm"), filepath.Join(dir, "result.json")
	if err := os.WriteFile(wasmFile, module(b), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(historyFile, result, 0o644); err != nil {
		return nil, err
	}
	args := []string{"--no-warnings", "../../wasm/js/bench.mjs", "--serve", "--wasm", wasmFile, "--history", historyFile}
	if !hostCrypto {
		args = append(args, "--no-host-crypto")
	}
	cmd := exec.Command(node, args...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	b.Cleanup(func() {
		stdin.Close()
		cmd.Wait()
	})
	c := &nodeChild{in: bufio.NewWriter(stdin), out: bufio.NewScanner(stdout)}
	if !c.out.Scan() || c.out.Text() != "ready" {
		return nil, fmt.Errorf("bench.mjs did not start: %q %v", c.out.Text(), c.out.Err())
	}
	return c, nil
}

// verify asks the child for one verification and returns the CPU time
// the child spent on it.
func (c *nodeChild) verify() (time.Duration, error) {
	c.in.WriteString("\n")
	if err := c.in.Flush(); err != nil {
		return 0, err
	}
	if !c.out.Scan() {
		return 0, fmt.Errorf("bench.mjs stopped: %v", c.out.Err())
	}
	ns, ok := strings.CutPrefix(c.out.Text(), "ok ")
	if !ok {
		return 0, fmt.Errorf("bench.mjs: %s", c.out.Text())
	}
	n, err := strconv.ParseFloat(ns, 64)
	return time.Duration(n), err
}
