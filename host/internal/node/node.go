// Package node starts and stops a whole node in process.
//
// It runs a node in process: a chain behind the REST and JSON-RPC servers
// (host/internal/api), kept going by its block producer or by a follower, or
// a light resolver (host/internal/light) learning its upstream's head, until
// it is stopped. The didlight command, host/client/clienttest and the tests
// that need a whole node start one with Start, so that the order of starting
// and stopping is written once:
//
//   - start: listen on both addresses, then run the producer and serve;
//   - stop: stop accepting requests and let those in flight finish (they
//     may wait for blocks, as /idtx does, so the producer still runs), then
//     stop the producer. If the producer fails, serving stops too.
//
// The chain, and the store under it, stay the caller's: close them after
// Stop.
package node

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/didlight/didlight/host/internal/api"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/light"
)

// Config says how a node serves its chain.
type Config struct {
	API api.Options
	// RESTAddr and RPCAddr are the host:port of the two listeners; empty
	// is 127.0.0.1:0, a free loopback port.
	RESTAddr, RPCAddr string
	// Run keeps the chain going until its context ends: nil runs the
	// chain's own block producer (Chain.Run); a follower passes its loop.
	Run func(ctx context.Context) error
	// Mapped, if not nil, is the chain's store, whose mapped pages the
	// node keeps within MapBudget bytes of the process's resident memory
	// ([KeepMapped]); a MapBudget of 0 lets them stay.
	Mapped    MappedStore
	MapBudget int64
	// Fork, if not nil, makes the chain's node a fork of an EID chain
	// (api.NewFork): the DIDs it is asked about are taken from its
	// upstream when first asked.
	Fork api.Fork
}

// Node is a running node.
type Node struct {
	Chain  *chain.Chain // nil for a light node
	Server *api.Server

	stopServing, stopChain context.CancelFunc
	served, produced       chan error // each receives once, when its goroutine ends
	done                   chan struct{}
	stopTrimming           context.CancelFunc // nil unless the node trims its store (trim.go)
	trimmed                chan struct{}      // closed when it has stopped trimming

	servingOnce, stopOnce sync.Once
	serveErr, stopErr     error
}

// Start serves c as cfg says and runs its producer (or cfg.Run), until
// Stop. It fails, having started nothing, when a listener cannot open.
func Start(c *chain.Chain, cfg Config) (*Node, error) {
	run := cfg.Run
	if run == nil {
		run = c.Run
	}
	var srv *api.Server
	if cfg.Fork != nil {
		srv = api.NewFork(c, cfg.Fork, cfg.API)
	} else {
		srv = api.New(c, cfg.API)
	}
	n, err := start(srv, run, cfg)
	if err != nil {
		return nil, err
	}
	n.Chain = c
	return n, nil
}

// StartLight serves a light node, whose DID reads l answers, with l.Run
// learning its upstream's head, until Stop. cfg.Run and cfg.Mapped are
// for chains and must be nil. It fails, having started nothing, when a
// listener cannot open.
func StartLight(l *light.Resolver, cfg Config) (*Node, error) {
	return start(api.NewLight(l, cfg.API), l.Run, cfg)
}

// start serves srv and runs run, as Start says.
func start(srv *api.Server, run func(context.Context) error, cfg Config) (*Node, error) {
	if err := srv.Listen(orLoopback(cfg.RESTAddr), orLoopback(cfg.RPCAddr)); err != nil {
		return nil, err
	}
	serveCtx, stopServing := context.WithCancel(context.Background())
	chainCtx, stopChain := context.WithCancel(context.Background())
	n := &Node{Server: srv, stopServing: stopServing, stopChain: stopChain,
		served: make(chan error, 1), produced: make(chan error, 1), done: make(chan struct{})}
	n.startTrimming(cfg)
	go func() {
		err := run(chainCtx)
		if errors.Is(err, context.Canceled) {
			err = nil
		}
		n.produced <- err
		stopServing() // a producer that stopped on its own stops the node
	}()
	go func() {
		err := srv.Serve(serveCtx)
		close(n.done) // before served, so that Done is closed when StopServing returns
		n.served <- err
	}()
	return n, nil
}

func orLoopback(addr string) string {
	if addr == "" {
		return "127.0.0.1:0"
	}
	return addr
}

// RESTURL returns the base URL of the REST API, ending in /api/v1.
func (n *Node) RESTURL() string { return n.Server.RESTURL() }

// RPCURL returns the URL of the JSON-RPC API, ending in /.
func (n *Node) RPCURL() string { return n.Server.RPCURL() }

// Done is closed once the node has stopped serving: after StopServing or
// Stop, or because its producer stopped on its own (Stop then says why).
func (n *Node) Done() <-chan struct{} { return n.done }

// StopServing stops accepting requests and waits for those in flight to
// finish (at most the server's grace period); the producer keeps running
// until Stop. It returns the error that stopped a listener, if any, and
// may be called more than once.
func (n *Node) StopServing() error {
	n.servingOnce.Do(func() {
		n.stopServing()
		n.serveErr = <-n.served
	})
	return n.serveErr
}

// Stop stops serving, then the producer, then the trimming of the store,
// and returns the first error serving or the producer met. It may be
// called more than once; the chain stays open.
func (n *Node) Stop() error {
	n.stopOnce.Do(func() {
		serveErr := n.StopServing()
		n.stopChain()
		var runErr error
		if err := <-n.produced; err != nil {
			runErr = fmt.Errorf("node: the chain stopped: %w", err)
		}
		if n.stopTrimming != nil {
			n.stopTrimming()
		}
		<-n.trimmed
		n.stopErr = errors.Join(serveErr, runErr)
	})
	return n.stopErr
}

// EIDFollower is what StartEIDFollower serves and runs: an
// api.EIDFollower whose Run keeps its index following the EID chain.
type EIDFollower interface {
	api.EIDFollower
	Run(ctx context.Context) error
}

// StartEIDFollower serves an EID follower, whose DID reads and query f
// answers from its index, with f.Run scanning the EID chain into it,
// until Stop. cfg.Run is for chains and must be nil. It fails, having
// started nothing, when a listener cannot open.
func StartEIDFollower(f EIDFollower, cfg Config) (*Node, error) {
	return start(api.NewEIDFollower(f, cfg.API), f.Run, cfg)
}
