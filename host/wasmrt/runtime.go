package wasmrt

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/didlight/didlight/wasm/abi"
)

// Runtime runs the module. Create it with New; it is safe for concurrent
// use.
type Runtime struct {
	rt       wazero.Runtime
	compiled wazero.CompiledModule
	cache    wazero.CompilationCache // nil without one
	cfg      config
	idle     chan *instance // instances ready for a call
	live     chan struct{}  // one token per instance in existence
}

type config struct {
	cacheDir     string
	noHostCrypto bool
	instances    int
}

// An Option configures a Runtime.
type Option func(*config)

// WithCacheDir keeps the compiled module in dir; "" compiles in memory
// only. The default is the didlight/wazero folder of the user's cache
// directory (os.UserCacheDir), or none when there is no such directory.
func WithCacheDir(dir string) Option { return func(c *config) { c.cacheDir = dir } }

// WithoutHostCrypto withholds the host's P-256 verification and SHA-256:
// the module answers with its own Go code, as it does in browsers. It is
// there to measure that fallback.
func WithoutHostCrypto() Option { return func(c *config) { c.noHostCrypto = true } }

// WithMaxInstances bounds the instances in existence, and so the calls run
// at once (default GOMAXPROCS). Each instance holds its own memory.
func WithMaxInstances(n int) Option { return func(c *config) { c.instances = max(n, 1) } }

// New compiles the module (or loads it from the cache) and prepares the
// host functions it imports. Instances start on demand.
func New(ctx context.Context, module []byte, opts ...Option) (*Runtime, error) {
	cfg := config{instances: runtime.GOMAXPROCS(0)}
	if dir, err := os.UserCacheDir(); err == nil {
		cfg.cacheDir = filepath.Join(dir, "didlight", "wazero")
	}
	for _, o := range opts {
		o(&cfg)
	}
	r := &Runtime{cfg: cfg, idle: make(chan *instance, cfg.instances), live: make(chan struct{}, cfg.instances)}
	// Not WithCloseOnContextDone: its checks make the module's code about
	// five times slower (measured). A call that has started runs to its end.
	rc := wazero.NewRuntimeConfig()
	if cfg.cacheDir != "" {
		cache, err := wazero.NewCompilationCacheWithDir(cfg.cacheDir)
		if err != nil {
			return nil, fmt.Errorf("wasmrt: compilation cache: %w", err)
		}
		r.cache, rc = cache, rc.WithCompilationCache(cache)
	}
	r.rt = wazero.NewRuntimeWithConfig(ctx, rc)
	if err := r.setup(ctx, module); err != nil {
		r.Close(ctx)
		return nil, err
	}
	return r, nil
}

func (r *Runtime) setup(ctx context.Context, module []byte) error {
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, r.rt); err != nil {
		return fmt.Errorf("wasmrt: WASI: %w", err)
	}
	if err := r.instantiateHost(ctx); err != nil {
		return fmt.Errorf("wasmrt: host functions: %w", err)
	}
	compiled, err := r.rt.CompileModule(ctx, module)
	if err != nil {
		return fmt.Errorf("wasmrt: compiling the module: %w", err)
	}
	r.compiled = compiled
	return r.check(ctx)
}

// check starts one instance, so that a module that does not fit the ABI
// fails New rather than the first call, and keeps it for the first call.
func (r *Runtime) check(ctx context.Context) error {
	r.live <- struct{}{}
	inst, err := r.instantiate(ctx)
	if err != nil {
		<-r.live
		return err
	}
	r.idle <- inst
	return nil
}

// Close closes the instances, the compiled module and the cache. Calls in
// progress fail.
func (r *Runtime) Close(ctx context.Context) error {
	err := r.rt.Close(ctx)
	if r.cache != nil {
		err = errors.Join(err, r.cache.Close(ctx))
	}
	return err
}

// Call runs the call named name (an export such as "verify_resolve_result",
// see [abi.Calls]) on a JSON input and returns the module's envelope,
// {"result":…} or {"error":…}: byte for byte what the call's abi function
// returns natively. The error is for a call the module could not answer:
// an unknown name, a closed Runtime, ctx ended before the call started (a
// call that has started runs to its end), or the module failing
// (which the module's design rules out: it is reported, never hidden).
func (r *Runtime) Call(ctx context.Context, name string, in []byte, env abi.Env) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	inst, err := r.get(ctx)
	if err != nil {
		return nil, err
	}
	out, err := inst.call(withEnv(ctx, r, env), name, in)
	r.put(inst, err == nil || errors.Is(err, errUnknownCall))
	return out, err
}

// get takes an idle instance, or starts one when fewer than the maximum
// exist, or waits for one.
func (r *Runtime) get(ctx context.Context) (*instance, error) {
	select {
	case inst := <-r.idle:
		return inst, nil
	default:
	}
	select {
	case inst := <-r.idle:
		return inst, nil
	case r.live <- struct{}{}:
		inst, err := r.instantiate(ctx)
		if err != nil {
			<-r.live
			return nil, err
		}
		return inst, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// maxIdleMemory is the memory above which an instance is closed after a
// call rather than kept: one huge input should not pin its memory forever.
const maxIdleMemory = 256 << 20

// put returns an instance to the pool, or closes it when it failed or has
// grown large.
func (r *Runtime) put(inst *instance, ok bool) {
	if ok && inst.mod.Memory().Size() <= maxIdleMemory {
		r.idle <- inst // never blocks: idle holds as many as may exist
		return
	}
	inst.mod.Close(context.Background())
	<-r.live
}
