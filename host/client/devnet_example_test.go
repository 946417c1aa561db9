package client_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/didlight/didlight/host/client"
	"github.com/didlight/didlight/host/client/clienttest"
)

// A test suite takes a snapshot before each test and reverts to it after,
// and moves the chain's clock as its fixtures need.
func ExampleClient_Snapshot() {
	n, stop, err := clienttest.Run()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer stop()
	ctx := context.Background()
	c := client.New(n.REST, n.RPC, nil)

	id, err := c.Snapshot(ctx)
	fmt.Println("snapshot", id, err)
	for range 3 {
		c.Mine(ctx)
	}
	b, _ := c.Mine(ctx)
	fmt.Println("mined up to", b.Height)
	b, err = c.Revert(ctx, id)
	fmt.Println("reverted to", b.Height, err)
	c.Mine(ctx)
	b, err = c.Revert(ctx, id) // the snapshot is kept: back to it again
	fmt.Println("reverted again to", b.Height, err)
	_, err = c.Revert(ctx, "0x9") // never taken
	var re *client.RPCError
	fmt.Println(errors.As(err, &re), re.Code)

	b, err = c.Reset(ctx, time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC))
	fmt.Println("reset to", b.Height, err)
	next, err := c.SetNextBlockTime(ctx, time.Date(2025, 7, 1, 0, 0, 0, 0, time.UTC))
	fmt.Println("next block at", next.Format(time.RFC3339), err)
	b, _ = c.Mine(ctx)
	mined, _ := c.Block(ctx, b.Height)
	fmt.Println("block", b.Height, "at", time.Unix(int64(mined.Time), 0).UTC().Format(time.RFC3339))
	_, err = c.SetNextBlockTime(ctx, time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)) // before the tip
	fmt.Println(errors.As(err, &re), re.Code)
	// Output:
	// snapshot 0x1 <nil>
	// mined up to 4
	// reverted to 0 <nil>
	// reverted again to 0 <nil>
	// true -32602
	// reset to 0 <nil>
	// next block at 2025-07-01T00:00:00Z <nil>
	// block 1 at 2025-07-01T00:00:00Z
	// true -32602
}
