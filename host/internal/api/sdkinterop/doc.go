// Package sdkinterop runs the official Elastos DID JS SDK's interop suite against a didlight node.
//
// It holds the interop suite of didlight with the official Elastos DID JS
// SDK (@elastosfoundation/did-js-sdk, pinned by the package-lock.json beside
// it). Its Go test builds `didlight node`, starts it with an in-memory chain
// on free loopback ports, runs the suite in Node (node --test, each file
// from a reset chain) with DIDLIGHT_RPC_URL naming the node's JSON-RPC
// listener and DIDLIGHT_REST_URL its REST API (beside which it serves W3C
// DID Resolution), and stops the node.
//
// The suite lives here, beside host/internal/api, because it tests what host/internal/api
// serves the SDKs: the simulated-chain endpoints /idtx, /resolve and /reset
// and the SDK's JSON-RPC method names; w3c.test.mjs checks that W3C DID
// Resolution answers with the documents the SDK resolves. sdkverify.mjs is the SDK's own
// verification as a second implementation for wasm/js/bench.mjs.
package sdkinterop
