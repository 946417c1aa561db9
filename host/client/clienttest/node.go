// Package clienttest runs a real node in process for tests and examples of its clients.
//
// The node is a devnet on an in-memory store behind the REST and JSON-RPC
// servers on loopback ports, mining as soon as transactions arrive, with a
// dev account funded at genesis. Nothing is faked: a client's test talks
// to it as it would to any node.
package clienttest

import (
	"net/http"
	"testing"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/host/internal/nodetest"
)

// Node is a running node.
type Node struct {
	REST string  // REST base URL, ending in /api/v1
	RPC  string  // JSON-RPC URL
	Dev  Account // the dev account, as didlight node prints it
}

// Account is the node's dev account: funded at genesis, its key known, so
// that a test can pay for the transactions it sends.
type Account struct {
	Address     string          // base58, E…
	ProgramHash ela.ProgramHash // what Address encodes
	PrivateKey  *keys.PrivateKey
}

// Options change the node Run starts.
type Options struct {
	// Web serves the browser app at / of the REST listener, as the didlight
	// command serves web.Handler.
	Web http.Handler
	// Demo publishes the demo DIDs (didlight node --demo) before Run
	// returns.
	Demo bool
}

// Start runs a node until the test ends.
func Start(t testing.TB) *Node {
	t.Helper()
	return of(nodetest.Start(t))
}

// Run runs a node until stop is called; stop reports what went wrong while
// it ran or stopped. Examples use it where there is no test to end.
func Run() (n *Node, stop func() error, err error) { return RunWith(Options{}) }

// RunWith is Run with options.
func RunWith(o Options) (n *Node, stop func() error, err error) {
	nt, stop, err := nodetest.RunWith(nodetest.Options(o))
	if err != nil {
		return nil, nil, err
	}
	return of(nt), stop, nil
}

func of(n *nodetest.Node) *Node {
	dev := n.Chain.DevAccount()
	return &Node{REST: n.REST, RPC: n.RPC, Dev: Account{Address: dev.Address, ProgramHash: dev.ProgramHash, PrivateKey: dev.PrivateKey}}
}
