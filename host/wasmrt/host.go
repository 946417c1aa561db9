package wasmrt

import (
	"context"

	"github.com/tetratelabs/wazero/api"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/wasm/abi"
)

// callEnv is what the host functions serve one call from: the call's Env
// and what they remember while it runs.
type callEnv struct {
	env          abi.Env
	hostCrypto   bool
	keys         map[[keys.PublicKeySize]byte]keys.PublicKey // decoded keys
	lastDID      string                                      // the document lookup_document last found,
	lastDocument []byte                                      // kept for the module's second ask
}

type envKey struct{}

func withEnv(ctx context.Context, r *Runtime, env abi.Env) context.Context {
	return context.WithValue(ctx, envKey{}, &callEnv{env: env, hostCrypto: !r.cfg.noHostCrypto})
}

// The answers of the host functions (see package abi).
const (
	unavailable  = -1
	lookupFailed = -2
)

func (r *Runtime) instantiateHost(ctx context.Context) error {
	_, err := r.rt.NewHostModuleBuilder("didlight").
		NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(p256Verify),
		[]api.ValueType{api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32}, []api.ValueType{api.ValueTypeI32}).
		Export("p256_verify").
		NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(sha256Sum),
		[]api.ValueType{api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32}, []api.ValueType{api.ValueTypeI32}).
		Export("sha256").
		NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(lookupDocument),
		[]api.ValueType{api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32}, []api.ValueType{api.ValueTypeI32}).
		Export("lookup_document").
		Instantiate(ctx)
	return err
}

// p256Verify is p256_verify(pub, digest, sig) → 1 valid, 0 invalid,
// -1 unavailable.
func p256Verify(ctx context.Context, m api.Module, stack []uint64) {
	ce, _ := ctx.Value(envKey{}).(*callEnv)
	stack[0] = api.EncodeI32(ce.verify(m.Memory(), uint32(stack[0]), uint32(stack[1]), uint32(stack[2])))
}

func (ce *callEnv) verify(mem api.Memory, pubPtr, digestPtr, sigPtr uint32) int32 {
	if ce == nil || !ce.hostCrypto {
		return unavailable
	}
	b, ok1 := mem.Read(pubPtr, keys.PublicKeySize)
	digest, ok2 := mem.Read(digestPtr, 32)
	sig, ok3 := mem.Read(sigPtr, keys.SignatureSize)
	if !ok1 || !ok2 || !ok3 {
		return 0
	}
	pub, ok := ce.key([keys.PublicKeySize]byte(b))
	if !ok {
		return 0
	}
	if ce.verifier().Verify(pub, [32]byte(digest), keys.Signature(sig)) {
		return 1
	}
	return 0
}

// sha256Sum is sha256(data, n, digest) → 1 done, -1 unavailable. It
// hashes with the call's Verifier when that hashes ([keys.Digest]).
func sha256Sum(ctx context.Context, m api.Module, stack []uint64) {
	ce, _ := ctx.Value(envKey{}).(*callEnv)
	stack[0] = api.EncodeI32(ce.sum(m.Memory(), uint32(stack[0]), uint32(stack[1]), uint32(stack[2])))
}

func (ce *callEnv) sum(mem api.Memory, dataPtr, n, digestPtr uint32) int32 {
	if ce == nil || !ce.hostCrypto {
		return unavailable
	}
	data, ok := mem.Read(dataPtr, n)
	if !ok {
		return unavailable // the module hashes it itself (and fails as it must)
	}
	digest := keys.Digest(ce.verifier(), data)
	if !mem.Write(digestPtr, digest[:]) {
		return unavailable
	}
	return 1
}

// verifier is the call's Verifier, [keys.Native] by default.
func (ce *callEnv) verifier() keys.Verifier {
	if ce.env.Verifier == nil {
		return keys.Native{}
	}
	return ce.env.Verifier
}

// key decodes a compressed key, once per call.
func (ce *callEnv) key(b [keys.PublicKeySize]byte) (keys.PublicKey, bool) {
	if k, ok := ce.keys[b]; ok {
		return k, true
	}
	k, err := keys.ParsePublicKey(b[:])
	if err != nil {
		return keys.PublicKey{}, false
	}
	if ce.keys == nil {
		ce.keys = map[[keys.PublicKeySize]byte]keys.PublicKey{}
	}
	ce.keys[b] = k
	return k, true
}

// lookupDocument is lookup_document(did, did_len, buf, buf_cap) → the
// document's length, written when it fits; 0 none; -1 unavailable; -2
// failed.
func lookupDocument(ctx context.Context, m api.Module, stack []uint64) {
	ce, _ := ctx.Value(envKey{}).(*callEnv)
	stack[0] = api.EncodeI32(ce.lookup(m.Memory(), uint32(stack[0]), uint32(stack[1]), uint32(stack[2]), uint32(stack[3])))
}

func (ce *callEnv) lookup(mem api.Memory, didPtr, didLen, bufPtr, bufCap uint32) int32 {
	if ce == nil || ce.env.Lookup == nil {
		return unavailable
	}
	name, ok := mem.Read(didPtr, didLen)
	if !ok {
		return lookupFailed
	}
	if string(name) != ce.lastDID {
		d, err := did.Parse(string(name))
		if err != nil {
			return lookupFailed
		}
		doc, err := ce.env.Lookup.Document(d)
		if err != nil {
			return lookupFailed
		}
		ce.lastDID, ce.lastDocument = string(name), nil
		if doc != nil {
			ce.lastDocument = doc.Normalized()
		}
	}
	n := len(ce.lastDocument)
	if n > 0 && n <= int(bufCap) && !mem.Write(bufPtr, ce.lastDocument) {
		return lookupFailed
	}
	return int32(n)
}
