package eidfork_test

import (
	"context"
	"testing"

	"github.com/didlight/didlight/host/internal/eidtest/scenario"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// BenchmarkRead measures a forked DID's did_resolveDID read as a fork's
// server makes it (Ensure, then the chain's read), against the recorded
// EID node served on loopback: first, the DID taken from the upstream (a
// new fork each time); repeat, the DID local.
func BenchmarkRead(b *testing.B) {
	up, _ := upstream(b, scenario.Final)
	height := headOf(b, up.Manifest, scenario.Final)
	alice := didOf(b, up.Manifest, "alice")
	ctx := context.Background()
	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			fk := newFork(b, mem.New(), up.URL, height, -1)
			b.StartTimer()
			if err := fk.f.Ensure(ctx, alice); err != nil {
				b.Fatal(err)
			}
			if _, err := fk.c.ResolveDIDSDK(ctx, alice, true); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			fk.stop()
			b.StartTimer()
		}
	})
	b.Run("repeat", func(b *testing.B) {
		fk := newFork(b, mem.New(), up.URL, height, -1)
		fk.resolve(b, alice)
		for b.Loop() {
			if err := fk.f.Ensure(ctx, alice); err != nil {
				b.Fatal(err)
			}
			if _, err := fk.c.ResolveDIDSDK(ctx, alice, true); err != nil {
				b.Fatal(err)
			}
		}
	})
}
