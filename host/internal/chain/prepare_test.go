package chain

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/ledger"
)

// MineTxs takes transactions that depend on earlier ones of the same block
// (a create, then an update of that DID spending the create's change), and
// a follower applies the block it makes.
func TestMineTxsDependentBlock(t *testing.T) {
	p := newFixture(t, Config{})
	f := newFixture(t, Config{Follower: true})
	alice := newUser("bulk alice")
	create, update := createAndUpdate(t, p, alice)
	b, err := p.c.MineTxs(context.Background(), [][]byte{create.Bytes(), update.Bytes()})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Transactions) != 3 || b.Transactions[1].Hash() != create.Hash() || b.Transactions[2].Hash() != update.Hash() {
		t.Fatalf("block %d holds %d transactions, want the coinbase, the create and the update", b.Header.Height, len(b.Transactions))
	}
	catchUp(t, p, f)
	for _, c := range []*Chain{p.c, f.c} {
		got, err := c.Query(context.Background(), Query{Service: "Hub"})
		if err != nil || !bytes.Contains(got, []byte(alice.did().String())) {
			t.Errorf("query Hub: %s (%v), want %s", got, err, alice.did())
		}
	}
}

// createAndUpdate returns the create of u's DID and an update adding a Hub
// service, which spends the create's change: a transaction that depends on
// the one before.
func createAndUpdate(t *testing.T, p *fixture, u *user) (create, update *ela.Tx) {
	t.Helper()
	dev := p.dev()
	expires := GenesisTime.AddDate(3, 0, 0)
	create = p.spendTx(dev, operation(u.create(t, u.document(t, expires, nil))), p.free(dev))
	u.last = create.Hash()
	change := UTXO{Txid: create.Hash(), Index: 0, Value: create.Outputs[0].Value}
	update = p.spendTx(dev, operation(u.update(t, u.document(t, expires, []did.Service{service("hub", "Hub")}))), change)
	return create, update
}

// A block MineTxs refuses names the transaction at fault and changes
// nothing; a pooled transaction, or a follower's chain, stops it at once.
func TestMineTxsRefuses(t *testing.T) {
	p := newFixture(t, Config{})
	dev := p.dev()
	good := p.transfer(dev, newWallet("carol").ph, ela.OneELA)
	tampered := *p.transfer(dev, newWallet("dave").ph, ela.OneELA)
	tampered.Programs = []ela.Program{{Code: good.Programs[0].Code, Parameter: bytes.Repeat([]byte{1}, len(good.Programs[0].Parameter))}}
	ctx := context.Background()

	for _, tc := range []struct {
		name string
		txs  [][]byte
		tx   int
		code ledger.Code
	}{
		{"bad signature", [][]byte{tampered.Bytes()}, 1, ledger.Signature},
		{"double spend in the block", [][]byte{good.Bytes(), tampered.Bytes()}, 2, ledger.DoubleSpend},
		{"does not decode", [][]byte{good.Bytes(), {1, 2, 3}}, 2, ledger.Malformed},
	} {
		_, err := p.c.MineTxs(ctx, tc.txs)
		be, ok := errors.AsType[*BlockError](err)
		if !ok || be.Tx != tc.tx || be.Height != 1 {
			t.Errorf("%s: %v, want a BlockError for transaction %d of block 1", tc.name, err, tc.tx)
			continue
		}
		wantReject(t, tc.name, err, tc.code)
		if h, _, _ := p.c.Tip(); h != 0 {
			t.Fatalf("%s: a refused block moved the tip to %d", tc.name, h)
		}
	}

	p.submit(good)
	if _, err := p.c.MineTxs(ctx, nil); !errors.Is(err, ErrPoolBusy) {
		t.Errorf("MineTxs with a pooled transaction: %v, want ErrPoolBusy", err)
	}
	f := newFixture(t, Config{Follower: true})
	if _, err := f.c.MineTxs(ctx, nil); !errors.Is(err, ErrFollower) {
		t.Errorf("MineTxs on a follower: %v, want ErrFollower", err)
	}
}

// Transactions prepared before the block they depend on is stored (a
// create, and an update of its DID spending the create's change, each to
// be a block of its own) have their signatures verified, and the postings
// of the documents they publish found, already: storing their blocks
// verifies none, and a follower applies both.
func TestPrepareTxAhead(t *testing.T) {
	p := newFixture(t, Config{})
	f := newFixture(t, Config{Follower: true})
	create, update := createAndUpdate(t, p, newUser("bulk bob"))

	ready := []*Prepared{p.c.PrepareTx(create.Bytes()), p.c.PrepareTx(update.Bytes())}
	verified := make([]int, len(ready))
	for i, r := range ready {
		if r.err != nil {
			t.Fatal(r.err)
		}
		verified[i] = r.e.sigs.Len()
		if len(r.e.id.Postings) == 0 {
			t.Errorf("transaction %d: no postings found ahead", i)
		}
	}
	for i, r := range ready {
		if _, err := p.c.MinePrepared(context.Background(), []*Prepared{r}); err != nil {
			t.Fatalf("block %d: %v", i+1, err)
		}
		// A program's signature and the request's, at least.
		if got := r.e.sigs.Len(); verified[i] < 2 || got != verified[i] {
			t.Errorf("transaction %d: %d signatures verified ahead, %d once stored; want 2 or more, none more once stored", i, verified[i], got)
		}
	}
	catchUp(t, p, f)
	if h, _, _ := f.c.Tip(); h != 2 {
		t.Errorf("the follower is at height %d, want 2", h)
	}
}
