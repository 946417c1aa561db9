package api

// The descriptions of every route, by ServeMux pattern, from which each
// listener's OpenAPI document is built (openapi.go). The route test
// (TestOpenAPIMatchesRouter) fails on a route registered without a
// description here and on a description of no route. docs/api.md says
// the same for people.

// The documents' own descriptions.
const (
	restAPIDoc = "The REST listener of a didlight node (--rest-addr): ELA's REST API under /api/v1, W3C DID Resolution and the Universal Resolver's endpoints under /1.0, the browser app. The JSON-RPC listener describes itself at its own /openapi.json."
	rpcAPIDoc  = "The JSON-RPC listener of a didlight node (--rpc-addr): JSON-RPC 2.0 (the methods are the request body's), and the DID SDKs' test endpoints. The REST listener describes itself at its own /openapi.json."
)

// ELA's REST envelope, which every /api/v1 answer is.
const restEnvelope = `HTTP 200 with {"Desc","Error","Result"} as the Elastos nodes write it: Error 0 and the result, or an ELA error code (docs/api.md)`

var (
	docHeight   = map[string]string{"height": "a block height: decimal digits up to 4294967295"}
	docHash     = map[string]string{"hash": "a block, transaction or asset hash: 64 hex digits"}
	docAddr     = map[string]string{"addr": "a wallet address, base58check"}
	docAsset    = map[string]string{"addr": "a wallet address, base58check", "assetid": "an asset id: 64 hex digits"}
	jsonMedia   = []string{"application/json"}
	w3cMedia    = []string{"application/did-resolution", "application/did-url-dereferencing", `application/ld+json;profile="https://w3id.org/did-resolution"`, "application/did+ld+json", "application/did+json", "application/did"}
	w3cStatuses = map[string]string{
		"200": "The content asked for (also for an expired document).",
		"303": "A service selection: Location is the endpoint.",
		"400": "INVALID_DID, INVALID_DID_URL or INVALID_OPTIONS.",
		"404": "NOT_FOUND.",
		"406": "REPRESENTATION_NOT_SUPPORTED.",
		"410": "The DID is deactivated: its last document, deactivated true.",
		"500": "INTERNAL_ERROR: the node's store failed.",
		"501": "METHOD_NOT_SUPPORTED or FEATURE_NOT_SUPPORTED.",
	}
	identifierParam = map[string]string{"identifier": "the DID or DID URL; percent-encoded (did%3A…), it is followed by options in the query; a fragment travels as %23 (docs/w3c-resolution.md)"}
	w3cOptions      = map[string]string{"versionId": "a resolution option: the version published by that transaction", "versionTime": "a resolution option: the latest version at or before that time"}
	anyPath         = "Answers every method on every path under it that no other route serves"
	preflightDoc    = routeDoc{summary: "A CORS preflight", description: "Allows GET, POST and OPTIONS with Accept, Content-Type and Authorization from any origin.", responses: map[string]string{"204": "Allowed."}}
	healthDoc       = routeDoc{summary: "The process serves: {\"status\":\"ok\"}", description: "A liveness probe: cheap, never cached (docs/service.md).", media: jsonMedia}
	readyDoc        = routeDoc{summary: "Whether to send this node traffic: {ready, height, lag}, and the reason when not ready", description: "A readiness probe for load balancers: a devnet is ready while it serves; a follower or light node while its upstream answers and it is at most --ready-max-lag blocks behind (docs/service.md, docs/operations.md).", media: jsonMedia, responses: map[string]string{"200": "Ready.", "503": "Not ready: the reason says why."}}
	openAPIDoc      = routeDoc{summary: "This document", description: "The OpenAPI 3.1 document of this listener's routes.", media: jsonMedia}
	uniResDoc       = "The shape of the Universal Resolver's (decentralized-identity/universal-resolver openapi/openapi.yaml); this node resolves did:elastos only."
	jsonRPCDoc      = `A JSON-RPC 2.0 request or batch (at most 100; a body at most 1 MiB); requests without jsonrpc, or with it empty, are answered as 2.0. Every answer is HTTP 200 with a JSON-RPC response, a notification 204 (docs/api.md).`
)

