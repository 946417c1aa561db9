package api_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/didlight/didlight/host/internal/api"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// A node: a chain, its producer, and a server on two loopback ports.
func Example() {
	c, err := chain.Open(chain.Config{DB: mem.New()})
	if err != nil {
		panic(err)
	}
	defer c.Close()
	ctx, stop := context.WithCancel(context.Background())
	go c.Run(ctx)

	srv := api.New(c, api.Options{Version: "example"})
	if err := srv.Listen("127.0.0.1:0", "127.0.0.1:0"); err != nil {
		panic(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx) }()

	resp, err := http.Get(srv.RESTURL() + "/block/height")
	if err != nil {
		panic(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(string(body))

	resp, err = http.Post(srv.RPCURL(), "application/json", strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"resolvedid","params":{"did":"did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y"}}`))
	if err != nil {
		panic(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(string(body))

	stop() // Serve drains in-flight requests, then returns
	fmt.Println(<-served)
	// Output:
	// {"Desc":"Success","Error":0,"Result":0}
	// {"jsonrpc":"2.0","result":{"did":"did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y","status":3},"id":1}
	// <nil>
}
