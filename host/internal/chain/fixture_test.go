package chain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// clock is a wall clock tests move by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: GenesisTime.AddDate(0, 0, 30)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// fixture is a chain on a test store with a test clock.
type fixture struct {
	t     testing.TB
	c     *Chain
	db    store.DB
	clock *clock
	cfg   Config
}

// newFixture opens a chain with cfg, on a fresh memory store and a test
// clock unless cfg says otherwise.
func newFixture(t testing.TB, cfg Config) *fixture {
	t.Helper()
	f := &fixture{t: t, clock: newClock()}
	if cfg.DB == nil {
		cfg.DB = mem.New()
	}
	if cfg.Now == nil {
		cfg.Now = f.clock.Now
	}
	f.cfg, f.db = cfg, cfg.DB
	f.open()
	return f
}

// onDisk is a memory store that says it is durable, so that a chain on it
// keeps its mempool in the pool bucket, as it does on a data directory
// without a mempool log, with no disk syncs in the tests.
type onDisk struct{ store.DB }

func (onDisk) Durable() bool { return true }

func (f *fixture) open() {
	f.t.Helper()
	c, err := Open(f.cfg)
	if err != nil {
		f.t.Fatal(err)
	}
	f.c = c
	f.t.Cleanup(func() { c.Close() })
}

// wallet is a standard account tests pay from.
type wallet struct {
	key *keys.PrivateKey
	ph  ela.ProgramHash
}

func newWallet(name string) wallet {
	a := newAccount(derive("test wallet "+name), "")
	return wallet{key: a.PrivateKey, ph: a.ProgramHash}
}

func (f *fixture) dev() wallet { return wallet{key: f.c.dev.PrivateKey, ph: f.c.dev.ProgramHash} }

// free returns the oldest output of w that no pooled transaction spends.
func (f *fixture) free(w wallet) UTXO {
	f.t.Helper()
	all, err := f.c.UTXOs(w.ph)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, u := range all {
		if !f.c.pool.Spent(ela.Input{TxID: u.Txid, Index: u.Index}) {
			return u
		}
	}
	f.t.Fatalf("wallet %s has no free output", w.ph)
	return UTXO{}
}

// out is an output paying v to ph.
func out(ph ela.ProgramHash, v ela.Fixed64) ela.Output {
	return ela.Output{AssetID: ela.ELAAssetID(), Value: v, ProgramHash: ph}
}

// spendTx returns a transaction with payload p spending u, signed by w,
// with outs and the change (less the minimum fee) back to w.
func (f *fixture) spendTx(w wallet, p ela.Payload, u UTXO, outs ...ela.Output) *ela.Tx {
	change := u.Value - f.c.params.MinFee
	for _, o := range outs {
		change -= o.Value
	}
	tx := &ela.Tx{Payload: p, Inputs: []ela.Input{{TxID: u.Txid, Index: u.Index}}, Outputs: append(outs, out(w.ph, change))}
	tx.SignStandard(w.key)
	return tx
}

// transfer returns a transaction from w paying v to ph.
func (f *fixture) transfer(w wallet, ph ela.ProgramHash, v ela.Fixed64) *ela.Tx {
	return f.spendTx(w, &ela.TransferAsset{}, f.free(w), out(ph, v))
}

// split gives w n outputs of equal value more, in a new block.
func (f *fixture) split(w wallet, n int) {
	f.t.Helper()
	u := f.free(w)
	outs := make([]ela.Output, n)
	for i := range outs {
		outs[i] = out(w.ph, u.Value/ela.Fixed64(n+1))
	}
	f.submit(f.spendTx(w, &ela.TransferAsset{}, u, outs...))
	f.mine()
}

// opTx returns a transaction carrying req, funded by w.
func (f *fixture) opTx(w wallet, req idop.Request) *ela.Tx {
	return f.spendTx(w, operation(req), f.free(w))
}

func operation(req idop.Request) *ela.Operation {
	return &ela.Operation{Header: ela.OperationHeader(req.Header), Payload: req.Payload, Proof: ela.OperationProof(req.Proof)}
}

