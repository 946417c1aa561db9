package demo

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/devnet"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// Seeding a chain publishes the whole plan; seeding it again publishes
// nothing; each DID ends as its plan says, the short-lived ones expiring
// once the chain's time passes them.
func TestSeed(t *testing.T) {
	c := runningChain(t)
	ctx := context.Background()

	people, _ := plan(c.DevAccount().Seed)
	ops := 0
	for _, p := range people {
		ops += len(p.ops()) + btoi(p.declare) + btoi(p.revoke)
	}
	rep, err := Seed(ctx, c)
	if err != nil || rep.DIDs != len(people) || rep.Published != ops {
		t.Fatalf("first Seed = %+v, %v; want %d DIDs and %d operations", rep, err, len(people), ops)
	}
	height, _, _ := c.Tip()
	rep, err = Seed(ctx, c)
	if again, _, _ := c.Tip(); err != nil || rep.Published != 0 || again != height {
		t.Fatalf("second Seed = %+v, %v, height %d → %d; want nothing published", rep, err, height, again)
	}

	if _, err := devnet.IncreaseTime(c, shortLifetime+time.Minute); err != nil {
		t.Fatal(err)
	}
	for _, p := range people {
		d := did.FromKey(p.key.Public())
		raw, err := c.ResolveDID(context.Background(), d, true)
		if err != nil {
			t.Fatal(err)
		}
		var r struct {
			Status      int
			Transaction []json.RawMessage
		}
		json.Unmarshal(raw, &r)
		want := 0
		switch {
		case p.deactivate:
			want = 2
		case p.shortLived:
			want = 1
		}
		if r.Status != want || len(r.Transaction) != len(p.ops()) {
			t.Errorf("%s (%s): status %d with %d operations, want %d with %d", p.name, d, r.Status, len(r.Transaction), want, len(p.ops()))
		}
		if !p.declare {
			continue
		}
		id := did.URL{DID: d, Fragment: p.credentials[0].fragment}
		status, err := credentialStatus(context.Background(), c, id)
		if want := map[bool]resolve.CredentialStatus{false: resolve.CredentialValid, true: resolve.CredentialRevoked}[p.revoke]; err != nil || status != want {
			t.Errorf("credential %s: status %v (%v), want %v", id, status, err, want)
		}
	}
}

// Seeding goes on through the devnet controls that leave the chain's
// blocks as they are, and stops, with an error wrapping chain.ErrReset and
// nothing published after, through those that take blocks back (a reset,
// a revert): each control is given once the seeding has made a few
// blocks. Seeding again then completes the demo.
func TestSeedUnderControls(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		control func(c *chain.Chain, before uint64) error // before: a snapshot taken before seeding
		stops   bool
	}{
		{"mine", func(c *chain.Chain, _ uint64) error { _, err := c.Mine(ctx); return err }, false},
		{"mine blocks", func(c *chain.Chain, _ uint64) error { _, err := devnet.MineBlocks(ctx, c, 3, time.Minute); return err }, false},
		{"increase time", func(c *chain.Chain, _ uint64) error { _, err := devnet.IncreaseTime(c, time.Hour); return err }, false},
		{"move the clock", func(c *chain.Chain, _ uint64) error { _, err := devnet.MoveClock(c, time.Hour); return err }, false},
		{"set the next block time", func(c *chain.Chain, _ uint64) error {
			_, _, tip := c.Tip()
			_, err := devnet.SetNextBlockTime(c, time.Unix(tip+3600, 0))
			return err
		}, false},
		{"snapshot", func(c *chain.Chain, _ uint64) error { _, err := devnet.Snapshot(c); return err }, false},
		{"pay coinbases to the dev account", func(c *chain.Chain, _ uint64) error { return c.PayCoinbasesToDev() }, false},
		{"reset", func(c *chain.Chain, _ uint64) error { return devnet.Reset(ctx, c) }, true},
		{"reset to a time", func(c *chain.Chain, _ uint64) error {
			return devnet.ResetAt(ctx, c, time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC))
		}, true},
		{"snapshot and revert", func(c *chain.Chain, _ uint64) error {
			id, err := devnet.Snapshot(c)
			if err == nil {
				err = devnet.Revert(ctx, c, id)
			}
			return err
		}, true},
		{"revert to before the seeding", func(c *chain.Chain, before uint64) error { return devnet.Revert(ctx, c, before) }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := runningChain(t)
			before, err := devnet.Snapshot(c)
			if err != nil {
				t.Fatal(err)
			}
			tips, stop := c.Subscribe()
			defer stop()
			seeded := make(chan error, 1)
			go func() { _, err := Seed(ctx, c); seeded <- err }()
			for h := range tips {
				if h >= 5 {
					break
				}
			}
			if err := tc.control(c, before); err != nil {
				t.Fatalf("the control: %v", err)
			}
			height, hash, _ := c.Tip()
			pool := len(c.Mempool())
			err = <-seeded
			switch {
			case tc.stops && !errors.Is(err, chain.ErrReset):
				t.Fatalf("Seed after the control: %v, want an error wrapping chain.ErrReset", err)
			case !tc.stops && err != nil:
				t.Fatalf("Seed after the control: %v, want the demo seeded", err)
			}
			if tc.stops {
				if h, got, _ := c.Tip(); h != height || got != hash || len(c.Mempool()) != pool {
					t.Errorf("the chain moved after Seed stopped: tip %d %s with %d pooled, was %d %s with %d", h, got, len(c.Mempool()), height, hash, pool)
				}
			}
			rep, err := Seed(ctx, c)
			if err != nil || rep.DIDs == 0 {
				t.Fatalf("Seed again: %+v, %v", rep, err)
			}
			if again, err := Seed(ctx, c); err != nil || again.Published != 0 {
				t.Errorf("a third Seed = %+v, %v; want the demo complete", again, err)
			}
		})
	}
}

// runningChain returns a chain in memory whose producer runs until the
// test ends.
func runningChain(t *testing.T) *chain.Chain {
	t.Helper()
	c, err := chain.Open(chain.Config{DB: mem.New()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
		c.Close()
	})
	return c
}
