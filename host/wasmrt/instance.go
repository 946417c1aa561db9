package wasmrt

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/didlight/didlight/wasm/abi"
)

// instance is one instance of the module, used by one call at a time.
type instance struct {
	mod    api.Module
	alloc  api.Function
	free   api.Function
	calls  map[string]api.Function
	stack  []uint64      // for CallWithStack: large enough for every export
	stderr *bytes.Buffer // what the Go runtime prints when it dies
}

var errUnknownCall = errors.New("no such call")

func (r *Runtime) instantiate(ctx context.Context) (*instance, error) {
	inst := &instance{calls: map[string]api.Function{}, stack: make([]uint64, 2), stderr: new(bytes.Buffer)}
	mod, err := r.rt.InstantiateModule(ctx, r.compiled, wazero.NewModuleConfig().
		WithName("").WithStartFunctions("_initialize").WithStderr(inst.stderr))
	if err != nil {
		return nil, fmt.Errorf("wasmrt: starting the module: %w%s", err, died(inst.stderr))
	}
	inst.mod = mod
	if err := inst.bind(); err != nil {
		mod.Close(ctx)
		return nil, err
	}
	version, err := mod.ExportedFunction("abi_version").Call(ctx)
	if err != nil || version[0] != abi.Version {
		mod.Close(ctx)
		return nil, fmt.Errorf("wasmrt: the module's ABI version is %v (%v), want %d", version, err, abi.Version)
	}
	return inst, nil
}

// bind finds the exports the ABI names.
func (inst *instance) bind() error {
	find := func(name string) (api.Function, error) {
		if f := inst.mod.ExportedFunction(name); f != nil {
			return f, nil
		}
		return nil, fmt.Errorf("wasmrt: the module does not export %s", name)
	}
	var err error
	if inst.alloc, err = find("alloc"); err != nil {
		return err
	}
	if inst.free, err = find("free"); err != nil {
		return err
	}
	if _, err = find("abi_version"); err != nil {
		return err
	}
	for _, c := range abi.Calls() {
		if inst.calls[c.Name], err = find(c.Name); err != nil {
			return err
		}
	}
	return nil
}

// call runs one call: copy the input into the module's memory, run the
// export, copy the output out and release it.
func (inst *instance) call(ctx context.Context, name string, in []byte) ([]byte, error) {
	f, ok := inst.calls[name]
	if !ok {
		return nil, fmt.Errorf("wasmrt: %q: %w", name, errUnknownCall)
	}
	s := inst.stack
	s[0] = uint64(len(in))
	if err := inst.alloc.CallWithStack(ctx, s); err != nil {
		return nil, inst.failed("alloc", err)
	}
	p := uint32(s[0])
	mem := inst.mod.Memory()
	if !mem.Write(p, in) {
		return nil, fmt.Errorf("wasmrt: alloc returned %#x, outside memory", p)
	}
	s[0], s[1] = uint64(p), uint64(len(in))
	if err := f.CallWithStack(ctx, s); err != nil {
		return nil, inst.failed(name, err)
	}
	outPtr, outLen := uint32(s[0]>>32), uint32(s[0])
	view, ok := mem.Read(outPtr, outLen)
	if !ok {
		return nil, fmt.Errorf("wasmrt: %s returned %d bytes at %#x, outside memory", name, outLen, outPtr)
	}
	out := bytes.Clone(view)
	s[0] = uint64(outPtr)
	if err := inst.free.CallWithStack(ctx, s); err != nil {
		return nil, inst.failed("free", err)
	}
	return out, nil
}

// failed describes an export that trapped or exited, with what the Go
// runtime printed.
func (inst *instance) failed(export string, err error) error {
	return fmt.Errorf("wasmrt: %s: %w%s", export, err, died(inst.stderr))
}

func died(stderr *bytes.Buffer) string {
	if stderr.Len() == 0 {
		return ""
	}
	return "\n" + stderr.String()
}