// restDocs describes the REST listener's routes.
var restDocs = map[string]routeDoc{
	"GET /api/v1/node/connectioncount":               {summary: "The number of connected nodes: the neighbors", description: restEnvelope, media: jsonMedia},
	"GET /api/v1/node/state":                         {summary: "The node: its id, tip, transaction counts, ports, neighbors; a light node's upstream", description: restEnvelope, media: jsonMedia},
	"GET /api/v1/block/height":                       {summary: "The tip's height; on a light node, its upstream's head", description: restEnvelope, media: jsonMedia},
	"GET /api/v1/transactionpool":                    {summary: "The mempool's transactions, in full", description: restEnvelope, media: jsonMedia},
	"GET /api/v1/block/hash/{height}":                {summary: "The hash of the block at a height", description: restEnvelope, params: docHeight, media: jsonMedia},
	"GET /api/v1/block/details/height/{height}":      {summary: "The block at a height, with its transactions in full", description: restEnvelope, params: docHeight, media: jsonMedia},
	"GET /api/v1/block/details/hash/{hash}":          {summary: "The block with a hash, with its transactions' hashes", description: restEnvelope, params: docHash, media: jsonMedia},
	"GET /api/v1/block/transactions/height/{height}": {summary: "The hashes of the transactions of the block at a height", description: restEnvelope, params: docHeight, media: jsonMedia},
	"GET /api/v1/transaction/{hash}":                 {summary: "A transaction, pooled or in a block", description: restEnvelope, params: docHash, media: jsonMedia},
	"GET /api/v1/asset/balances/{addr}":              {summary: "An address's balance, an amount string", description: restEnvelope, params: docAddr, media: jsonMedia},
	"GET /api/v1/asset/utxos/{addr}":                 {summary: "An address's unspent outputs, by asset", description: restEnvelope, params: docAddr, media: jsonMedia},
	"GET /api/v1/asset/{hash}":                       {summary: "The native asset ELA, whatever the well-formed hash (as ELA does; deprecated)", description: restEnvelope, params: docHash, media: jsonMedia},
	"GET /api/v1/asset/balance/{addr}/{assetid}":     {summary: "An address's balance of one asset (deprecated)", description: restEnvelope, params: docAsset, media: jsonMedia},
	"GET /api/v1/asset/utxo/{addr}/{assetid}":        {summary: "An address's unspent outputs of one asset (deprecated)", description: restEnvelope, params: docAsset, media: jsonMedia},
	"GET /api/v1/confirm/details/height/{height}":    {summary: "The DPoS confirm of the block at a height", description: "A JSON-RPC style answer {error, id, jsonrpc, result}, as ELA writes it.", params: docHeight, media: jsonMedia},
	"GET /api/v1/confirm/details/hash/{hash}":        {summary: "The DPoS confirm of the block with a hash", description: "A JSON-RPC style answer {error, id, jsonrpc, result}, as ELA writes it.", params: docHash, media: jsonMedia},
	"GET /api/v1/restart":                            {summary: "Restart the REST service", description: "A control: loopback clients, or the admin token (Authorization: Bearer, or ?token=). " + restEnvelope, query: map[string]string{"token": "the admin token"}, media: jsonMedia},
	"POST /api/v1/transaction":                       {summary: "Broadcast a signed transaction", description: restEnvelope + "; Result is the txid.", body: "application/json", bodyDoc: `{"Action":"sendrawtransaction","data":"<the signed transaction, hex>"}`, media: jsonMedia},
	"OPTIONS /api/v1/":                               preflightDoc,
	"/api/":                                          {summary: "Not an endpoint", description: anyPath + ": error 42001, Invalid method.", media: jsonMedia},
	"/":                                              {summary: "The browser app, when the node serves it; else 42001", description: anyPath + "."},
	"GET " + identifiersPath + "{identifier...}":     {summary: "Resolve a DID or dereference a DID URL (W3C DID Resolution, HTTP(S) binding)", description: "The Accept header chooses the representation (docs/w3c-resolution.md). " + uniResDoc, params: identifierParam, query: w3cOptions, media: w3cMedia, responses: w3cStatuses},
	"POST " + identifiersPath + "{identifier...}":    {summary: "Resolve a DID or dereference a DID URL, the options in the body", description: "As GET, the options a JSON object in the body (strings, booleans or numbers); options in the HTTP query win. " + uniResDoc, params: identifierParam, body: "application/json", bodyDoc: `resolution or dereferencing options, e.g. {"versionTime":"2026-01-01T00:00:00Z"}`, media: w3cMedia, responses: w3cStatuses},
	"OPTIONS " + identifiersPath:                     preflightDoc,
	"GET " + methodsPath:                             {summary: "The DID methods resolved: [\"elastos\"]", description: uniResDoc, media: jsonMedia},
	"GET " + propertiesPath:                          {summary: "What this node is, keyed by method: node kind, version, height, a follower's upstream", description: uniResDoc, media: jsonMedia},
	"GET " + testIdentifiersPath:                     {summary: "DIDs this node resolves, keyed by method: the first created that are not deactivated (none on a light node)", description: uniResDoc, media: jsonMedia},
	"GET " + traitsPath:                              {summary: "did:elastos's DID traits, keyed by method", description: uniResDoc, media: jsonMedia},
	"GET " + openAPIPath:                             openAPIDoc,
	"GET " + healthPath:                              healthDoc,
	"GET /metrics":                                   {summary: "Prometheus metrics: requests, latencies, the chain and the Go runtime", description: "Served unless --no-metrics, to loopback clients and to the admin token (docs/service.md).", media: []string{"text/plain; version=0.0.4"}, optional: true},
	"GET " + readyPath:                               readyDoc,
}

