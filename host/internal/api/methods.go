package api

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/jsonrpc"
	"github.com/didlight/didlight/host/internal/chain"
)

// method answers one JSON-RPC call: a result (a json.RawMessage when the
// chain built it) or an error. It reads and checks every parameter before
// it asks the chain, so that bad input never holds a store read open.
type method func(s *Server, ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error)

// rpcMethod is a JSON-RPC method: what serves it and what it may do, which
// decides who may call it from a browser (see access). A method that only
// reads leaves access at its zero value, read, and is open to every
// origin; one that changes the chain or controls the node must be
// registered with access control, and one that relays a transaction its
// sender signed with broadcast.
type rpcMethod struct {
	serve  method
	access access
	light  bool // a light node and an EID follower serve it too (see NewLight)
	query  bool // a node that answers query serves it: an EID follower too (see NewEIDFollower)
}

// serves reports whether the server serves m: a chain serves every
// method; a light node those marked light; an EID follower query too.
func (s *Server) serves(m rpcMethod) bool {
	return s.light == nil || m.light || m.query && s.queries != nil
}

// methods are the JSON-RPC methods. The DID methods are served under the
// resolver interface's names, whose params are an object or an array
// holding one ([jsonrpc.DecodeParams]), and under EID's names, which the
// published DID SDKs call, read and answered in EID's dialect
// (eiddialect.go); the results are the same objects, but for the status of
// an expired DID. The chain's general methods
// (chainrpc.go, noderpc.go) take named or positional params
// ([jsonrpc.Args]), as the Elastos nodes read them.
var methods = map[string]rpcMethod{
	// DID reads. A light node serves all but query, which needs an index
	// of every document.
	"resolvedid":            {serve: (*Server).resolveDID, light: true},
	"did_resolveDID":        {serve: (*Server).eidResolveDID, light: true},
	"query":                 {serve: (*Server).query, query: true},
	"resolvecredential":     {serve: (*Server).resolveCredential, light: true},
	"did_resolveCredential": {serve: (*Server).eidResolveCredential, light: true},
	"listcredentials":       {serve: (*Server).listCredentials, light: true},
	"did_listCredentials":   {serve: (*Server).eidListCredentials, light: true},

	// Devnet controls: they change the chain on the node's authority.
	"dev_mine":             {serve: (*Server).devMine, access: control},
	"dev_increaseTime":     {serve: (*Server).devIncreaseTime, access: control},
	"dev_setNextBlockTime": {serve: (*Server).devSetNextBlockTime, access: control},
	"dev_reset":            {serve: (*Server).devReset, access: control},
	"dev_snapshot":         {serve: (*Server).devSnapshot, access: control},
	"dev_revert":           {serve: (*Server).devRevert, access: control},
	// The same under the names of the Ethereum devnets' test helpers (evm.go).
	"evm_snapshot":              {serve: (*Server).evmSnapshot, access: control},
	"evm_revert":                {serve: (*Server).evmRevert, access: control},
	"evm_mine":                  {serve: (*Server).evmMine, access: control},
	"evm_increaseTime":          {serve: (*Server).evmIncreaseTime, access: control},
	"evm_setNextBlockTimestamp": {serve: (*Server).evmSetNextBlockTimestamp, access: control},

	// The chain's general reads.
	"getblockcount":        {serve: noArgs((*Server).getBlockCount)},
	"getcurrentheight":     {serve: noArgs((*Server).getCurrentHeight)},
	"getbestblockhash":     {serve: noArgs((*Server).getBestBlockHash)},
	"getblockhash":         {serve: oneArg("height", args.height, (*Server).hashAtHeight)},
	"getblock":             {serve: (*Server).getBlock},
	"getblockbyheight":     {serve: oneArg("height", args.height, (*Server).blockAtHeight)},
	"getrawtransaction":    {serve: (*Server).getRawTransaction},
	"getrawmempool":        {serve: noArgs((*Server).getRawMempool)},
	"getreceivedbyaddress": {serve: (*Server).received},
	"listunspent":          {serve: (*Server).listUnspent},
	"getutxosbyamount":     {serve: (*Server).utxosByAmount},
	// The node's own reads: a light node serves them too.
	"getconnectioncount": {serve: noArgs((*Server).getConnectionCount), light: true},
	"getneighbors":       {serve: noArgs((*Server).getNeighbors), light: true},
	"getnodestate":       {serve: noArgs((*Server).getNodeState), light: true},
	// The EID chain's endpoint probes (reads); a light node answers its
	// upstream's head and chain id.
	"eth_blockNumber": {serve: noArgs((*Server).ethBlockNumber), light: true},
	"eth_chainId":     {serve: noArgs((*Server).ethChainID), light: true},
	"net_version":     {serve: noArgs((*Server).netVersion)},

	// The chain's one broadcast: a transaction its sender signed, which
	// spends nothing of the node's.
	"sendrawtransaction": {serve: oneArg("data", args.hexBytes, (*Server).broadcastRaw), access: broadcast},
}

