package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/didlight/didlight/host/internal/api"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/wasmrt"
	"github.com/didlight/didlight/wasm/js"
	"github.com/didlight/didlight/web"
)

// nodeModule is the WebAssembly module the node has: from --module, or
// embedded in the binary; bytes is nil when it has none, and missing says
// why.
type nodeModule struct {
	bytes   []byte
	brotli  []byte // the module compressed with brotli, when the build wrote it beside the module (FILE.br for --module FILE); nil for none
	from    string // "embedded" or the file's path
	missing string
}

// loadModule finds the module: the --module file (which must be
// readable), else the one embedded in the binary, if any.
func loadModule(cfg nodeConfig) (nodeModule, error) {
	if cfg.modulePath != "" {
		b, err := os.ReadFile(cfg.modulePath)
		if err != nil {
			return nodeModule{}, fmt.Errorf("--module: %w", err)
		}
		br, _ := os.ReadFile(cfg.modulePath + ".br") // optional; the web app checks it is b's
		return nodeModule{bytes: b, brotli: br, from: cfg.modulePath}, nil
	}
	b, err := js.Module()
	if err != nil {
		return nodeModule{missing: err.Error() + ", or give the node one with --module FILE"}, nil
	}
	br, _ := js.ModuleBrotli() // optional, as above
	return nodeModule{bytes: b, brotli: br, from: "embedded"}, nil
}

// startEngine returns the chain's engine for --engine, and what closes it
// (after the chain). The wasm engine compiles the module in wazero (cached
// on disk after the first run) and runs every validation through it.
func startEngine(ctx context.Context, cfg nodeConfig, m nodeModule, log *slog.Logger) (chain.Engine, func() error, error) {
	if cfg.engine != engineWasm {
		return chain.Native{}, func() error { return nil }, nil
	}
	if m.bytes == nil {
		return nil, nil, errors.New("--engine wasm: " + m.missing)
	}
	log.Info("compiling the wasm engine: the first time takes seconds to a minute, later starts read wazero's cache",
		"module", m.from, "bytes", len(m.bytes))
	start := time.Now()
	stop := every(compileProgress, func() { log.Info("still compiling the wasm engine", "elapsed", time.Since(start).Round(time.Second)) })
	rt, err := wasmrt.New(ctx, m.bytes)
	stop()
	if err != nil {
		return nil, nil, fmt.Errorf("--engine wasm: %w", err)
	}
	log.Info("wasm engine ready", "module", m.from, "bytes", len(m.bytes), "took", time.Since(start).Round(time.Millisecond))
	return wasmrt.NewEngine(rt), func() error { return rt.Close(context.Background()) }, nil
}

// compileProgress is how often the node says it is still compiling the
// module for --engine wasm.
var compileProgress = 5 * time.Second

// every calls f every interval until stop is called; f is not called once
// stop has returned.
func every(interval time.Duration, f func()) (stop func()) {
	done, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				f()
			}
		}
	}()
	return func() { close(done); <-exited }
}

// webApp is the browser app with what the binary has of the module and
// its WASI shim; without them it still serves, and says why it cannot
// verify.
func webApp(m nodeModule) http.Handler {
	o := web.Options{Module: m.bytes, ModuleBrotli: m.brotli, Missing: m.missing}
	if shim, err := js.Shim(); err == nil {
		o.Shim = shim
	} else if o.Missing == "" {
		o.Missing = err.Error()
	}
	return web.Handler(o)
}

// engineLine describes the engine in the banner.
func engineLine(cfg nodeConfig, m nodeModule) string {
	if cfg.engine == engineWasm {
		return fmt.Sprintf("wasm: didlight.wasm (%s, %d bytes) in wazero validates transactions and DID operations", m.from, len(m.bytes))
	}
	return "native: core in this process validates transactions and DID operations"
}

// webLine describes the browser app in the banner.
func webLine(srv *api.Server, m nodeModule) string {
	url := strings.TrimSuffix(srv.RESTURL(), "api/v1")
	if m.bytes == nil {
		return url + "  (without the module: it shows answers unverified; `make build` embeds it)"
	}
	if _, err := js.Shim(); err != nil {
		return url + "  (without the WASI shim browsers need: it shows answers unverified; install npm, then `make build`)"
	}
	return url + "  (resolves and verifies DIDs in the browser)"
}