// rpcDocs describes the JSON-RPC listener's routes.
var rpcDocs = map[string]routeDoc{
	"POST /{$}":          {summary: "JSON-RPC", description: jsonRPCDoc, body: "application/json", bodyDoc: "a JSON-RPC request or batch; text/plain is read too", rpc: true, media: jsonMedia, responses: map[string]string{"200": "A JSON-RPC response, or a batch of them.", "204": "A notification, or a batch of them only."}},
	"POST /resolve":      {summary: "JSON-RPC, at the path the DID SDKs' SimulatedIDChainAdapter resolves on", description: jsonRPCDoc, body: "application/json", bodyDoc: "a JSON-RPC request or batch", rpc: true, media: jsonMedia, responses: map[string]string{"200": "A JSON-RPC response, or a batch of them.", "204": "A notification, or a batch of them only."}},
	"POST /idtx":         {summary: "Publish an ID-chain request as an SDK makes it (devnet and follower)", description: "A control: the node wraps it in a transaction paid by its dev account (a follower relays it upstream) and answers once a block holds it.", body: "application/json", bodyDoc: "a DID or credential operation, as the SDKs write it", media: jsonMedia, responses: map[string]string{"202": "In a block.", "400": "The chain refuses it: {code, message, rule}.", "504": "No block held it within 55 s."}},
	"POST /reset":        {summary: "Back to the genesis block (devnet only)", description: "A control (docs/devnet.md).", media: jsonMedia, responses: map[string]string{"200": "Reset.", "400": "?idtxsonly and ?vctxsonly are refused."}},
	"OPTIONS /":          preflightDoc,
	"/":                  {summary: "Not a JSON-RPC endpoint", description: anyPath + ": 404 with a JSON-RPC error.", media: jsonMedia},
	"GET " + openAPIPath: openAPIDoc,
	"GET " + healthPath:  healthDoc,
	"GET " + readyPath:   readyDoc,
}

// methodDocs describes the JSON-RPC methods; the route test keeps it equal
// to methods.
var methodDocs = map[string]string{
	"resolvedid":            "A DID's status and history: {did, all}; status 0 valid, 1 expired, 2 deactivated, 3 not found",
	"did_resolveDID":        "resolvedid under the DID SDKs' name, params [{did, all}]; an expired DID is status 0, as EID answers",
	"query":                 "Documents of DIDs not deactivated, by service type, credential type or a find condition: exactly one of service, credential, query; skip, limit",
	"resolvecredential":     "A credential's status and history: {id, issuer}",
	"did_resolveCredential": "resolvecredential under the DID SDKs' name, params [{id, issuer}]",
	"listcredentials":       "The credentials declared for a DID, newest first: {did, skip, limit}",
	"did_listCredentials":   "listcredentials under the DID SDKs' name, params [{did, skip, limit}]",

	"dev_mine":                  "Mine blocks now: {blocks, interval}",
	"dev_increaseTime":          "Move the chain clock forward and mine a block stamped with it: {seconds}",
	"dev_setNextBlockTime":      "Stamp the next block with a time: {time}",
	"dev_reset":                 "Back to the genesis block: {time}, the genesis time (optional)",
	"dev_snapshot":              "Remember the chain as it is: an id for dev_revert",
	"dev_revert":                "Take the chain back to a snapshot: {id}",
	"evm_snapshot":              "dev_snapshot under the Ethereum devnets' name",
	"evm_revert":                "dev_revert under the Ethereum devnets' name",
	"evm_mine":                  "dev_mine under the Ethereum devnets' name",
	"evm_increaseTime":          "dev_increaseTime under the Ethereum devnets' name",
	"evm_setNextBlockTimestamp": "dev_setNextBlockTime under the Ethereum devnets' name",

	"getblockcount":        "The number of blocks: the tip's height plus one",
	"getcurrentheight":     "The tip's height",
	"getbestblockhash":     "The tip's hash",
	"getblockhash":         "The hash of the block at a height: {height}",
	"getblock":             "A block by hash: {blockhash, verbosity}",
	"getblockbyheight":     "The block at a height: {height}",
	"getrawtransaction":    "A transaction: {txid, verbose}",
	"getrawmempool":        "The mempool's transaction ids",
	"getreceivedbyaddress": "An address's balance: {address, spendable}",
	"listunspent":          "Unspent outputs of addresses: {addresses, utxotype, spendable}",
	"getutxosbyamount":     "Unspent outputs of an address covering an amount: {address, amount, utxotype}",
	"getconnectioncount":   "The number of connected nodes",
	"getneighbors":         "The connected nodes",
	"getnodestate":         "The node's state, as GET /api/v1/node/state",
	"eth_blockNumber":      "The tip's height as an EID node answers it (hex); a light node's upstream head",
	"eth_chainId":          "The chain id (hex); a light node's upstream's",
	"net_version":          "The network id",
	"sendrawtransaction":   "Broadcast a signed transaction: {data} (hex); the txid",
}
