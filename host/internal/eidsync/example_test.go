package eidsync_test

import (
	"context"
	"fmt"
	"net/http/httptest"

	"github.com/didlight/didlight/host/client/eid"
	"github.com/didlight/didlight/host/internal/eidsync"
	"github.com/didlight/didlight/host/internal/eidtest/eidfake"
)

// A scan from genesis to the head of an EID node, into an index that
// records the blocks it is given; the scan follows the head until its
// context ends, here once it has caught up.
func Example() {
	chain := eidfake.New(22, eidsync.MainnetContract, 999) // mainnet's chain id: the contract is built in
	chain.Put(400, false, true, "create", "D2VsYXN0b3MvZGlkLzEuMA==")
	server := httptest.NewServer(chain.Handler())
	defer server.Close()

	client, err := eid.New(eid.Config{Network: eid.Network{Endpoints: []string{server.URL}}, Budget: -1})
	if err != nil {
		panic(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	sink := &memSink{}
	scanner, err := eidsync.New(eidsync.Config{Upstream: client, Sink: sink, Report: func(p eidsync.Progress) {
		if p.CaughtUp {
			fmt.Printf("at block %d of %d: %d operations, %d DIDs created\n", p.Synced, p.Head, p.Ops, p.DIDs)
			stop()
		}
	}})
	if err != nil {
		panic(err)
	}
	fmt.Println(scanner.Run(ctx))
	// Output:
	// at block 999 of 999: 1 operations, 1 DIDs created
	// context canceled
}
