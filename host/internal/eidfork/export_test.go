package eidfork_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/eid"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/eidindex"
	"github.com/didlight/didlight/host/internal/eidsync"
	"github.com/didlight/didlight/host/internal/eidtest"
	"github.com/didlight/didlight/host/internal/eidtest/scenario"
	"github.com/didlight/didlight/host/internal/fixture"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// roundTrip writes f, reads it back and imports it into a new devnet,
// which it returns open.
func roundTrip(t *testing.T, f *fixture.File) *chain.Chain {
	t.Helper()
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	read, err := fixture.Parse(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	db := mem.New()
	if err := fixture.Import(context.Background(), db, chain.Config{}, read); err != nil {
		t.Fatal(err)
	}
	c, err := chain.Open(chain.Config{DB: db})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// resolver is what answers resolvedid: a chain, or a follower's index.
type resolver interface {
	ResolveDID(ctx context.Context, d did.DID, all bool) ([]byte, error)
}

func sameAnswers(t *testing.T, got, want resolver, ids []did.DID) {
	t.Helper()
	for _, d := range ids {
		for _, all := range []bool{false, true} {
			g, err := got.ResolveDID(context.Background(), d, all)
			if err != nil {
				t.Fatal(err)
			}
			w, err := want.ResolveDID(context.Background(), d, all)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(g, w) {
				t.Errorf("resolvedid %s (all %v) after the round trip:\n got %s\nwant %s", d, all, g, w)
			}
		}
	}
}

// follow indexes the upstream's chain in db as an EID follower does,
// until it has caught up.
func follow(t *testing.T, up *eidtest.Upstream, db store.DB) *eidindex.Index {
	t.Helper()
	ix, err := eidindex.Open(eidindex.Config{DB: db, Network: eid.NetworkOf(up.Manifest.ChainID)})
	if err != nil {
		t.Fatal(err)
	}
	scan, err := eidsync.New(eidsync.Config{Upstream: client(t, up.URL, -1), Sink: ix, Contract: up.Manifest.Contract, Poll: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { scan.Run(ctx); close(done) }()
	for deadline := time.Now().Add(20 * time.Second); !scan.Progress().CaughtUp; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("not caught up in 20s: %+v", scan.Progress())
		}
	}
	cancel()
	<-done
	return ix
}

// TestExportFollower exports an EID follower's index of the recorded node
// and loads it in a devnet: every DID answers resolvedid as the follower
// does.
func TestExportFollower(t *testing.T) {
	up, _ := upstream(t, scenario.Final)
	db := mem.New()
	ix := follow(t, up, db)
	f, err := fixture.ExportEID(db, chain.DefaultDevSeed)
	if err != nil {
		t.Fatal(err)
	}
	var ids []did.DID
	for _, x := range up.Manifest.DIDs {
		ids = append(ids, didOf(t, up.Manifest, x.Name))
	}
	if len(f.DIDs) == 0 {
		t.Fatal("the follower's export holds no DID")
	}
	sameAnswers(t, roundTrip(t, f), ix, ids)
}

// TestExportFork exports a fork that took DIDs and deactivated one of
// them, and loads it in a devnet: the DIDs answer as on the fork.
func TestExportFork(t *testing.T) {
	up, _ := upstream(t, scenario.Final)
	fk := newFork(t, mem.New(), up.URL, headOf(t, up.Manifest, "active"), -1)
	alice, bob := didOf(t, up.Manifest, "alice"), didOf(t, up.Manifest, "bob")
	fk.resolve(t, alice)
	fk.resolve(t, bob)
	req, err := idop.NewDeactivate(alice, did.URL{DID: alice, Fragment: did.PrimaryKey}, seededKey(t, "alice"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fk.c.SubmitRequest(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	f, err := fixture.Export(fk.c)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.DIDs) != 2 || len(f.Blocks) == 0 {
		t.Fatalf("the fork's export: %d DIDs and %d blocks, want 2 and the deactivate's", len(f.DIDs), len(f.Blocks))
	}
	sameAnswers(t, roundTrip(t, f), fk.c, []did.DID{alice, bob})
}

// TestForkCredentials takes each credential of the scenario from the
// recorded node, then each DID's list of them on another fork, and
// requires resolvecredential and listcredentials to answer as a follower
// of that node does.
func TestForkCredentials(t *testing.T) {
	up, _ := upstream(t, scenario.Final)
	ix := follow(t, up, mem.New())
	fk := newFork(t, mem.New(), up.URL, headOf(t, up.Manifest, scenario.Final), -1)
	for _, c := range up.Manifest.Credentials {
		id, err := did.ParseURL(c.ID, did.DID{})
		if err != nil {
			t.Fatal(err)
		}
		if err := fk.f.EnsureCredential(context.Background(), id); err != nil {
			t.Fatal(err)
		}
		got, err := fk.c.ResolveCredential(context.Background(), id, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ix.ResolveCredential(context.Background(), id, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) || bytes.Contains(got, []byte(`"status":3`)) {
			t.Errorf("resolvecredential %s on the fork:\n got %s\nwant %s, a credential found", c.ID, got, want)
		}
	}
	listed := newFork(t, mem.New(), up.URL, headOf(t, up.Manifest, scenario.Final), -1)
	for _, x := range up.Manifest.DIDs {
		d := didOf(t, up.Manifest, x.Name)
		if err := listed.f.Ensure(context.Background(), d); err != nil {
			t.Fatal(err)
		}
		if err := listed.f.EnsureCredentials(context.Background(), d); err != nil {
			t.Fatal(err)
		}
		got, err := listed.c.ListCredentials(context.Background(), d, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ix.ListCredentials(context.Background(), d, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("listcredentials %s on the fork:\n got %s\nwant %s", x.Name, got, want)
		}
	}
}
