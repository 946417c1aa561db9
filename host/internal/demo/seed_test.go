package demo

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// Seeding a chain publishes the whole plan; seeding it again publishes
// nothing; each DID ends as its plan says, the short-lived ones expiring
// once the chain's time passes them.
func TestSeed(t *testing.T) {
	c, err := chain.Open(chain.Config{DB: mem.New()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	defer func() {
		cancel()
		<-done
		c.Close()
	}()

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

	if _, err := c.IncreaseTime(shortLifetime + time.Minute); err != nil {
		t.Fatal(err)
	}
	for _, p := range people {
		d := did.FromKey(p.key.Public())
		raw, err := c.ResolveDID(d, true)
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
		status, err := credentialStatus(c, id)
		if want := map[bool]resolve.CredentialStatus{false: resolve.CredentialValid, true: resolve.CredentialRevoked}[p.revoke]; err != nil || status != want {
			t.Errorf("credential %s: status %v (%v), want %v", id, status, err, want)
		}
	}
}
