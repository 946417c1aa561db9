package clienttest_test

import (
	"context"
	"fmt"

	"github.com/didlight/didlight/host/client"
	"github.com/didlight/didlight/host/client/clienttest"
)

// A program's example or test runs a node in process and points a client at
// its REST and JSON-RPC URLs.
func ExampleRun() {
	n, stop, err := clienttest.Run()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer stop()
	h, err := client.New(n.REST, n.RPC, nil).Height(context.Background())
	fmt.Println(h, err)
	// Output: 0 <nil>
}
