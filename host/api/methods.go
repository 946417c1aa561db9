package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/jsonrpc"
	"github.com/didlight/didlight/host/chain"
)

// method answers one JSON-RPC call: a result (a json.RawMessage when the
// chain built it) or an error.
type method func(s *Server, ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error)

// methods are the JSON-RPC methods. The DID methods are served under the
// resolver interface's names and under the names the published DID SDKs
// call (which send params as an array holding one object;
// jsonrpc.DecodeParams reads both forms); the answers are the same objects,
// but for the status of an expired DID. The chain's general methods
// (chainrpc.go, noderpc.go) take named or positional params
// (jsonrpc.Args), as the Elastos nodes read them.
var methods = map[string]method{
	// DID reads.
	"resolvedid":            (*Server).resolveDID,
	"did_resolveDID":        (*Server).resolveDIDForSDK,
	"query":                 (*Server).query,
	"resolvecredential":     (*Server).resolveCredential,
	"did_resolveCredential": (*Server).resolveCredential,
	"listcredentials":       (*Server).listCredentials,
	"did_listCredentials":   (*Server).listCredentials,

	// Devnet controls.
	"dev_mine":         (*Server).devMine,
	"dev_increaseTime": (*Server).devIncreaseTime,

	// The chain's general reads.
	"getblockcount":        noArgs((*Server).getBlockCount),
	"getcurrentheight":     noArgs((*Server).getCurrentHeight),
	"getbestblockhash":     noArgs((*Server).getBestBlockHash),
	"getblockhash":         oneArg("height", args.height, (*Server).hashAtHeight),
	"getblock":             (*Server).getBlock,
	"getblockbyheight":     oneArg("height", args.height, (*Server).blockAtHeight),
	"getrawtransaction":    (*Server).getRawTransaction,
	"getrawmempool":        noArgs((*Server).getRawMempool),
	"getreceivedbyaddress": oneArg("address", args.address, (*Server).received),
	"listunspent":          oneArg("addresses", args.addresses, (*Server).listUnspent),
	"getconnectioncount":   noArgs((*Server).getConnectionCount),
	"getneighbors":         noArgs((*Server).getNeighbors),
	"getnodestate":         noArgs((*Server).getNodeState),
	// The EID chain's endpoint probes (reads).
	"eth_blockNumber": noArgs((*Server).ethBlockNumber),
	"eth_chainId":     noArgs((*Server).ethChainID),
	"net_version":     noArgs((*Server).netVersion),

	// The chain's one broadcast: a transaction its sender signed, which
	// spends nothing of the node's.
	"sendrawtransaction": oneArg("data", args.hexBytes, (*Server).broadcastRaw),
}

// resolveDID answers resolvedid: params {did, all}, the status as the
// interface defines it (1 for an expired DID).
func (s *Server) resolveDID(_ context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	return s.resolve("resolvedid", false, params, s.chain.ResolveDID)
}

// resolveDIDForSDK answers did_resolveDID, the published SDKs' name: the
// same, except that an expired DID is status 0. The SDKs know statuses 0, 2
// and 3 only, throw on 1, and judge expiry from the document themselves, as
// the EID chain leaves it to them (node-log decision, 2026-11-21).
func (s *Server) resolveDIDForSDK(_ context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	return s.resolve("did_resolveDID", true, params, s.chain.ResolveDIDSDK)
}

// resolve reads {did, all} and answers with the result by builds, in the
// SDKs' dialect or not. all may be left out and then means false, as the
// SDKs send it and as the EID chain reads it (Elastos.ELA.SideChain.EID
// internal/ethapi/didapi.go, ResolveDID).
func (s *Server) resolve(method string, sdk bool, params json.RawMessage, by func(did.DID, bool) ([]byte, error)) (any, *jsonrpc.Error) {
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
	result, cerr := by(d, p.All)
	if cerr != nil {
		return nil, s.chainFailure(method, jsonrpc.InvalidParams, cerr)
	}
	return json.RawMessage(result), nil
}

// resolveCredential answers resolvecredential: params {id, issuer?}.
func (s *Server) resolveCredential(_ context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
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
	id, err := did.ParseURL(*p.ID, did.DID{})
	if err != nil || id.DID.IsZero() {
		return nil, jsonrpc.InvalidParams(fmt.Sprintf("id %q is not a credential id (a DID URL such as did:elastos:…#name)", *p.ID))
	}
	var issuer *did.DID
	if p.Issuer != nil {
		d, err := didParam("issuer", p.Issuer)
		if err != nil {
			return nil, err
		}
		issuer = &d
	}
	result, cerr := s.chain.ResolveCredential(id, issuer)
	if cerr != nil {
		return nil, s.chainFailure("resolvecredential", jsonrpc.InvalidParams, cerr)
	}
	return json.RawMessage(result), nil
}

// listCredentials answers listcredentials: params {did, skip?, limit?}.
// Neither may be negative; a limit of 0 (or none) and one above the most a
// page holds are the chain's to settle.
func (s *Server) listCredentials(_ context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
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
	result, cerr := s.chain.ListCredentials(d, p.Skip, p.Limit)
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
		return did.DID{}, jsonrpc.InvalidParams(fmt.Sprintf("%s: %v", name, err))
	}
	return d, nil
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
// refuses (chain.ErrQuery) as invalid makes them, and anything else, a
// failure of its store, as -32001 "Resolver internal error.", which is
// logged.
func (s *Server) chainFailure(method string, invalid func(string) *jsonrpc.Error, err error) *jsonrpc.Error {
	if errors.Is(err, chain.ErrQuery) {
		return invalid(err.Error())
	}
	s.log.Error("resolver failed", "method", method, "err", err)
	return jsonrpc.ResolverError(err.Error())
}
