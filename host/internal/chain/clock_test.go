package chain

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/devnet"
)

// began2025 is the genesis time the clock tests begin chains at: before
// the SDK vectors' v1 documents expire (2026-01-18), while the test clock
// reads 2026-01-31, after.
var began2025 = time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC)

// tipTime returns the chain's tip time.
func (f *fixture) tipTime() time.Time {
	_, _, t := f.c.Tip()
	return time.Unix(t, 0).UTC()
}

// wantTip fails the test unless the tip is at height, stamped at.
func (f *fixture) wantTip(what string, height uint32, at time.Time) {
	f.t.Helper()
	h, _, _ := f.c.Tip()
	if h != height || !f.tipTime().Equal(at) {
		f.t.Errorf("%s: tip %d at %s, want %d at %s", what, h, f.tipTime().Format(time.RFC3339), height, at.Format(time.RFC3339))
	}
}

// reopen closes the chain and opens it again on the same store with cfg's
// genesis time.
func (f *fixture) reopen(genesis time.Time) error {
	f.c.Close()
	cfg := f.cfg
	cfg.GenesisTime = genesis
	c, err := Open(cfg)
	if err == nil {
		f.c = c
		f.t.Cleanup(func() { c.Close() })
	}
	return err
}

// sdkVectors is where the SDK's test vectors are kept in this repository.
const sdkVectors = "../../../core/internal/vectors/data/elastos-did-sdk/"

