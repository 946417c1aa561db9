//go:build wasip1

// Command wasm is the didlight WebAssembly module.
//
// It is the didlight WebAssembly module, didlight.wasm: the core packages
// behind a small JSON ABI, for browsers, Node, wazero and any other WASI
// host. Build it with `make wasm`, which runs
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -trimpath -ldflags="-s -w" -o wasm/js/didlight.wasm ./wasm
//
// The module is a reactor: the host calls _initialize once, then the
// exports below. The ABI (memory, envelope, imports) is documented in
// package github.com/didlight/didlight/wasm/abi, whose functions compute every answer; this
// package only moves bytes between the host and them.
package main

import "github.com/didlight/didlight/wasm/abi"

func main() {}

//go:wasmexport abi_version
func abiVersion() uint32 { return abi.Version }

//go:wasmexport parse_did
func parseDID(p, n uint32) uint64 { return serve(p, n, abi.ParseDID) }

//go:wasmexport parse_document
func parseDocument(p, n uint32) uint64 { return serve(p, n, abi.ParseDocument) }

//go:wasmexport new_document
func newDocument(p, n uint32) uint64 { return serve(p, n, abi.NewDocument) }

//go:wasmexport verify_resolve_result
func verifyResolveResult(p, n uint32) uint64 { return serve(p, n, abi.VerifyResolveResult) }

//go:wasmexport resolve_w3c
func resolveW3C(p, n uint32) uint64 { return serve(p, n, abi.ResolveW3C) }

//go:wasmexport verify_eid_did
func verifyEIDDID(p, n uint32) uint64 { return serve(p, n, abi.VerifyEIDDID) }

//go:wasmexport verify_eid_credential
func verifyEIDCredential(p, n uint32) uint64 { return serve(p, n, abi.VerifyEIDCredential) }

//go:wasmexport verify_eid_credential_list
func verifyEIDCredentialList(p, n uint32) uint64 { return serve(p, n, abi.VerifyEIDCredentialList) }

//go:wasmexport resolve_w3c_eid
func resolveW3CEID(p, n uint32) uint64 { return serve(p, n, abi.ResolveW3CEID) }

//go:wasmexport status_of
func statusOf(p, n uint32) uint64 { return serve(p, n, abi.StatusOf) }

//go:wasmexport validate_operation
func validateOperation(p, n uint32) uint64 { return serve(p, n, abi.ValidateOperation) }

//go:wasmexport match
func match(p, n uint32) uint64 { return serve(p, n, abi.Match) }

//go:wasmexport decode_tx
func decodeTx(p, n uint32) uint64 { return serve(p, n, abi.DecodeTx) }

//go:wasmexport verify_tx
func verifyTx(p, n uint32) uint64 { return serve(p, n, abi.VerifyTx) }

//go:wasmexport sign_document
func signDocument(p, n uint32) uint64 { return serve(p, n, abi.SignDocument) }

//go:wasmexport sign_operation
func signOperation(p, n uint32) uint64 { return serve(p, n, abi.SignOperation) }
