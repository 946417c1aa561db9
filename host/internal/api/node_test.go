package api_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/didlight/didlight/host/internal/api"
	"github.com/didlight/didlight/host/internal/chain"
	hostnode "github.com/didlight/didlight/host/internal/node"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// The end-to-end tests run a real chain on an in-memory store behind a real
// server on loopback ports, and talk to it over HTTP only.

const adminToken = "test-token"

// node is a running chain and server.
type node struct {
	t      testing.TB
	chain  *chain.Chain
	srv    *api.Server
	db     *failingDB
	rest   string // REST base URL, ending in /api/v1
	rpcURL string // JSON-RPC URL, ending in /
	client *http.Client

	stopServing func() error // ends Serve and returns what it returned; once
}

// startNode runs a node whose producer mines blocks every blockTime (0: as
// soon as transactions arrive) until the test ends.
func startNode(t testing.TB, blockTime time.Duration) *node {
	t.Helper()
	return startNodeWith(t, blockTime, api.Options{AdminToken: adminToken, Version: "test"})
}

// startNodeWith is startNode with the server's options.
func startNodeWith(t testing.TB, blockTime time.Duration, opts api.Options) *node {
	t.Helper()
	db := &failingDB{DB: mem.New()}
	c, err := chain.Open(chain.Config{DB: db, BlockTime: blockTime})
	if err != nil {
		t.Fatal(err)
	}
	running, err := hostnode.Start(c, hostnode.Config{API: opts})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := running.Stop(); err != nil {
			t.Error(err)
		}
		if err := c.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	srv := running.Server
	return &node{t: t, chain: c, srv: srv, db: db, rest: srv.RESTURL(), rpcURL: srv.RPCURL(), stopServing: running.StopServing,
		client: &http.Client{Timeout: 70 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}}
}

// failingDB is the chain's store, made to fail on demand: the way to show
// what the resolver answers when its store fails.
type failingDB struct {
	store.DB
	fail atomic.Bool
}

var errStoreDown = errors.New("store is down (test)")

func (db *failingDB) View(fn func(store.Tx) error) error {
	if db.fail.Load() {
		return errStoreDown
	}
	return db.DB.View(fn)
}

// do sends a request and returns the status, the headers and the body.
func (n *node) do(method, url, contentType string, body []byte, header ...string) (int, http.Header, []byte) {
	n.t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		n.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := n.client.Do(req)
	if err != nil {
		n.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		n.t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, b
}

// envelope is a REST answer.
type envelope struct {
	Desc   string
	Error  int
	Result json.RawMessage
}

// get reads a REST path (after /api/v1) and returns its envelope; the
// HTTP status must be 200 and the body exactly an envelope.
func (n *node) get(path string, header ...string) envelope {
	n.t.Helper()
	status, _, body := n.do("GET", n.rest+path, "", nil, header...)
	return n.envelope(status, body)
}

func (n *node) envelope(status int, body []byte) envelope {
	n.t.Helper()
	var e envelope
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil || status != http.StatusOK || e.Result == nil {
		n.t.Fatalf("status %d, body %s: not a REST envelope (%v)", status, body, err)
	}
	if (e.Error == 0) != (e.Desc == "Success") {
		n.t.Fatalf("envelope %s: Desc and Error disagree", body)
	}
	return e
}

// ok reads a REST path that must succeed and decodes its Result into v.
func (n *node) ok(path string, v any) {
	n.t.Helper()
	e := n.get(path)
	if e.Error != 0 {
		n.t.Fatalf("GET %s: %d %s: %s", path, e.Error, e.Desc, e.Result)
	}
	if err := json.Unmarshal(e.Result, v); err != nil {
		n.t.Fatalf("GET %s: Result %s: %v", path, e.Result, err)
	}
}

// fails reads a REST path that must fail with code and a Result that
// mentions want.
func (n *node) fails(path string, code int, want string) {
	n.t.Helper()
	n.checkFailure("GET "+path, n.get(path), code, want)
}

func (n *node) checkFailure(what string, e envelope, code int, want string) {
	n.t.Helper()
	var detail string
	json.Unmarshal(e.Result, &detail)
	if e.Error != code || !strings.Contains(detail, want) {
		n.t.Errorf("%s: %d %s %s, want %d with %q", what, e.Error, e.Desc, e.Result, code, want)
	}
}

// rpcResponse is a JSON-RPC answer.
type rpcResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	Result  json.RawMessage `json:"result"`
	Error   *rpcError       `json:"error"`
	ID      json.RawMessage `json:"id"`
}

type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

// post sends a raw JSON-RPC body to path (after the RPC URL's /) and
// returns the raw answer, which must come with HTTP 200.
func (n *node) post(path, body string) []byte {
	n.t.Helper()
	status, _, b := n.do("POST", n.rpcURL+path, "application/json", []byte(body))
	if status != http.StatusOK {
		n.t.Fatalf("POST /%s %s: status %d: %s", path, body, status, b)
	}
	return b
}

// call sends one JSON-RPC call and returns its response.
func (n *node) call(method string, params any) rpcResponse {
	n.t.Helper()
	p, err := json.Marshal(params)
	if err != nil {
		n.t.Fatal(err)
	}
	return n.decode(n.post("", fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":%s,"id":42}`, method, p)))
}

func (n *node) decode(b []byte) rpcResponse {
	n.t.Helper()
	var r rpcResponse
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil || r.JSONRPC != "2.0" || (r.Error == nil) == (r.Result == nil) {
		n.t.Fatalf("not a JSON-RPC response (exactly one of result and error): %s (%v)", b, err)
	}
	return r
}

// result sends a call that must succeed and decodes its result into v.
func (n *node) result(method string, params, v any) {
	n.t.Helper()
	r := n.call(method, params)
	if r.Error != nil {
		n.t.Fatalf("%s %v: error %d %s %s", method, params, r.Error.Code, r.Error.Message, r.Error.Data)
	}
	if err := json.Unmarshal(r.Result, v); err != nil {
		n.t.Fatalf("%s: result %s: %v", method, r.Result, err)
	}
}

func checkRPCError(t testing.TB, what string, r rpcResponse, code int, message, want string) {
	t.Helper()
	if r.Error == nil || r.Error.Code != code || r.Error.Message != message || !strings.Contains(string(r.Error.Data), want) {
		t.Errorf("%s: got %+v %s, want error %d %q with %q", what, r.Error, r.Result, code, message, want)
	}
}

func itoa(h uint32) string { return strconv.FormatUint(uint64(h), 10) }

// height is the chain's tip height, read over REST.
func (n *node) height() uint32 {
	n.t.Helper()
	var h uint32
	n.ok("/block/height", &h)
	return h
}

// unchanged fails the test when the chain moved from before (n.state).
func (n *node) unchanged(what, before string) {
	n.t.Helper()
	if after := n.state(); after != before {
		n.t.Errorf("%s changed the chain:\nbefore %s\nafter  %s", what, before, after)
	}
}
