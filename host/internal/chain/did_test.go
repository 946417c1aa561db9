package chain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/devnet"
)

// resolved is a resolvedid result read back.
type resolved struct {
	DID         string `json:"did"`
	Status      int    `json:"status"`
	Transaction []struct {
		Txid      string `json:"txid"`
		Timestamp string `json:"timestamp"`
		Operation struct {
			Header struct {
				Operation string `json:"operation"`
			} `json:"header"`
		} `json:"operation"`
	} `json:"transaction"`
}

// resolveDID resolves d and checks the result as a light client would
// (resolve.Verify against the tip's time), returning it read back.
func (f *fixture) resolveDID(d did.DID, all bool) resolved {
	f.t.Helper()
	b, err := f.c.ResolveDID(context.Background(), d, all)
	if err != nil {
		f.t.Fatal(err)
	}
	var r resolved
	if err := json.Unmarshal(b, &r); err != nil {
		f.t.Fatalf("%v: %s", err, b)
	}
	_, _, tip := f.c.Tip()
	v, err := resolve.Verify(b, f.lookup(), keys.Native{}, time.Unix(tip, 0))
	if err != nil {
		f.t.Fatalf("the result does not verify: %v\n%s", err, b)
	}
	if int(v.Status) != r.Status {
		f.t.Fatalf("verified status %d, result says %d", v.Status, r.Status)
	}
	return r
}

// want checks a result's status and operations, newest first.
func (r resolved) want(t *testing.T, what string, status int, txids []string, ops ...string) {
	t.Helper()
	if r.Status != status || len(r.Transaction) != len(ops) {
		t.Fatalf("%s: status %d with %d transactions, want %d with %d", what, r.Status, len(r.Transaction), status, len(ops))
	}
	for i, op := range ops {
		if got := r.Transaction[i]; got.Operation.Header.Operation != op || got.Txid != txids[i] {
			t.Errorf("%s: transaction %d is %s %s, want %s %s", what, i, got.Operation.Header.Operation, got.Txid, op, txids[i])
		}
	}
}

// A DID goes through every status by real signed operations: not found
// (3), valid (0), expired (1) once the devnet clock passes its expiry,
// valid again after an update, deactivated (2).
func TestDIDStatuses(t *testing.T) {
	f := newFixture(t, Config{})
	u := newUser("alice")
	f.resolveDID(u.did(), false).want(t, "unknown", 3, nil)
	f.resolveDID(u.did(), true).want(t, "unknown, all", 3, nil)

	now := f.clock.Now()
	create := f.publish(u.create(t, u.document(t, now.Add(48*time.Hour), nil)))
	u.last = create
	f.resolveDID(u.did(), false).want(t, "created", 0, []string{create.String()}, "create")

	if _, err := devnet.IncreaseTime(f.c, 72*time.Hour); err != nil {
		t.Fatal(err)
	}
	f.resolveDID(u.did(), false).want(t, "expired", 1, []string{create.String()}, "create")
	sdk, err := f.c.ResolveDIDSDK(context.Background(), u.did(), false)
	if err != nil {
		t.Fatal(err)
	}
	var r resolved
	if err := json.Unmarshal(sdk, &r); err != nil || r.Status != 0 || len(r.Transaction) != 1 {
		t.Errorf("the SDK form of an expired DID: %s, %v", sdk, err)
	}

	// An update published after expiry with a new expiry revives it.
	update := f.publish(u.update(t, u.document(t, now.AddDate(1, 0, 0), []did.Service{service("hub", "Hub")})))
	u.last = update
	f.resolveDID(u.did(), false).want(t, "updated", 0, []string{update.String()}, "update")
	f.resolveDID(u.did(), true).want(t, "updated, all", 0, []string{update.String(), create.String()}, "update", "create")

	deactivate := f.publish(u.deactivate(t))
	txids := []string{deactivate.String(), update.String()}
	f.resolveDID(u.did(), false).want(t, "deactivated", 2, txids, "deactivate", "update")
	f.resolveDID(u.did(), true).want(t, "deactivated, all", 2, append(txids, create.String()), "deactivate", "update", "create")

	// Nothing more may happen to a deactivated DID.
	_, err = f.c.SubmitTx(f.opTx(f.dev(), u.update(t, u.document(t, now.AddDate(2, 0, 0), nil))).Bytes())
	if wantReject(t, "update after deactivate", err, ledger.Payload); idop.RuleOf(err) != idop.RuleDeactivated {
		t.Errorf("update after deactivate: %v", err)
	}
	checkIndexes(t, f.c)
}

