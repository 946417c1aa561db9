// Package eidfake serves a generated EID chain over JSON-RPC, for tests of what scans one.
package eidfake

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/didlight/didlight/host/internal/eidsync"
)

// Chain serves a generated EID chain over JSON-RPC, as EID's geth
// answers the methods a scan asks (eth_chainId, eth_blockNumber,
// eth_getBlockByNumber with transactions, eth_getTransactionReceipt, and
// batches of them) and did_resolveDID without a DID, as a follower's
// start asks. Its blocks are made from their numbers; the DID
// transactions placed in some of them carry real didLog data. It can
// switch to a branch that replaces its blocks from a number on.
type Chain struct {
	chainID  uint64
	contract string
	from     string // the sender of every transaction

	mu    sync.Mutex
	head  uint64
	forks []uint64 // where each reorg began
	txs   map[uint64][]Tx
	where map[string]Tx // by transaction hash

	// Fail, set before the chain serves, says to answer the n-th HTTP
	// request (from 0) with 500.
	Fail func(n int) bool

	// What the chain was asked: HTTP requests, JSON-RPC calls in them,
	// blocks, blocks with their transactions, receipts; requests being
	// answered and the most at once.
	Requests, Elements atomic.Int64
	BlockCalls         atomic.Int64
	FullCalls          atomic.Int64
	ReceiptCalls       atomic.Int64
	InFlight, Most     atomic.Int64
}

// Tx is a transaction of a Chain.
type Tx struct {
	Hash     string // 0x and 64 hex digits
	Index    int    // in its block
	to       string
	block    uint64
	accepted bool
	op       string // didLog.operation
	data     string // didLog.data
}

// New returns a chain of empty blocks 0 to head, of chainID, whose DID
// transactions go to contract.
func New(chainID uint64, contract string, head uint64) *Chain {
	return &Chain{chainID: chainID, contract: contract, from: "0x71562b71999873db5b286df957af199ec94617f7", head: head,
		txs: map[uint64][]Tx{}, where: map[string]Tx{}}
}

// Hash returns block n's hash on the branch serving it: made from n and
// how many reorgs began at or below n, which each reorg raises for every
// block it replaces.
func (c *Chain) Hash(n uint64) string {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:], n)
	for _, f := range c.forks {
		if f <= n {
			b[15]++
		}
	}
	sum := sha256.Sum256(b[:])
	return fmt.Sprintf("0x%x", sum)
}

// Put places a DID transaction at the end of block n: to the contract or
// the precompile, accepted with its didLog or refused.
func (c *Chain) Put(n uint64, viaPrecompile, accepted bool, op, data string) Tx {
	c.mu.Lock()
	defer c.mu.Unlock()
	to := c.contract
	if viaPrecompile {
		to = eidsync.Precompile
	}
	sum := sha256.Sum256([]byte(fmt.Sprint(c.Hash(n), len(c.txs[n]))))
	tx := Tx{Hash: fmt.Sprintf("0x%x", sum), to: to, block: n, Index: len(c.txs[n]), accepted: accepted, op: op, data: data}
	c.txs[n] = append(c.txs[n], tx)
	c.where[tx.Hash] = tx
	return tx
}

// Reorg switches to a new branch replacing the blocks from number fork on
// (their transactions dropped), up to head.
func (c *Chain) Reorg(fork, head uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.forks = append(c.forks, fork)
	c.head = head
	for n, txs := range c.txs {
		if n >= fork {
			for _, tx := range txs {
				delete(c.where, tx.Hash)
			}
			delete(c.txs, n)
		}
	}
}

