package chain

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/devnet"
)

// upstreamBlock returns the producer's block at height and its confirm.
func upstreamBlock(t *testing.T, p *fixture, height uint32) (*ela.Block, *ela.Confirm) {
	t.Helper()
	b, _, err := p.c.BlockByHeight(height)
	if err != nil {
		t.Fatal(err)
	}
	cf, err := p.c.Confirm(b.Hash())
	if err != nil {
		t.Fatal(err)
	}
	return b, cf
}

// catchUp applies the producer's blocks the follower lacks.
func catchUp(t *testing.T, p, f *fixture) {
	t.Helper()
	top, _, _ := p.c.Tip()
	for h, _, _ := f.c.Tip(); h < top; h, _, _ = f.c.Tip() {
		b, cf := upstreamBlock(t, p, h+1)
		if err := f.c.Apply(context.Background(), b, cf); err != nil {
			t.Fatalf("applying block %d: %v", h+1, err)
		}
	}
}

func TestApplyFollowsProducer(t *testing.T) {
	p := newFixture(t, Config{})
	f := newFixture(t, Config{Follower: true})
	expires := GenesisTime.AddDate(3, 0, 0)
	alice, bob := newUser("alice"), newUser("bob")
	alice.last = p.publish(alice.create(t, alice.document(t, expires, []did.Service{service("hub", "HubService")}, "EmailCredential")))
	bob.last = p.publish(bob.create(t, bob.document(t, expires, nil)))
	p.submit(p.transfer(p.dev(), newWallet("carol").ph, 5*ela.OneELA))
	p.mine()
	alice.last = p.publish(alice.update(t, alice.document(t, expires, []did.Service{service("vault", "VaultService")})))
	p.publish(bob.deactivate(t))
	catchUp(t, p, f)

	ph, hash, _ := p.c.Tip()
	fh, fhash, _ := f.c.Tip()
	if ph != fh || hash != fhash {
		t.Fatalf("follower tip %d %s, producer's %d %s", fh, fhash, ph, hash)
	}
	for h := range ph + 1 {
		pb, _, _ := p.c.BlockByHeight(h)
		fb, _, err := f.c.BlockByHeight(h)
		if err != nil || !bytes.Equal(pb.Bytes(), fb.Bytes()) {
			t.Errorf("block %d differs on the follower (%v)", h, err)
		}
	}
	for _, u := range []*user{alice, bob, newUser("nobody")} {
		for _, all := range []bool{false, true} {
			want, err1 := p.c.ResolveDID(context.Background(), u.did(), all)
			got, err2 := f.c.ResolveDID(context.Background(), u.did(), all)
			if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
				t.Errorf("resolve %s all=%v: follower %s (%v), producer %s (%v)", u.did(), all, got, err2, want, err1)
			}
		}
	}
	for _, q := range []Query{{Service: "VaultService", Limit: 10}, {Service: "HubService", Limit: 10}, {Credential: "EmailCredential", Limit: 10}} {
		want, _ := p.c.Query(context.Background(), q)
		got, err := f.c.Query(context.Background(), q)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("query %+v: follower %s (%v), producer %s", q, got, err, want)
		}
	}
	for _, w := range []wallet{p.dev(), newWallet("carol")} {
		want, _ := p.c.Balance(w.ph, ela.ELAAssetID())
		got, err := f.c.Balance(w.ph, ela.ELAAssetID())
		if err != nil || got != want {
			t.Errorf("balance of %s: follower %s (%v), producer %s", w.ph.Address(), got, err, want)
		}
	}
	if got, want := f.c.Stats().TxnCnt, p.c.Stats().TxnCnt; got != want {
		t.Errorf("follower counts %d transactions, producer %d", got, want)
	}
}