// A customized DID's validation looks its controller up in the chain.
func TestCustomizedDID(t *testing.T) {
	f := newFixture(t, Config{})
	ctrl := newUser("controller")
	ctrl.last = f.publish(ctrl.create(t, ctrl.document(t, GenesisTime.AddDate(3, 0, 0), nil)))
	custom := customized(t, "acme", ctrl, GenesisTime.AddDate(2, 0, 0))
	create, err := idop.NewCreate(custom, ctrl.primary(), ctrl.key)
	if err != nil {
		t.Fatal(err)
	}
	h := f.publish(create)
	upper, _ := did.Parse("did:elastos:ACME")
	b, err := f.c.ResolveDID(context.Background(), upper, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := resolve.Verify(b, f.lookup(), keys.Native{}, f.clock.Now()); err != nil {
		t.Errorf("%v\n%s", err, b)
	}
	var r resolved
	json.Unmarshal(b, &r)
	if r.Status != 0 || len(r.Transaction) != 1 || r.Transaction[0].Txid != h.String() {
		t.Errorf("resolving the customized DID in upper case: %s", b)
	}

	// Once its controller is deactivated, the DID cannot be updated.
	f.publish(ctrl.deactivate(t))
	again := customized(t, "acme", ctrl, GenesisTime.AddDate(4, 0, 0))
	update, _ := idop.NewUpdate(again, h.String(), ctrl.primary(), ctrl.key)
	_, err = f.c.SubmitTx(f.opTx(f.dev(), update).Bytes())
	if wantReject(t, "update by a deactivated controller", err, ledger.Payload); idop.RuleOf(err) != idop.RuleController {
		t.Errorf("update by a deactivated controller: %v", err)
	}
	checkIndexes(t, f.c)
}

// customized returns the signed document of the customized DID name with
// one controller.
func customized(t *testing.T, name string, ctrl *user, expires time.Time) *did.Document {
	t.Helper()
	text, _ := json.Marshal(map[string]any{
		"id": "did:elastos:" + name, "controller": ctrl.did().String(), "expires": did.FormatTime(expires),
	})
	doc, err := did.ParseDocument(text)
	if err != nil {
		t.Fatal(err)
	}
	if doc, err = doc.Sign(ctrl.key, ctrl.primary(), GenesisTime); err != nil {
		t.Fatal(err)
	}
	return doc
}

// lookup returns the chain's current documents, as a light client would
// have resolved them.
func (f *fixture) lookup() did.Lookup { return chainLookup{f.c} }

type chainLookup struct{ c *Chain }

func (l chainLookup) Document(d did.DID) (*did.Document, error) {
	var doc *did.Document
	err := l.c.view(func(s snapshot) error {
		var err error
		doc, err = s.dids().Document(d)
		return err
	})
	return doc, err
}

// An operation whose document expires between its admission and its
// block leaves the mempool; the caller waiting for it learns why.
func TestEviction(t *testing.T) {
	f := newFixture(t, Config{})
	u := newUser("short")
	soon := f.clock.Now().Add(time.Minute)
	req := u.create(t, u.document(t, soon, nil))
	errc := make(chan error, 1)
	go func() {
		_, err := f.c.SubmitRequest(context.Background(), req)
		errc <- err
	}()
	for f.c.Stats().Mempool == 0 {
		time.Sleep(time.Millisecond)
	}
	f.clock.advance(time.Hour)
	b := f.mine()
	if len(b.Transactions) != 1 || f.c.Stats().Mempool != 0 {
		t.Errorf("block %d holds %d transactions, the mempool %d", b.Header.Height, len(b.Transactions), f.c.Stats().Mempool)
	}
	err := <-errc
	if wantReject(t, "expired before its block", err, ledger.Payload); idop.RuleOf(err) != idop.RuleExpired {
		t.Errorf("the waiter got %v", err)
	}
	f.resolveDID(u.did(), false).want(t, "evicted", 3, nil)
	checkIndexes(t, f.c)
}

// SubmitRequest funds requests from the dev account; many at once each
// get an output to spend, and each returns once its block is made.
func TestSubmitRequestConcurrent(t *testing.T) {
	f := newFixture(t, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error)
	go func() { done <- f.c.Run(ctx) }()
	const n = 24
	errs := make(chan error, n)
	users := make([]*user, n)
	for i := range users {
		users[i] = newUser(string(rune('a' + i)))
		req := users[i].create(t, users[i].document(t, GenesisTime.AddDate(2, 0, 0), nil))
		go func() {
			h, err := f.c.SubmitRequest(ctx, req)
			if err == nil {
				_, tctx, terr := f.c.Tx(h)
				if terr != nil || tctx.BlockHash.IsZero() {
					err = errors.Join(terr, errors.New("SubmitRequest returned before the block"))
				}
			}
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	for _, u := range users {
		if r := f.resolveDID(u.did(), false); r.Status != 0 {
			t.Errorf("%s: status %d", u.did(), r.Status)
		}
	}
	// A request the chain refuses is not waited for.
	_, err := f.c.SubmitRequest(ctx, users[0].create(t, users[0].doc))
	if wantReject(t, "create again", err, ledger.Payload); idop.RuleOf(err) != idop.RuleCreateExists {
		t.Errorf("create again: %v", err)
	}
	_, err = f.c.SubmitRequest(ctx, idop.Request{})
	if wantReject(t, "an empty request", err, ledger.Payload); idop.RuleOf(err) != idop.RuleMalformed {
		t.Errorf("an empty request: %v", err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run: %v", err)
	}
	checkIndexes(t, f.c)
}

// A request submitted as soon as the previous one on the same DID
// returned finds that one out of the mempool: SubmitRequest returns only
// once its block has been applied.
func TestSubmitRequestSequential(t *testing.T) {
	f := newFixture(t, Config{Now: time.Now})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go f.c.Run(ctx)
	for i := range 40 {
		u := newUser(fmt.Sprintf("sequential %d", i))
		create := u.create(t, u.document(t, time.Now().AddDate(1, 0, 0), nil))
		// The next requests are signed beforehand: each goes in the moment
		// the previous one returns.
		h, err := f.c.SubmitRequest(ctx, create)
		if err != nil {
			t.Fatal(err)
		}
		u.last = h
		update := u.update(t, u.document(t, time.Now().AddDate(1, 0, 1), nil))
		deactivate := u.deactivate(t)
		if _, err := f.c.SubmitRequest(ctx, update); err != nil {
			t.Fatalf("DID %d, update: %v", i, err)
		}
		if _, err := f.c.SubmitRequest(ctx, deactivate); err != nil {
			t.Fatalf("DID %d, deactivate: %v", i, err)
		}
	}
}
