package eid_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// node imitates an EID node's JSON-RPC on a loopback port, answering as
// Elastos.ELA.SideChain.EID does: go-ethereum's rpc package (the id
// echoed, "method not found" -32601 for names it lacks, a method's error
// as -32000 with its text: ELA's http.Error carries no ErrorCode) and
// internal/ethapi/didapi.go for the did namespace.
type node struct {
	*httptest.Server
	chainID uint64
	head    atomic.Uint64
	noDID   bool // the did namespace is not enabled (--rpcapi without did)

	// fail, when set, answers a request in place of the node: nth counts
	// the requests of that method, from 1. It returns nil to let the node
	// answer.
	fail func(method string, nth int) fault

	mu   sync.Mutex
	seen []seen
}

// seen is a request as the node read it.
type seen struct {
	JSONRPC     string          `json:"jsonrpc"`
	ID          json.RawMessage `json:"id"`
	Method      string          `json:"method"`
	Params      json.RawMessage `json:"params"`
	ContentType string          `json:"-"`
}

// fault answers a request in the node's place; id is the request's.
type fault func(w http.ResponseWriter, r *http.Request, id json.RawMessage)

// The DID and credential the node holds: a one-operation history (its
// content is not read by the client, which returns it raw).
const (
	knownDID  = "did:elastos:iop7hwsiP3uDuf5TjvZxGB44tUTvuj2vQS"
	knownCred = knownDID + "#email"
	knownTx   = "0xfb861ddaf27b371a66d0ac456bebe88b23ac95fbfa1f3bfe7e4a8b4b71caa78d"
	knownFrom = "0x14b1cf2ceecfd04006a57dd060692758aa1ca330"
	knownTo   = "0x46e5936a9baa167b3368f4197edce746a66f7a7a"
)

var resolved = `{"did":"` + knownDID + `","status":0,"transaction":[{"txid":"` + knownTx[2:] + `","timestamp":"2021-08-31T03:30:41Z","operation":{"header":{"specification":"elastos/did/1.0","operation":"create"},"payload":"eyJpZCI6ImRpZDplbGFzdG9zOmlvcDcifQ","proof":{"type":"ECDSAsecp256r1","verificationMethod":"#primary","signature":"c2ln"}}}]}`

// newNode starts a node on chain chainID at height head until the test
// ends.
func newNode(t testing.TB, chainID, head uint64) *node {
	n := startNode(chainID, head)
	t.Cleanup(n.Close)
	return n
}

// startNode starts a node on chain chainID at height head.
func startNode(chainID, head uint64) *node {
	n := &node{chainID: chainID}
	n.head.Store(head)
	n.Server = httptest.NewServer(http.HandlerFunc(n.serve))
	return n
}

func (n *node) serve(w http.ResponseWriter, r *http.Request) {
	var req seen
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		write(w, nil, nil, &rpcErr{-32700, err.Error()})
		return
	}
	req.ContentType = r.Header.Get("Content-Type")
	n.mu.Lock()
	n.seen = append(n.seen, req)
	nth := 0
	for _, s := range n.seen {
		if s.Method == req.Method {
			nth++
		}
	}
	fail := n.fail
	n.mu.Unlock()
	if fail != nil {
		if f := fail(req.Method, nth); f != nil {
			f(w, r, req.ID)
			return
		}
	}
	result, e := n.answer(req.Method, req.Params)
	write(w, req.ID, result, e)
}