// readVector reads the SDK vector at name.
func readVector(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(sdkVectors + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// expiredVector is the create operation of an SDK vector document that
// expires on 2026-01-18, signed with its own key.
func expiredVector(t *testing.T) (did.DID, idop.Request) {
	t.Helper()
	doc, err := did.ParseDocument(readVector(t, "v1/user1.id.json"))
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2026, 1, 18, 14, 47, 3, 0, time.UTC); !doc.Expires().Equal(want) {
		t.Fatalf("the vector expires %s, want %s", doc.Expires(), want)
	}
	key, err := keys.ParseExtendedPrivateKey(strings.TrimSpace(string(readVector(t, "v1/user1.id.primary.sk"))))
	if err != nil {
		t.Fatal(err)
	}
	pk, _ := doc.DefaultKey()
	req, err := idop.NewCreate(doc, pk.ID, key)
	if err != nil {
		t.Fatal(err)
	}
	return doc.Subject(), req
}

func TestGenesisTime(t *testing.T) {
	f := newFixture(t, Config{GenesisTime: began2025})
	f.wantTip("opened", 0, began2025)
	f.mine()
	f.wantTip("a block at once", 1, began2025.Add(time.Second))
	f.clock.advance(time.Hour)
	f.mine()
	f.wantTip("an hour later", 2, began2025.Add(time.Hour))

	// The SDK vector that expired on 2026-01-18 publishes on this chain,
	// begun before, though the wall clock reads 2026-01-31.
	subject, create := expiredVector(t)
	f.publish(create)
	if _, err := f.c.ResolveDID(context.Background(), subject, false); err != nil {
		t.Fatal(err)
	}

	// The time base survives a restart: the chain's time ran on with the
	// wall clock's meanwhile, from 2025.
	f.clock.advance(10 * time.Minute)
	if err := f.reopen(time.Time{}); err != nil {
		t.Fatal(err)
	}
	f.mine()
	f.wantTip("reopened", 4, began2025.Add(time.Hour+10*time.Minute))
	if err := f.reopen(began2025); err != nil {
		t.Fatalf("reopened with the same genesis time: %v", err)
	}
	err := f.reopen(began2025.Add(time.Second))
	if err == nil || !strings.Contains(err.Error(), "the store holds a chain begun at 2025-12-01T00:00:00Z, not at the genesis time given, 2025-12-01T00:00:01Z") {
		t.Errorf("reopened with another genesis time: %v, want an error naming both", err)
	}
}

func TestGenesisTimeDefault(t *testing.T) {
	f := newFixture(t, Config{})
	f.wantTip("opened", 0, GenesisTime)
	_, create := expiredVector(t)
	_, err := f.c.SubmitTx(f.opTx(f.dev(), create).Bytes())
	if r := wantReject(t, "the expired vector on a chain at the wall clock's time", err, ledger.Payload); r != nil && idop.RuleOf(err) != idop.RuleExpired {
		t.Errorf("refused by rule %q, want %q: %v", idop.RuleOf(err), idop.RuleExpired, err)
	}
	f.mine()
	f.wantTip("a block", 1, f.clock.Now().UTC())
	_, err = Open(Config{DB: f.db, Now: f.clock.Now, GenesisTime: GenesisTime})
	if err == nil || !strings.Contains(err.Error(), "begun at 2026-01-01T00:00:00Z (the default, with the wall clock's time), not at the genesis time given, 2026-01-01T00:00:00Z") {
		t.Errorf("a default chain opened with a genesis time: %v, want the difference refused", err)
	}
	if _, err := Open(Config{DB: f.db, GenesisTime: time.Unix(0, 0)}); err == nil || !strings.Contains(err.Error(), "genesis time 0 is out of range") {
		t.Errorf("Open at 1970: %v, want the time refused", err)
	}
}

func TestResetAt(t *testing.T) {
	f := newFixture(t, Config{})
	f.mine()
	ctx := context.Background()
	if err := devnet.ResetAt(ctx, f.c, began2025); err != nil {
		t.Fatal(err)
	}
	f.wantTip("reset to 2025", 0, began2025)
	f.clock.advance(time.Minute)
	f.mine()
	f.wantTip("a minute later", 1, began2025.Add(time.Minute))
	if began, asked, err := f.c.Began(); err != nil || !asked || !began.Equal(began2025) {
		t.Errorf("Began() = %s, %v, %v; want %s, true", began, asked, err, began2025)
	}

	// A plain Reset begins at the same time again, the clock with it.
	f.clock.advance(time.Hour)
	if err := devnet.Reset(ctx, f.c); err != nil {
		t.Fatal(err)
	}
	f.mine()
	f.wantTip("reset", 1, began2025.Add(time.Second))

	for _, bad := range []time.Time{time.Unix(0, 0), time.Unix(-1, 0), time.Unix(1<<33, 0)} {
		if err := devnet.ResetAt(ctx, f.c, bad); !errors.Is(err, ErrBadTime) {
			t.Errorf("ResetAt(%s): %v, want ErrBadTime", bad, err)
		}
	}
	f.wantTip("bad resets", 1, began2025.Add(time.Second))
	if err := f.reopen(began2025); err != nil {
		t.Errorf("reopened after ResetAt with its time: %v", err)
	}
}

func TestSetNextBlockTime(t *testing.T) {
	f := newFixture(t, Config{GenesisTime: began2025})
	f.mine()
	tip := f.tipTime()
	for _, bad := range []time.Time{tip, tip.Add(-time.Second), time.Unix(1<<32, 0)} {
		if _, err := devnet.SetNextBlockTime(f.c, bad); !errors.Is(err, ErrBadTime) {
			t.Errorf("SetNextBlockTime(%s): %v, want ErrBadTime", bad, err)
		}
	}
	f.mine()
	f.wantTip("after refusals", 2, tip.Add(time.Second))

	next := time.Date(2030, 6, 1, 12, 0, 0, 0, time.UTC)
	if got, err := devnet.SetNextBlockTime(f.c, next); err != nil || !got.Equal(next) {
		t.Fatalf("SetNextBlockTime(%s) = %s, %v", next, got, err)
	}
	f.clock.advance(5 * time.Second) // the pinned time does not move with it
	if err := f.reopen(time.Time{}); err != nil {
		t.Fatal(err)
	}
	f.mine()
	f.wantTip("the pinned block, after a restart", 3, next)
	f.clock.advance(7 * time.Second)
	f.mine()
	f.wantTip("7 s later", 4, next.Add(7*time.Second))
}

func TestClockControlsOnAFollower(t *testing.T) {
	f := newFixture(t, Config{Follower: true})
	if _, err := devnet.SetNextBlockTime(f.c, GenesisTime.AddDate(1, 0, 0)); !errors.Is(err, ErrFollower) {
		t.Errorf("SetNextBlockTime on a follower: %v, want ErrFollower", err)
	}
	if err := devnet.ResetAt(context.Background(), f.c, began2025); !errors.Is(err, ErrFollower) {
		t.Errorf("ResetAt on a follower: %v, want ErrFollower", err)
	}
}

func TestPayCoinbasesToDev(t *testing.T) {
	f := newFixture(t, Config{})
	balance := func() ela.Fixed64 {
		t.Helper()
		v, err := f.c.Balance(f.dev().ph, ela.ELAAssetID())
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	before := balance()
	if b := f.mine(); b.Transactions[0].Outputs[0].ProgramHash != f.c.producer || balance() != before {
		t.Fatalf("a coinbase paid the dev account before PayCoinbasesToDev")
	}
	if err := f.c.PayCoinbasesToDev(); err != nil {
		t.Fatal(err)
	}
	f.mine()
	if got, want := balance(), before+f.c.params.Subsidy; got != want {
		t.Errorf("after PayCoinbasesToDev and a block, the dev account holds %s, want %s", got, want)
	}
	if err := f.reopen(time.Time{}); err != nil {
		t.Fatal(err)
	}
	f.mine()
	if got, want := balance(), before+2*f.c.params.Subsidy; got != want {
		t.Errorf("after a restart and a block, the dev account holds %s, want %s", got, want)
	}
	if err := newFixture(t, Config{Follower: true}).c.PayCoinbasesToDev(); !errors.Is(err, ErrFollower) {
		t.Errorf("PayCoinbasesToDev on a follower: %v, want ErrFollower", err)
	}
}
