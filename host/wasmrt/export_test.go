package wasmrt

import "context"

// CallBuffer runs an export on n bytes at p, a buffer the module may not
// have handed out, as a faulty host would.
func CallBuffer(ctx context.Context, r *Runtime, name string, p, n uint32) ([]byte, error) {
	inst, err := r.get(ctx)
	if err != nil {
		return nil, err
	}
	defer r.put(inst, true)
	res, err := inst.calls[name].Call(ctx, uint64(p), uint64(n))
	if err != nil {
		return nil, err
	}
	out, _ := inst.mod.Memory().Read(uint32(res[0]>>32), uint32(res[0]))
	return append([]byte(nil), out...), nil
}