func TestApplyRefuses(t *testing.T) {
	p := newFixture(t, Config{})
	p.submit(p.transfer(p.dev(), newWallet("carol").ph, ela.OneELA))
	p.mine()
	p.mine()
	genesis := p.c.genesis.Header
	b1, cf1 := upstreamBlock(t, p, 1)
	b2, cf2 := upstreamBlock(t, p, 2)
	spend := b1.Transactions[1]
	other := newFixture(t, Config{DevSeed: "another seed"})

	// block1With returns a block 1 holding txs after the coinbase (paying
	// fees plus extra), confirmed by the producer's arbiters.
	block1With := func(extra ela.Fixed64, txs ...*ela.Tx) (*ela.Block, *ela.Confirm) {
		var fees ela.Fixed64
		for range txs {
			fees += p.c.params.MinFee
		}
		cb := p.c.params.Coinbase(1, p.c.producer, fees+p.c.params.Subsidy+extra)
		b := p.c.params.NewBlock(&genesis, b1.Header.Timestamp, append([]*ela.Tx{cb}, txs...))
		return b, p.c.confirm(b.Hash())
	}
	resigned := func(mutate func(cf *ela.Confirm)) *ela.Confirm {
		cf := *cf1
		cf.Votes = append([]ela.Vote(nil), cf1.Votes...)
		mutate(&cf)
		return &cf
	}
	tampered := *spend
	tampered.Programs = []ela.Program{{Code: spend.Programs[0].Code, Parameter: bytes.Repeat([]byte{1}, len(spend.Programs[0].Parameter))}}
	overpaid, overpaidCf := block1With(1, spend)
	badSig, badSigCf := block1With(0, &tampered)

	for _, tc := range []struct {
		name string
		b    *ela.Block
		cf   *ela.Confirm
		rule ledger.BlockRule // when the block's structure is at fault
		code ledger.Code      // when a transaction is
		tx   int
	}{
		{name: "skips a height", b: b2, cf: cf2, rule: ledger.BlockLink, tx: -1},
		{name: "another chain's block", b: other.mine(), cf: nil, rule: ledger.BlockLink, tx: -1},
		{name: "no confirm", b: b1, cf: nil, tx: -1},
		{name: "confirm of another block", b: b1, cf: cf2, tx: -1},
		{name: "confirm by another seed", b: b1, cf: other.c.confirm(b1.Hash()), tx: -1},
		{name: "confirm without votes", b: b1, cf: resigned(func(cf *ela.Confirm) { cf.Votes = nil }), tx: -1},
		{name: "rejecting vote", b: b1, cf: resigned(func(cf *ela.Confirm) { cf.Votes[0].Accept = false }), tx: -1},
		{name: "forged vote", b: b1, cf: resigned(func(cf *ela.Confirm) { cf.Votes[0].Signature[5] ^= 1 }), tx: -1},
		{name: "coinbase pays too much", b: overpaid, cf: overpaidCf, code: ledger.Balance, tx: 0},
		{name: "transaction not signed by its input's owner", b: badSig, cf: badSigCf, code: ledger.Signature, tx: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, Config{Follower: true})
			err := f.c.Apply(context.Background(), tc.b, tc.cf)
			be, ok := errors.AsType[*BlockError](err)
			if !ok || be.Tx != tc.tx || be.Height != tc.b.Header.Height {
				t.Fatalf("Apply: %v, want a BlockError for transaction %d of block %d", err, tc.tx, tc.b.Header.Height)
			}
			if tc.rule != "" {
				if le, ok := errors.AsType[*ledger.BlockError](err); !ok || le.Rule != tc.rule {
					t.Errorf("Apply: %v, want rule %s", err, tc.rule)
				}
			}
			if tc.code != 0 {
				wantReject(t, "Apply", err, tc.code)
			}
			if h, _, _ := f.c.Tip(); h != 0 {
				t.Fatalf("a refused block moved the tip to %d", h)
			}
			catchUp(t, p, f) // nothing of the refused block stayed behind
		})
	}
}

func TestFollowerMakesNothing(t *testing.T) {
	f := newFixture(t, Config{Follower: true})
	ctx := context.Background()
	if f.c.Devnet() {
		t.Error("a follower's chain says it is a devnet")
	}
	_, errMine := f.c.Mine(ctx)
	_, errTime := devnet.IncreaseTime(f.c, time.Hour)
	_, errSubmit := f.c.SubmitTx(f.transfer(f.dev(), newWallet("carol").ph, ela.OneELA).Bytes())
	_, errRequest := f.c.SubmitRequest(ctx, newUser("alice").create(t, newUser("alice").document(t, GenesisTime.AddDate(1, 0, 0), nil)))
	for name, err := range map[string]error{"Mine": errMine, "IncreaseTime": errTime, "Reset": devnet.Reset(ctx, f.c), "SubmitTx": errSubmit, "SubmitRequest": errRequest} {
		if !errors.Is(err, ErrFollower) {
			t.Errorf("%s: %v, want ErrFollower", name, err)
		}
	}
	p := newFixture(t, Config{})
	b := p.mine()
	cf, _ := p.c.Confirm(b.Hash())
	if err := p.c.Apply(ctx, b, cf); !errors.Is(err, ErrNotFollower) {
		t.Errorf("Apply on a producing chain: %v, want ErrNotFollower", err)
	}
}
