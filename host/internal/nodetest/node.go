// Package nodetest runs a real node in process for tests that also drive its chain.
//
// The node is a chain on an in-memory store behind the REST and JSON-RPC
// servers on loopback ports, mining as soon as transactions arrive; the
// test holds the chain as well as the URLs. Nothing is faked. Tests of
// clients, which see only the APIs, use host/client/clienttest, made on it.
package nodetest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/didlight/didlight/host/internal/api"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/demo"
	"github.com/didlight/didlight/host/internal/node"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// Node is a running node.
type Node struct {
	// Chain is the node's chain, for tests that drive it directly
	// (SubmitRequest, IncreaseTime, Tip, ...).
	Chain *chain.Chain
	REST  string // REST base URL, ending in /api/v1
	RPC   string // JSON-RPC URL
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
func Run() (n *Node, stop func() error, err error) { return RunWith(Options{}) }

// RunWith is Run with options.
func RunWith(o Options) (n *Node, stop func() error, err error) {
	c, err := chain.Open(chain.Config{DB: mem.New()})
	if err != nil {
		return nil, nil, err
	}
	running, err := node.Start(c, node.Config{API: api.Options{Version: "test", Web: o.Web}})
	if err != nil {
		c.Close()
		return nil, nil, err
	}
	stop = func() error {
		return errors.Join(running.Stop(), c.Close())
	}
	if o.Demo {
		if _, err := demo.Seed(context.Background(), c); err != nil {
			return nil, nil, errors.Join(fmt.Errorf("nodetest: demo: %w", err), stop())
		}
	}
	return &Node{Chain: c, REST: running.RESTURL(), RPC: running.RPCURL()}, stop, nil
}
