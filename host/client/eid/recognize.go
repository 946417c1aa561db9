package eid

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/didlight/didlight/core/jsonrpc"
	"github.com/didlight/didlight/host/client"
)

// Kind is what serves at an upstream's URL.
type Kind int

// The kinds Recognize tells apart.
const (
	// Didlight is a node that serves resolvedid, the resolver interface's
	// own method: a didlight node (or a node of the older ID side chain),
	// at its JSON-RPC or its REST API. Package client talks to it.
	Didlight Kind = iota + 1
	// EID is a node of the EID chain: go-ethereum's JSON-RPC, which has no
	// method without a namespace, with EID's did namespace. A Client talks
	// to it.
	EID
)

func (k Kind) String() string {
	switch k {
	case Didlight:
		return "didlight"
	case EID:
		return "EID"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Upstream is what Recognize found at a URL.
type Upstream struct {
	Kind    Kind
	REST    bool   // Didlight: the URL is the node's REST API, which answered its node state, not its JSON-RPC
	ChainID uint64 // EID: what the node answered eth_chainId with
}

// Recognize tells what serves at url by what it answers, in at most four
// requests, each bounded by [DefaultRequestTimeout] and ctx:
//
//  1. resolvedid with no DID. A didlight node answers it (an error about
//     the missing DID: it reads no store); EID, whose JSON-RPC is
//     go-ethereum's, answers "method not found" (-32601), as geth does for
//     every name outside its namespace_method scheme. That one answer
//     decides; the chain id cannot (a didlight devnet answers EID's
//     developer chain id, 20), nor web3_clientVersion (proxies may close
//     the web3 namespace, and a name proves nothing).
//  2. Not found: eth_chainId must answer a quantity (a JSON-RPC server
//     that knows neither is not an Elastos node), and did_resolveDID with
//     no DID must be a method the node has (EID's did namespace is
//     enabled with --rpcapi …,did), else the error says so.
//  3. Any other failure, such as an answer that is not JSON-RPC: url may
//     be a didlight node's REST API (its listener answers POSTs with a REST
//     envelope), which must answer GET /api/v1/node/state. A url ending in
//     /api/v1 is asked only this.
//
// hc nil means a new http.Client. A url that answers nothing fails with
// an error wrapping a *client.UnreachableError.
func Recognize(ctx context.Context, url string, hc *http.Client) (Upstream, error) {
	if _, err := parseEndpoint(url); err != nil {
		return Upstream{}, err
	}
	if hc == nil {
		hc = &http.Client{}
	}
	t := transport{http: hc, timeout: DefaultRequestTimeout, maxAnswer: DefaultMaxAnswer}
	if strings.HasSuffix(strings.TrimSuffix(url, "/"), "/api/v1") {
		return rest(ctx, url, hc, nil)
	}
	_, a := t.call(ctx, url, "resolvedid", json.RawMessage(`{}`))
	switch {
	case a == nil:
		return Upstream{Kind: Didlight}, nil
	case rpcCode(a.err) == jsonrpc.CodeMethodNotFound:
		return eidNode(ctx, t, url)
	case rpcCode(a.err) != 0:
		return Upstream{Kind: Didlight}, nil
	case ctx.Err() != nil:
		return Upstream{}, a.err
	}
	return rest(ctx, url, hc, a.err)
}

// rpcCode returns the code of a JSON-RPC error answer, 0 for another error.
func rpcCode(err error) int {
	if re, ok := err.(*client.RPCError); ok {
		return re.Code
	}
	return 0
}

// eidNode checks that the JSON-RPC server at url, which has no
// resolvedid, is an EID node with the did namespace.
func eidNode(ctx context.Context, t transport, url string) (Upstream, error) {
	raw, a := t.call(ctx, url, "eth_chainId", nil)
	if a != nil {
		return Upstream{}, fmt.Errorf("eid: %s answers JSON-RPC but has no resolvedid, and eth_chainId failed: neither a didlight nor an EID node: %w", url, a.err)
	}
	id, err := quantity(raw)
	if err != nil {
		return Upstream{}, fmt.Errorf("eid: %s: eth_chainId: %w", url, err)
	}
	_, a = t.call(ctx, url, "did_resolveDID", json.RawMessage(`[{}]`))
	switch {
	case a == nil:
	case rpcCode(a.err) == 0:
		return Upstream{}, a.err
	case rpcCode(a.err) == jsonrpc.CodeMethodNotFound:
		return Upstream{}, fmt.Errorf("eid: %s is an Ethereum node (chain id %d) without did_resolveDID: an EID node must enable the did API (--rpcapi eth,net,web3,did)", url, id)
	}
	return Upstream{Kind: EID, ChainID: id}, nil
}

// rest checks that url is a didlight node's REST API. rpcErr is what its
// JSON-RPC request got, if one was sent.
func rest(ctx context.Context, url string, hc *http.Client, rpcErr error) (Upstream, error) {
	rctx, cancel := context.WithTimeout(ctx, DefaultRequestTimeout)
	defer cancel()
	if _, err := client.New(url, "", hc).State(rctx); err != nil {
		if rpcErr == nil {
			return Upstream{}, err
		}
		return Upstream{}, fmt.Errorf("eid: %s answers neither JSON-RPC (%v) nor a node's REST API (%w)", url, cause(rpcErr), err)
	}
	return Upstream{Kind: Didlight, REST: true}, nil
}
