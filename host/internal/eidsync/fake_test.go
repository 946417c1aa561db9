package eidsync_test

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

// fakeChain serves a generated EID chain over JSON-RPC, as EID's geth
// answers the methods a scan asks (eth_chainId, eth_blockNumber,
// eth_getBlockByNumber with transactions, eth_getTransactionReceipt, and
// batches of them). Its blocks are made from their numbers; the DID
// transactions placed in some of them carry real didLog data. It can
// switch to a branch that replaces its blocks from a number on.
type fakeChain struct {
	chainID  uint64
	contract string
	from     string // the sender of every transaction

	mu    sync.Mutex
	head  uint64
	forks []uint64 // where each reorg began
	txs   map[uint64][]fakeTx
	where map[string]fakeTx // by transaction hash
	fail  func(n int) bool  // answer the n-th HTTP request (from 0) with 500

	requests, elements atomic.Int64 // HTTP requests, JSON-RPC calls in them
	blockCalls         atomic.Int64
	receiptCalls       atomic.Int64
	inFlight, most     atomic.Int64
}

// fakeTx is a transaction of a fakeChain.
type fakeTx struct {
	hash, to string
	block    uint64
	index    int
	accepted bool
	op       string // didLog.operation
	data     string // didLog.data
}

func newFakeChain(chainID uint64, contract string, head uint64) *fakeChain {
	return &fakeChain{chainID: chainID, contract: contract, from: "0x71562b71999873db5b286df957af199ec94617f7", head: head,
		txs: map[uint64][]fakeTx{}, where: map[string]fakeTx{}}
}

// hash returns block n's hash on the branch serving it: made from n and
// how many reorgs began at or below n, which each reorg raises for every
// block it replaces.
func (c *fakeChain) hash(n uint64) string {
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

// put places a DID transaction at the end of block n: to the contract or
// the precompile, accepted with its didLog or refused.
func (c *fakeChain) put(n uint64, viaPrecompile, accepted bool, op, data string) fakeTx {
	c.mu.Lock()
	defer c.mu.Unlock()
	to := c.contract
	if viaPrecompile {
		to = eidsync.Precompile
	}
	sum := sha256.Sum256([]byte(fmt.Sprint(c.hash(n), len(c.txs[n]))))
	tx := fakeTx{hash: fmt.Sprintf("0x%x", sum), to: to, block: n, index: len(c.txs[n]), accepted: accepted, op: op, data: data}
	c.txs[n] = append(c.txs[n], tx)
	c.where[tx.hash] = tx
	return tx
}

// reorg switches to a new branch replacing the blocks from number fork on
// (their transactions dropped), up to head.
func (c *fakeChain) reorg(fork, head uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.forks = append(c.forks, fork)
	c.head = head
	for n, txs := range c.txs {
		if n >= fork {
			for _, tx := range txs {
				delete(c.where, tx.hash)
			}
			delete(c.txs, n)
		}
	}
}

func (c *fakeChain) serve(w http.ResponseWriter, r *http.Request) {
	n := c.requests.Add(1) - 1
	if v := c.inFlight.Add(1); v > c.most.Load() {
		c.most.Store(v) // racy maximum: only ever low by a request
	}
	defer c.inFlight.Add(-1)
	var body bytes.Buffer
	body.ReadFrom(r.Body)
	c.mu.Lock()
	fail := c.fail != nil && c.fail(int(n))
	c.mu.Unlock()
	if fail {
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
func (c *fakeChain) answer(out []byte, raw []byte) []byte {
	c.elements.Add(1)
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
		c.blockCalls.Add(1)
		var tag string
		json.Unmarshal(req.Params[0], &tag)
		n, err := strconv.ParseUint(strings.TrimPrefix(tag, "0x"), 16, 64)
		if err != nil || n > c.head {
			out = append(out, "null"...)
			break
		}
		out = c.block(out, n)
	case "eth_getTransactionReceipt":
		c.receiptCalls.Add(1)
		var h string
		json.Unmarshal(req.Params[0], &h)
		tx, ok := c.where[h]
		if !ok {
			out = append(out, "null"...)
			break
		}
		out = c.receipt(out, tx)
	default:
		out = out[:len(out)-len(`,"result":`)]
		return append(out, `,"error":{"code":-32601,"message":"the method does not exist/is not available"}}`...)
	}
	return append(out, '}')
}

// emptyBloom is a header's logsBloom without logs: 256 zero bytes.
var emptyBloom = "0x" + strings.Repeat("0", 512)

// block appends block n as geth writes it with its transactions.
func (c *fakeChain) block(out []byte, n uint64) []byte {
	hash, parent := c.hash(n), c.hash(n-1)
	if n == 0 {
		parent = "0x" + strings.Repeat("0", 64)
	}
	out = fmt.Appendf(out, `{"difficulty":"0x2","extraData":"0xda850100090700846765746888676f312e32362e38856c696e7578000000000000000000000000","gasLimit":"0x5f5e100","gasUsed":"0x0","hash":"%s","logsBloom":"%s","miner":"0x0000000000000000000000000000000000000000","mixHash":"0x%064x","nonce":"0x0000000000000000","number":"%#x","parentHash":"%s","receiptsRoot":"0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421","sha3Uncles":"0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347","size":"0x25e","stateRoot":"0x%064x","timestamp":"%#x","totalDifficulty":"%#x","transactions":[`,
		hash, emptyBloom, 0, n, parent, n, 1623945600+5*n, 2*n+1)
	for i, tx := range c.txs[n] {
		if i > 0 {
			out = append(out, ',')
		}
		out = fmt.Appendf(out, `{"blockHash":"%s","blockNumber":"%#x","from":"%s","gas":"0x7a1200","gasPrice":"0x3b9aca00","hash":"%s","input":"0x03c6d240","nonce":"%#x","to":"%s","transactionIndex":"%#x","value":"0x0","v":"0x1b","r":"0x1","s":"0x1"}`,
			hash, n, c.from, tx.hash, i, tx.to, i)
	}
	return append(out, `],"transactionsRoot":"0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421","uncles":[]}`...)
}

// receipt appends tx's receipt as EID writes it: didLog only when accepted.
func (c *fakeChain) receipt(out []byte, tx fakeTx) []byte {
	status := "0x0"
	if tx.accepted {
		status = "0x1"
	}
	out = fmt.Appendf(out, `{"blockHash":"%s","blockNumber":"%#x","contractAddress":null,"cumulativeGasUsed":"0x1c67e",`, c.hash(tx.block), tx.block)
	if tx.accepted {
		out = fmt.Appendf(out, `"didLog":{"did":"did:elastos:x","operation":%q,"data":%q,"transactionHash":"%s","removed":false},`, tx.op, tx.data, tx.hash)
	}
	return fmt.Appendf(out, `"from":"%s","gasUsed":"0x1c67e","logs":[],"logsBloom":"%s","status":"%s","to":"%s","transactionHash":"%s","transactionIndex":"%#x"}`,
		c.from, emptyBloom, status, tx.to, tx.hash, tx.index)
}

// start serves c on loopback until the test ends and returns its URL.
func (c *fakeChain) start(t testing.TB) string {
	s := httptest.NewServer(http.HandlerFunc(c.serve))
	t.Cleanup(s.Close)
	return s.URL
}