type rpcErr struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func write(w http.ResponseWriter, id json.RawMessage, result any, e *rpcErr) {
	resp := map[string]any{"jsonrpc": "2.0", "id": id}
	if e != nil {
		resp["error"] = e
	} else {
		resp["result"] = result
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
}

func (n *node) answer(method string, params json.RawMessage) (any, *rpcErr) {
	var args []json.RawMessage
	json.Unmarshal(params, &args)
	var p map[string]any
	if len(args) > 0 {
		json.Unmarshal(args[0], &p)
	}
	notFound := &rpcErr{-32601, fmt.Sprintf("the method %s does not exist/is not available", method)}
	if strings.HasPrefix(method, "did_") && n.noDID {
		return nil, notFound
	}
	switch method {
	case "eth_blockNumber":
		return fmt.Sprintf("%#x", n.head.Load()), nil
	case "eth_chainId":
		return fmt.Sprintf("%#x", n.chainID), nil
	case "net_version":
		return fmt.Sprint(n.chainID), nil
	case "web3_clientVersion":
		return "Geth/v1.9.7.0-v1.12.0-v0.2.3.2-0e35d3b4/linux-amd64/go1.20.14", nil
	case "did_resolveDID":
		d, ok := p["did"].(string)
		switch {
		case !ok:
			return nil, &rpcErr{-32000, "did is null"}
		case d == knownDID:
			return json.RawMessage(resolved), nil
		}
		return map[string]any{"did": d, "status": 3}, nil
	case "did_resolveCredential":
		id, ok := p["id"].(string)
		if !ok {
			return nil, &rpcErr{-32000, "id is null"}
		}
		return map[string]any{"id": id, "status": 3}, nil
	case "did_listCredentials":
		if d, _ := p["did"].(string); d != knownDID {
			return nil, &rpcErr{-32000, "did is not exist"}
		}
		return map[string]any{"did": knownDID, "credentials": []string{knownCred}}, nil
	case "eth_getTransactionByHash":
		var h string
		if len(args) > 0 {
			json.Unmarshal(args[0], &h)
		}
		if h != knownTx {
			return nil, nil
		}
		return map[string]any{"blockHash": hash(1174647), "blockNumber": "0x11ec77", "from": knownFrom, "to": knownTo,
			"hash": knownTx, "input": "0x03c6d240", "gas": "0x1bb38", "gasPrice": "0x3b9aca00", "nonce": "0x0",
			"transactionIndex": "0x0", "value": "0x0", "v": "0x4f", "r": "0x1", "s": "0x2"}, nil
	case "eth_getBlockByNumber":
		var tag string
		if len(args) > 0 {
			json.Unmarshal(args[0], &tag)
		}
		number := n.head.Load()
		if tag != "latest" {
			if _, err := fmt.Sscanf(tag, "0x%x", &number); err != nil || number > n.head.Load() {
				return nil, nil
			}
		}
		return map[string]any{"number": fmt.Sprintf("%#x", number), "hash": hash(number), "parentHash": hash(number - 1),
			"timestamp": fmt.Sprintf("%#x", blockTime(number).Unix()), "miner": knownFrom, "transactions": []string{}}, nil
	}
	return nil, notFound
}

// blockTime is the made-up time of block n: mainnet's genesis time, and
// five seconds a block.
func blockTime(n uint64) time.Time { return time.Unix(1623945600+5*int64(n), 0).UTC() }

// hash is the made-up hash of block n.
func hash(n uint64) string { return fmt.Sprintf("0x%064x", n+0xb10c) }

// count returns how many requests of method the node read ("" for all).
func (n *node) count(method string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	c := 0
	for _, s := range n.seen {
		if method == "" || s.Method == method {
			c++
		}
	}
	return c
}

// last returns the last request of method the node read.
func (n *node) last(t testing.TB, method string) seen {
	t.Helper()
	n.mu.Lock()
	defer n.mu.Unlock()
	for i := len(n.seen) - 1; i >= 0; i-- {
		if n.seen[i].Method == method {
			return n.seen[i]
		}
	}
	t.Fatalf("%s: no %s request", n.URL, method)
	return seen{}
}

// Faults.

// status answers HTTP code with header set and a body.
func status(code int, header ...string) fault {
	return func(w http.ResponseWriter, _ *http.Request, _ json.RawMessage) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(code)
		fmt.Fprintf(w, "<html>%d</html>", code)
	}
}

// body answers 200 with body, in which %s stands for the request's id.
func body(format string) fault {
	return func(w http.ResponseWriter, _ *http.Request, id json.RawMessage) {
		w.Header().Set("Content-Type", "application/json")
		if strings.Contains(format, "%s") {
			fmt.Fprintf(w, format, id)
			return
		}
		w.Write([]byte(format))
	}
}

// hang answers nothing until the client gives up.
func hang(w http.ResponseWriter, r *http.Request, _ json.RawMessage) { <-r.Context().Done() }

// hangUp closes the connection without an answer.
func hangUp(w http.ResponseWriter, _ *http.Request, _ json.RawMessage) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err == nil {
		conn.Close()
	}
}
