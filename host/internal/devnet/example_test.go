package devnet_test

import (
	"context"
	"fmt"
	"time"

	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/devnet"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// A devnet in memory whose wall clock reads an hour after its genesis
// block: its time moves a day on, then three blocks are mined a minute
// apart (the first a second after the tip, as block times strictly
// increase and the wall clock stands still).
func Example() {
	now := chain.GenesisTime.Add(time.Hour)
	c, err := chain.Open(chain.Config{DB: mem.New(), Now: func() time.Time { return now }})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()

	t, err := devnet.IncreaseTime(c, 24*time.Hour)
	fmt.Println("a block at", t.Sub(now), err)

	b, err := devnet.MineBlocks(context.Background(), c, 3, time.Minute)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("the last at", time.Unix(int64(b.Header.Timestamp), 0).Sub(now), "height", b.Header.Height)

	_, err = devnet.SetNextBlockTime(c, now)
	fmt.Println(err != nil, "a time before the tip's is refused")
	// Output:
	// a block at 24h0m0s <nil>
	// the last at 24h2m1s height 4
	// true a time before the tip's is refused
}

// A snapshot taken, three blocks mined, and a revert: the chain is back
// at the height the snapshot found it at, and the snapshot is kept, so it
// can be reverted to again. An id never given is refused.
func ExampleRevert() {
	now := chain.GenesisTime.Add(time.Hour)
	c, err := chain.Open(chain.Config{DB: mem.New(), Now: func() time.Time { return now }})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	ctx := context.Background()
	id, err := devnet.Snapshot(c)
	fmt.Println("snapshot", id, err)
	if _, err := devnet.MineBlocks(ctx, c, 3, time.Minute); err != nil {
		fmt.Println(err)
		return
	}
	height, _, _ := c.Tip()
	fmt.Println("mined to height", height)
	err = devnet.Revert(ctx, c, id)
	height, _, _ = c.Tip()
	fmt.Println("reverted to height", height, err)
	fmt.Println(devnet.Revert(ctx, c, 9))
	// Output:
	// snapshot 1 <nil>
	// mined to height 3
	// reverted to height 0 <nil>
	// chain: no such snapshot: 9
}
