// Package wasmrt runs the didlight WebAssembly module in wazero.
//
// It is for Go programs that want core's answers from the sandboxed build:
// the same module browsers and Node run. Package [abi] documents the
// module's calls and ABI.
//
// A Runtime compiles the module once, caching the machine code on disk
// (wazero's compilation cache, in the user's cache directory unless told
// otherwise), and keeps a pool of instances: each call takes an idle
// instance or starts one, up to a limit, so a Runtime is safe for
// concurrent use. Every call is offered twice: raw (Call: JSON in, the
// module's JSON envelope out, byte for byte what abi's native function
// returns) and typed (VerifyResolveResult, ValidateOperation, ...: Go
// values in and out, failures as *abi.Error, which unwraps to the native
// error types, so idop.RuleOf and errors.Is see through the module).
//
// The module imports P-256 verification, SHA-256 and document lookup from
// its host. A Runtime answers them per call from the abi.Env the call is
// given: its Verifier (Go's native crypto when nil; it hashes too when it
// is a keys.Hasher) and its Lookup. [WithoutHostCrypto] withholds
// verification and hashing, so that the module does both with its own Go
// code, as it does in browsers.
package wasmrt
