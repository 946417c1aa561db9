package follow_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/host/internal/follow"
)

// newSyncer returns a Follower of url for a new follower's chain of seed.
func newSyncer(t *testing.T, url, seed string) (*follow.Follower, func() uint32) {
	t.Helper()
	fc := openChain(t, seed, true)
	f, err := follow.New(follow.Config{Upstream: url, Chain: fc, Self: func() string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	return f, func() uint32 { h, _, _ := fc.Tip(); return h }
}

func TestSyncTo(t *testing.T) {
	ctx := context.Background()
	a := openChain(t, "", false)
	mine(t, a, 5, 0)
	u, srv := newUpstream(t, a)
	f, height := newSyncer(t, srv.URL, "")
	if h, err := f.SyncTo(ctx, 3); err != nil || h != 3 || height() != 3 {
		t.Fatalf("SyncTo(3) = %d, %v; the chain is at %d", h, err, height())
	}
	if h, err := f.SyncTo(ctx, 9); err == nil || !strings.Contains(err.Error(), "is at height 5, below 9") || h != 0 || height() != 3 {
		t.Errorf("SyncTo(9) = %d, %v; want the upstream's height named and nothing applied", h, err)
	}
	if h, err := f.SyncTo(ctx, 0); err != nil || h != 5 {
		t.Errorf("SyncTo(0) = %d, %v; want the upstream's tip, 5", h, err)
	}

	// A diverging upstream: its block 3 does not extend our block 2.
	g, height2 := newSyncer(t, srv.URL, "")
	if _, err := g.SyncTo(ctx, 2); err != nil {
		t.Fatal(err)
	}
	b := openChain(t, "", false)
	mine(t, b, 4, time.Hour)
	u.set(b, nil)
	if h, err := g.SyncTo(ctx, 0); err == nil || !strings.Contains(err.Error(), "refused") || h != 2 || height2() != 2 {
		t.Errorf("SyncTo of a diverging upstream = %d, %v; want an error and the chain kept at 2", h, err)
	}

	// Another chain, and no upstream at all.
	other, height3 := newSyncer(t, srv.URL, "another seed")
	if _, err := other.SyncTo(ctx, 0); !errors.As(err, new(*follow.GenesisError)) || height3() != 0 {
		t.Errorf("SyncTo of another chain: %v, want a GenesisError", err)
	}
	srv.Close()
	gone, height4 := newSyncer(t, srv.URL, "")
	if _, err := gone.SyncTo(ctx, 0); err == nil || !strings.Contains(err.Error(), "node unreachable at "+srv.URL) || height4() != 0 {
		t.Errorf("SyncTo of an upstream that is gone: %v, want it named unreachable", err)
	}
}