func (c *Chain) serve(w http.ResponseWriter, r *http.Request) {
	n := c.Requests.Add(1) - 1
	if v := c.InFlight.Add(1); v > c.Most.Load() {
		c.Most.Store(v) // racy maximum: only ever low by a request
	}
	defer c.InFlight.Add(-1)
	var body bytes.Buffer
	body.ReadFrom(r.Body)
	if c.Fail != nil && c.Fail(int(n)) {
		http.Error(w, "fake: injected failure", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	b := bytes.TrimSpace(body.Bytes())
	if len(b) > 0 && b[0] == '[' {
		var reqs []json.RawMessage
		json.Unmarshal(b, &reqs)
		out := []byte{'['}
		for i, q := range reqs {
			if i > 0 {
				out = append(out, ',')
			}
			out = c.answer(out, q)
		}
		w.Write(append(out, "]\n"...))
		return
	}
	w.Write(append(c.answer(nil, b), '\n'))
}

// answer appends the answer to one request to out.
func (c *Chain) answer(out []byte, raw []byte) []byte {
	c.Elements.Add(1)
	var req struct {
		ID     json.RawMessage
		Method string
		Params []json.RawMessage
	}
	json.Unmarshal(raw, &req)
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, req.ID...)
	out = append(out, `,"result":`...)
	c.mu.Lock()
	defer c.mu.Unlock()
	switch req.Method {
	case "eth_chainId":
		out = fmt.Appendf(out, `"%#x"`, c.chainID)
	case "eth_blockNumber":
		out = fmt.Appendf(out, `"%#x"`, c.head)
	case "eth_getBlockByNumber":
		c.BlockCalls.Add(1)
		var tag string
		var full bool
		json.Unmarshal(req.Params[0], &tag)
		json.Unmarshal(req.Params[1], &full)
		n, err := strconv.ParseUint(strings.TrimPrefix(tag, "0x"), 16, 64)
		if err != nil || n > c.head {
			out = append(out, "null"...)
			break
		}
		if full {
			c.FullCalls.Add(1)
		}
		out = c.block(out, n, full)
	case "eth_getTransactionReceipt":
		c.ReceiptCalls.Add(1)
		var h string
		json.Unmarshal(req.Params[0], &h)
		tx, ok := c.where[h]
		if !ok {
			out = append(out, "null"...)
			break
		}
		out = c.receipt(out, tx)
	case "did_resolveDID":
		// It keeps no DID index: it answers only as EID answers a request
		// without a DID, which is how eid.Recognize tells an EID node.
		out = out[:len(out)-len(`,"result":`)]
		return append(out, `,"error":{"code":-32602,"message":"did is null"}}`...)
	default:
		out = out[:len(out)-len(`,"result":`)]
		return append(out, `,"error":{"code":-32601,"message":"the method does not exist/is not available"}}`...)
	}
	return append(out, '}')
}

// emptyBloom is a header's logsBloom without logs: 256 zero bytes.
var emptyBloom = "0x" + strings.Repeat("0", 512)

// block appends block n as EID's geth writes it, with its transactions in
// full or their hashes; its logsBloom holds each one's sender and
// recipient, as EID's does.
func (c *Chain) block(out []byte, n uint64, full bool) []byte {
	hash, parent := c.Hash(n), c.Hash(n-1)
	if n == 0 {
		parent = "0x" + strings.Repeat("0", 64)
	}
	bloom := emptyBloom
	if txs := c.txs[n]; len(txs) > 0 {
		var b [256]byte
		for _, tx := range txs {
			eidsync.AddToBloom(&b, c.from)
			eidsync.AddToBloom(&b, tx.to)
		}
		bloom = fmt.Sprintf("0x%x", b)
	}
	out = fmt.Appendf(out, `{"difficulty":"0x2","extraData":"0xda850100090700846765746888676f312e32362e38856c696e7578000000000000000000000000","gasLimit":"0x5f5e100","gasUsed":"0x0","hash":"%s","logsBloom":"%s","miner":"0x0000000000000000000000000000000000000000","mixHash":"0x%064x","nonce":"0x0000000000000000","number":"%#x","parentHash":"%s","receiptsRoot":"0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421","sha3Uncles":"0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347","size":"0x25e","stateRoot":"0x%064x","timestamp":"%#x","totalDifficulty":"%#x","transactions":[`,
		hash, bloom, 0, n, parent, n, Time(n).Unix(), 2*n+1)
	for i, tx := range c.txs[n] {
		if i > 0 {
			out = append(out, ',')
		}
		if !full {
			out = fmt.Appendf(out, `"%s"`, tx.Hash)
			continue
		}
		out = fmt.Appendf(out, `{"blockHash":"%s","blockNumber":"%#x","from":"%s","gas":"0x7a1200","gasPrice":"0x3b9aca00","hash":"%s","input":"0x03c6d240","nonce":"%#x","to":"%s","transactionIndex":"%#x","value":"0x0","v":"0x1b","r":"0x1","s":"0x1"}`,
			hash, n, c.from, tx.Hash, i, tx.to, i)
	}
	return append(out, `],"transactionsRoot":"0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421","uncles":[]}`...)
}

// receipt appends tx's receipt as EID writes it: didLog only when accepted.
func (c *Chain) receipt(out []byte, tx Tx) []byte {
	status := "0x0"
	if tx.accepted {
		status = "0x1"
	}
	out = fmt.Appendf(out, `{"blockHash":"%s","blockNumber":"%#x","contractAddress":null,"cumulativeGasUsed":"0x1c67e",`, c.Hash(tx.block), tx.block)
	if tx.accepted {
		out = fmt.Appendf(out, `"didLog":{"did":"did:elastos:x","operation":%q,"data":%q,"transactionHash":"%s","removed":false},`, tx.op, tx.data, tx.Hash)
	}
	return fmt.Appendf(out, `"from":"%s","gasUsed":"0x1c67e","logs":[],"logsBloom":"%s","status":"%s","to":"%s","transactionHash":"%s","transactionIndex":"%#x"}`,
		c.from, emptyBloom, status, tx.to, tx.Hash, tx.Index)
}

// Handler returns c's JSON-RPC handler.
func (c *Chain) Handler() http.Handler { return http.HandlerFunc(c.serve) }

// Start serves c on loopback until the test ends and returns its URL.
func (c *Chain) Start(t testing.TB) string {
	s := httptest.NewServer(c.Handler())
	t.Cleanup(s.Close)
	return s.URL
}
