package chain

import (
	"context"
	"errors"
	"testing"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/ledger"
)

// A chain counts the blocks it makes and applies and the identity
// operations they carry, whichever way they are made, and the submissions
// of an identity operation it refuses; a refused transaction that carries
// none, and a follower's refusal to take transactions, are not counted.
func TestCounts(t *testing.T) {
	ctx := context.Background()
	p := newFixture(t, Config{})
	f := newFixture(t, Config{Follower: true})
	expires := GenesisTime.AddDate(3, 0, 0)
	alice, bob := newUser("counts alice"), newUser("counts bob")
	create, update := createAndUpdate(t, p, alice)
	bobCreate := bob.create(t, bob.document(t, expires, nil))
	again := alice.create(t, alice.document(t, expires.AddDate(1, 0, 0), nil))
	dev := p.dev()
	var pay *ela.Tx
	for _, step := range []struct {
		name string
		do   func() error
		want Counts
	}{
		{"MineTxs of a create and an update", func() error {
			_, err := p.c.MineTxs(ctx, [][]byte{create.Bytes(), update.Bytes()})
			return err
		}, Counts{Blocks: 1, Operations: 2}},
		{"an empty block", func() error { _, err := p.c.Mine(ctx); return err }, Counts{Blocks: 2, Operations: 2}},
		{"a payment, mined", func() error {
			pay = p.transfer(dev, newWallet("counts carol").ph, ela.OneELA)
			p.submit(pay)
			_, err := p.c.Mine(ctx)
			return err
		}, Counts{Blocks: 3, Operations: 2}},
		{"bob's create, mined", func() error { p.publish(bobCreate); return nil }, Counts{Blocks: 4, Operations: 3}},
		{"SubmitTx of a create of a DID that exists", func() error {
			_, err := p.c.SubmitTx(p.opTx(dev, again).Bytes())
			return want(err, ledger.Payload)
		}, Counts{Blocks: 4, Operations: 3, Refused: 1}},
		{"SubmitRequest of it", func() error {
			_, err := p.c.SubmitRequest(ctx, again)
			return want(err, ledger.Payload)
		}, Counts{Blocks: 4, Operations: 3, Refused: 2}},
		{"SubmitTx of bytes of an operation's type that do not decode", func() error {
			_, err := p.c.SubmitTx([]byte{byte(ela.TxDIDOperation)})
			return want(err, ledger.Malformed)
		}, Counts{Blocks: 4, Operations: 3, Refused: 3}},
		{"SubmitTx of a payment already mined (not counted)", func() error {
			_, err := p.c.SubmitTx(pay.Bytes())
			return want(err, ledger.Duplicate)
		}, Counts{Blocks: 4, Operations: 3, Refused: 3}},
	} {
		t.Run(step.name, func(t *testing.T) {
			if err := step.do(); err != nil {
				t.Fatal(err)
			}
			if got := p.c.Counts(); got != step.want {
				t.Errorf("%+v, want %+v", got, step.want)
			}
		})
	}

	if _, err := f.c.SubmitTx(create.Bytes()); !errors.Is(err, ErrFollower) {
		t.Fatalf("SubmitTx on a follower: %v", err)
	}
	catchUp(t, p, f)
	if got, want := f.c.Counts(), (Counts{Blocks: 4, Operations: 3}); got != want {
		t.Errorf("the follower: %+v, want %+v", got, want)
	}
}

// want returns nil if err is a *RejectError of code c, else an error
// saying what it is.
func want(err error, c ledger.Code) error {
	if r, ok := errors.AsType[*RejectError](err); ok && r.Code == int(c) {
		return nil
	}
	return errors.Join(errors.New("want a refusal "+c.String()), err)
}
