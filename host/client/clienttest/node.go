// Package clienttest runs a real node in process for the tests of its
// clients: a chain on an in-memory store (host/chain) behind the REST and
// JSON-RPC servers (host/api) on loopback ports, mining as soon as
// transactions arrive. Nothing is faked.
package clienttest

import (
	"context"
	"errors"
	"testing"

	"github.com/didlight/didlight/host/api"
	"github.com/didlight/didlight/host/chain"
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
	c, err := chain.Open(chain.Config{DB: mem.New()})
	if err != nil {
		t.Fatal(err)
	}
	srv := api.New(c, api.Options{Version: "test"})
	if err := srv.Listen("127.0.0.1:0", "127.0.0.1:0"); err != nil {
		c.Close()
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	produced, served := make(chan error, 1), make(chan error, 1)
	go func() { produced <- c.Run(ctx) }()
	go func() { served <- srv.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("clienttest: Serve: %v", err)
		}
		if err := <-produced; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("clienttest: Run: %v", err)
		}
		if err := c.Close(); err != nil {
			t.Errorf("clienttest: Close: %v", err)
		}
	})
	return &Node{Chain: c, REST: srv.RESTURL(), RPC: srv.RPCURL()}
}
