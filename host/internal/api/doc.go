// Package api serves a node's HTTP interfaces.
//
// It serves a node's HTTP interfaces: the REST API under /api/v1 with the
// envelopes and error codes of the Elastos nodes, the JSON-RPC 2.0 resolver
// (resolvedid, query, the credential methods and the DID SDKs' names for
// them, devnet controls), the chain's general JSON-RPC methods that Elastos
// tools call (getblock, getrawtransaction, listunspent, sendrawtransaction,
// ...; they read through the same functions as REST), the endpoints the DID
// SDKs' simulated-chain adapter posts to (/idtx, /resolve, /reset), and W3C
// DID Resolution's HTTP(S) binding, GET /1.0/identifiers/{did}, which
// core/w3c answers.
//
// Handlers parse and check what a request says, every parameter before
// any store read, and hand it to the chain (host/internal/chain), which decides;
// they never answer bad input with a 500 or a panic, and quote at most the
// start of it. Every route and method is registered with what it may do
// (access: read, broadcast or control), and one browser policy decides
// which web pages may call it (policy.go, docs/security.md). A Server owns
// two listeners, the REST one and the JSON-RPC one, with request size
// limits and timeouts, and shuts both down gracefully, cancelling the work
// of requests that outlast the grace period.
package api
