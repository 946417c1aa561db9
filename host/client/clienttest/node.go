// Package clienttest runs a real node in process for the tests and examples
// of its clients: a chain on an in-memory store (host/chain) behind the REST
// and JSON-RPC servers (host/api) on loopback ports, mining as soon as
// transactions arrive. Nothing is faked.
package clienttest

import (
	"errors"
	"testing"

	"github.com/didlight/didlight/host/api"
	"github.com/didlight/didlight/host/chain"
	"github.com/didlight/didlight/host/node"
	"github.com/didlight/didlight/host/store/mem"
)

// Node is a running node.
type Node struct {
	Chain *chain.Chain
	REST  string // REST base URL, ending in /api/v1
	RPC   string // JSON-RPC URL
}

// Start runs a node until the test ends.
func Start(t testing.TB) *Node {
	t.Helper()
	n, stop, err := Run()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Error(err)
		}
	})
	return n
}

// Run runs a node until stop is called; stop reports what went wrong while
// it ran or stopped. Examples use it where there is no test to end.
func Run() (n *Node, stop func() error, err error) {
	c, err := chain.Open(chain.Config{DB: mem.New()})
	if err != nil {
		return nil, nil, err
	}
	running, err := node.Start(c, node.Config{API: api.Options{Version: "test"}})
	if err != nil {
		c.Close()
		return nil, nil, err
	}
	stop = func() error {
		return errors.Join(running.Stop(), c.Close())
	}
	return &Node{Chain: c, REST: running.RESTURL(), RPC: running.RPCURL()}, stop, nil
}