// resolveDID answers resolvedid: params {did, all}, the status as the
// interface defines it (1 for an expired DID).
func (s *Server) resolveDID(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	return s.resolve(ctx, "resolvedid", params, s.dids.ResolveDID)
}

// resolve reads {did, all} and answers with the result by builds, in the
// SDKs' dialect or not. all may be left out and then means false, as the
// SDKs send it and as the EID chain reads it (Elastos.ELA.SideChain.EID
// internal/ethapi/didapi.go, ResolveDID).
func (s *Server) resolve(ctx context.Context, method string, params json.RawMessage, by func(context.Context, did.DID, bool) ([]byte, error)) (any, *jsonrpc.Error) {
	var p struct {
		DID *string `json:"did"`
		All bool    `json:"all"`
	}
	if err := jsonrpc.DecodeParams(params, &p); err != nil {
		return nil, err
	}
	d, err := didParam("did", p.DID)
	if err != nil {
		return nil, err
	}
	result, cerr := by(ctx, d, p.All)
	if cerr != nil {
		return nil, s.chainFailure(method, jsonrpc.InvalidParams, cerr)
	}
	return json.RawMessage(result), nil
}

// resolveCredential answers resolvecredential: params {id, issuer?}.
func (s *Server) resolveCredential(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	var p struct {
		ID     *string `json:"id"`
		Issuer *string `json:"issuer"`
	}
	if err := jsonrpc.DecodeParams(params, &p); err != nil {
		return nil, err
	}
	if p.ID == nil {
		return nil, jsonrpc.InvalidParams("id is missing: give the credential's DID URL")
	}
	id, err := did.ParseCredentialID(*p.ID)
	if err != nil {
		return nil, paramError("id", err)
	}
	var issuer *did.DID
	if p.Issuer != nil {
		d, err := didParam("issuer", p.Issuer)
		if err != nil {
			return nil, err
		}
		issuer = &d
	}
	result, cerr := s.dids.ResolveCredential(ctx, id, issuer)
	if cerr != nil {
		return nil, s.chainFailure("resolvecredential", jsonrpc.InvalidParams, cerr)
	}
	return json.RawMessage(result), nil
}

// listCredentials answers listcredentials: params {did, skip?, limit?}.
// Neither may be negative; a limit of 0 (or none) and one above the most a
// page holds are the chain's to settle.
func (s *Server) listCredentials(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	var p struct {
		DID   *string `json:"did"`
		Skip  int     `json:"skip"`
		Limit int     `json:"limit"`
	}
	if err := jsonrpc.DecodeParams(params, &p); err != nil {
		return nil, err
	}
	d, err := didParam("did", p.DID)
	if err != nil {
		return nil, err
	}
	if err := nonNegative(p.Skip, p.Limit, jsonrpc.InvalidParams); err != nil {
		return nil, err
	}
	result, cerr := s.dids.ListCredentials(ctx, d, p.Skip, p.Limit)
	if cerr != nil {
		return nil, s.chainFailure("listcredentials", jsonrpc.InvalidParams, cerr)
	}
	return json.RawMessage(result), nil
}

// didParam reads the DID parameter name: full form or the bare id.
func didParam(name string, s *string) (did.DID, *jsonrpc.Error) {
	if s == nil {
		return did.DID{}, jsonrpc.InvalidParams(name + " is missing")
	}
	d, err := did.Parse(*s)
	if err != nil {
		return did.DID{}, paramError(name, err)
	}
	return d, nil
}

// paramError reports parameter name that core's did package refused, its
// error without the package's prefix ("did: DID … is 600 bytes long").
func paramError(name string, err error) *jsonrpc.Error {
	return jsonrpc.InvalidParams(name + ": " + strings.TrimPrefix(err.Error(), "did: "))
}

// nonNegative checks paging parameters; errors are made by invalid.
func nonNegative(skip, limit int, invalid func(string) *jsonrpc.Error) *jsonrpc.Error {
	switch {
	case skip < 0:
		return invalid(fmt.Sprintf("skip is %d, want 0 or more", skip))
	case limit < 0:
		return invalid(fmt.Sprintf("limit is %d, want 0 (the default) or more", limit))
	}
	return nil
}

// chainFailure reports a read the chain could not answer: parameters it
// refuses ([chain.KindInvalid]) as invalid makes them, and anything else,
// as -32001 "Resolver internal error.", logged if the store failed. An
// error that says how JSON-RPC answers it (a light node's) is answered so.
func (s *Server) chainFailure(method string, invalid func(string) *jsonrpc.Error, err error) *jsonrpc.Error {
	if e, ok := asRPCFailure(err); ok {
		return e
	}
	switch chain.KindOf(err) {
	case chain.KindInvalid:
		return invalid(err.Error())
	case chain.KindStopped:
		return jsonrpc.ResolverError("the request was cancelled: the client left or the node is stopping")
	}
	s.log.Error("resolver failed", "method", method, "err", err)
	return jsonrpc.ResolverError(err.Error())
}
