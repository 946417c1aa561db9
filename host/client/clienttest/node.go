// Package clienttest runs a real node in process for the tests and examples
// of its clients: a chain on an in-memory store (host/chain) behind the REST
// and JSON-RPC servers (host/api) on loopback ports, mining as soon as
// transactions arrive. Nothing is faked.
package clienttest

import (
	"context"
	"errors"
	"fmt"
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
	srv := api.New(c, api.Options{Version: "test"})
	if err := srv.Listen("127.0.0.1:0", "127.0.0.1:0"); err != nil {
		c.Close()
		return nil, nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	produced, served := make(chan error, 1), make(chan error, 1)
	go func() { produced <- c.Run(ctx) }()
	go func() { served <- srv.Serve(ctx) }()
	stop = func() error {
		cancel()
		var errs []error
		if err := <-served; err != nil {
			errs = append(errs, fmt.Errorf("clienttest: Serve: %w", err))
		}
		if err := <-produced; err != nil && !errors.Is(err, context.Canceled) {
			errs = append(errs, fmt.Errorf("clienttest: Run: %w", err))
		}
		if err := c.Close(); err != nil {
			errs = append(errs, fmt.Errorf("clienttest: Close: %w", err))
		}
		return errors.Join(errs...)
	}
	return &Node{Chain: c, REST: srv.RESTURL(), RPC: srv.RPCURL()}, stop, nil
}
