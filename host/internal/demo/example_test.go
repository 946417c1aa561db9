package demo_test

import (
	"context"
	"fmt"

	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/demo"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// Seeding a fresh chain publishes the demo; seeding it again finds it there.
func ExampleSeed() {
	c, err := chain.Open(chain.Config{DB: mem.New()})
	if err != nil {
		panic(err)
	}
	defer c.Close()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go c.Run(ctx)

	for range 2 {
		rep, err := demo.Seed(ctx, c)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%d DIDs, %d operations published\n", rep.DIDs, rep.Published)
	}
	// Output:
	// 36 DIDs, 60 operations published
	// 36 DIDs, 0 operations published
}