// submit submits tx and fails the test if it is refused.
func (f *fixture) submit(tx *ela.Tx) ela.Hash {
	f.t.Helper()
	h, err := f.c.SubmitTx(tx.Bytes())
	if err != nil {
		f.t.Fatal(err)
	}
	if h != tx.Hash() {
		f.t.Fatalf("SubmitTx returned %s for transaction %s", h, tx.Hash())
	}
	return h
}

// mine makes a block and fails the test if it cannot.
func (f *fixture) mine() *ela.Block {
	f.t.Helper()
	b, err := f.c.Mine(context.Background())
	if err != nil {
		f.t.Fatal(err)
	}
	return b
}

// publish submits req funded by the dev account, mines it, and returns
// its transaction's id.
func (f *fixture) publish(req idop.Request) ela.Hash {
	f.t.Helper()
	h := f.submit(f.opTx(f.dev(), req))
	if b := f.mine(); b.Transactions[len(b.Transactions)-1].Hash() != h {
		f.t.Fatalf("block %d does not end with %s", b.Header.Height, h)
	}
	return h
}

// wantReject fails the test unless err is a *RejectError with code want.
func wantReject(t testing.TB, what string, err error, want ledger.Code) *RejectError {
	t.Helper()
	r, ok := errors.AsType[*RejectError](err)
	if !ok || r.Code != int(want) {
		t.Errorf("%s: %v, want a RejectError %d (%s)", what, err, int(want), want)
		return nil
	}
	return r
}

// user is the holder of a standard DID in tests.
type user struct {
	key  *keys.PrivateKey
	doc  *did.Document
	last ela.Hash // the DID's last transaction
}

func newUser(name string) *user { return &user{key: derive("test user " + name)} }

func (u *user) did() did.DID { return did.FromKey(u.key.Public()) }

func (u *user) primary() did.URL { return did.URL{DID: u.did(), Fragment: did.PrimaryKey} }

// document returns u's signed document expiring at expires with services
// and self-proclaimed credentials of the given types (one credential per
// type, with an email claim).
func (u *user) document(t testing.TB, expires time.Time, services []did.Service, credTypes ...string) *did.Document {
	t.Helper()
	doc, err := did.NewDocument(u.key.Public(), expires, services...)
	if err != nil {
		t.Fatal(err)
	}
	if len(credTypes) > 0 {
		doc = withCredentials(t, doc, u.key, credTypes)
	}
	if doc, err = doc.Sign(u.key, u.primary(), GenesisTime); err != nil {
		t.Fatal(err)
	}
	return doc
}

// withCredentials returns doc (unsigned) with a self-proclaimed credential
// of each type, signed by the holder's key.
func withCredentials(t testing.TB, doc *did.Document, key *keys.PrivateKey, types []string) *did.Document {
	t.Helper()
	subject := doc.Subject()
	creds := make([]*did.Credential, len(types))
	for i, typ := range types {
		claims, _ := json.Marshal(map[string]any{"email": fmt.Sprintf("%s@example.com", typ), "rank": i})
		c, err := did.NewCredential(did.URL{DID: subject, Fragment: fmt.Sprintf("cred%d", i)}, []string{"SelfProclaimedCredential", typ},
			subject, claims, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
		if err == nil {
			c, err = c.Sign(key, did.URL{DID: subject, Fragment: did.PrimaryKey}, time.Time{})
		}
		if err != nil {
			t.Fatal(err)
		}
		creds[i] = c
	}
	out, err := doc.WithCredentials(creds...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func (u *user) create(t testing.TB, doc *did.Document) idop.Request {
	t.Helper()
	u.doc = doc
	r, err := idop.NewCreate(doc, u.primary(), u.key)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func (u *user) update(t testing.TB, doc *did.Document) idop.Request {
	t.Helper()
	u.doc = doc
	r, err := idop.NewUpdate(doc, u.last.String(), u.primary(), u.key)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func (u *user) deactivate(t testing.TB) idop.Request {
	t.Helper()
	r, err := idop.NewDeactivate(u.did(), u.primary(), u.key)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// service returns a service of type typ.
func service(fragment, typ string) did.Service {
	return did.NewService(did.URL{Fragment: fragment}, typ, "https://example.com/"+fragment)
}
