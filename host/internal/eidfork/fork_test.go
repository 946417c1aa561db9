package eidfork_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/fork"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	eidclient "github.com/didlight/didlight/host/client/eid"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/devnet"
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/eidfork"
	"github.com/didlight/didlight/host/internal/eidtest"
	"github.com/didlight/didlight/host/internal/eidtest/scenario"
	"github.com/didlight/didlight/host/internal/light"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// methods counts the JSON-RPC methods an upstream was asked.
type methods struct {
	mu sync.Mutex
	n  map[string]int
}

func (m *methods) tamper(method string, _ json.RawMessage, answer []byte) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.n == nil {
		m.n = map[string]int{}
	}
	m.n[method]++
	return answer
}

func (m *methods) count(method string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.n[method]
}

// upstream is the recorded EID node at checkpoint, its methods counted.
func upstream(t testing.TB, checkpoint string) (*eidtest.Upstream, *methods) {
	m := &methods{}
	return eidtest.NewReplay(t, eidtest.Options{Checkpoint: checkpoint, Tamper: m.tamper}), m
}

// forked is a devnet forked from an upstream, producing blocks.
type forked struct {
	c    *chain.Chain
	f    *eidfork.Fork
	stop func()
}

func client(t testing.TB, url string, budget float64) *eidclient.Client {
	t.Helper()
	c, err := eidclient.New(eidclient.Config{Network: eidclient.Network{Endpoints: []string{url}}, Budget: budget,
		CallTimeout: 2 * time.Second, RequestTimeout: 2 * time.Second, Retries: 1, Backoff: 10 * time.Millisecond, MaxBackoff: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// newFork opens a devnet on db forked at height from the upstream at url.
func newFork(t testing.TB, db store.DB, url string, height uint64, budget float64) *forked {
	t.Helper()
	c, err := chain.Open(chain.Config{DB: db})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { c.Run(ctx); close(done) }()
	var once sync.Once
	stop := func() { once.Do(func() { cancel(); <-done; c.Close() }) }
	t.Cleanup(stop)
	cl := client(t, url, budget)
	f, err := eidfork.New(context.Background(), eidfork.Config{Chain: c, Client: cl, Resolver: light.New(light.Config{Client: cl}), Height: height})
	if err != nil {
		t.Fatal(err)
	}
	return &forked{c: c, f: f, stop: stop}
}

// resolve answers did_resolveDID on the fork, taking d first.
func (fk *forked) resolve(t testing.TB, d did.DID) string {
	t.Helper()
	if err := fk.f.Ensure(context.Background(), d); err != nil {
		t.Fatal(err)
	}
	b, err := fk.c.ResolveDIDSDK(context.Background(), d, true)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// recorded is what the upstream answered did_resolveDID for d, with all.
func recorded(t testing.TB, up *eidtest.Upstream, d did.DID) string {
	t.Helper()
	b, err := client(t, up.URL, -1).ResolveDID(context.Background(), d, true)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func didOf(t testing.TB, m *scenario.Manifest, name string) did.DID {
	t.Helper()
	for _, x := range m.DIDs {
		if x.Name == name {
			d, err := did.Parse(x.DID)
			if err != nil {
				t.Fatal(err)
			}
			return d
		}
	}
	t.Fatalf("no DID %s in the scenario", name)
	return did.DID{}
}

func headOf(t testing.TB, m *scenario.Manifest, checkpoint string) uint64 {
	for _, c := range m.Checkpoints {
		if c.Name == checkpoint {
			return c.Head
		}
	}
	t.Fatalf("no checkpoint %s", checkpoint)
	return 0
}

// TestForkAnswersAsTheUpstreamAtTheForkPoint forks the recorded node at
// the head of each checkpoint (from the final recording) and requires
// every DID of the scenario to be answered as the node answered at that
// checkpoint, each taken once.
func TestForkAnswersAsTheUpstreamAtTheForkPoint(t *testing.T) {
	final, _ := upstream(t, scenario.Final)
	for _, cp := range []string{"created", "active", scenario.Final} {
		t.Run(cp, func(t *testing.T) {
			at, _ := upstream(t, cp)
			up, calls := upstream(t, scenario.Final)
			fk := newFork(t, mem.New(), up.URL, headOf(t, final.Manifest, cp), -1)
			for _, x := range final.Manifest.DIDs {
				d := didOf(t, final.Manifest, x.Name)
				if got, want := fk.resolve(t, d), recorded(t, at, d); got != want {
					t.Errorf("%s at %s:\n got %s\nwant %s", x.Name, cp, got, want)
				}
			}
			asked := calls.count("did_resolveDID")
			for _, x := range final.Manifest.DIDs {
				fk.resolve(t, didOf(t, final.Manifest, x.Name))
			}
			if again := calls.count("did_resolveDID"); again != asked {
				t.Errorf("reading the DIDs again asked the upstream %d more times", again-asked)
			}
		})
	}
}

// seededKey is the scenario's key of an actor (scenario/actor.go).
func seededKey(t testing.TB, name string) *keys.PrivateKey {
	seed := sha256.Sum256([]byte("didlight eidtest " + name))
	k, err := keys.NewPrivateKey(seed[:])
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestLocalOperationsOnARecordedDID updates a recorded DID whose key the
// scenario holds and deactivates another, mined on the fork; the
// upstream hears of neither, and a restart on the store with the upstream
// gone answers the same.
func TestLocalOperationsOnARecordedDID(t *testing.T) {
	up, calls := upstream(t, scenario.Final)
	db := mem.New()
	height := headOf(t, up.Manifest, scenario.Final)
	fk := newFork(t, db, up.URL, height, -1)
	ctx := context.Background()

	alice := didOf(t, up.Manifest, "alice")
	if err := fk.f.Ensure(ctx, alice); err != nil {
		t.Fatal(err)
	}
	primary := did.URL{DID: alice, Fragment: did.PrimaryKey}
	req, err := idop.NewDeactivate(alice, primary, seededKey(t, "alice"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fk.c.SubmitRequest(ctx, req); err != nil {
		t.Fatalf("deactivating alice on the fork: %v", err)
	}
	got := fk.resolve(t, alice)
	if !strings.Contains(got, `"status":2`) {
		t.Errorf("alice after a local deactivate: %s", got)
	}
	if !strings.Contains(recorded(t, up, alice), `"status":0`) {
		t.Errorf("the upstream's alice changed")
	}
	for _, m := range []string{"eth_sendRawTransaction", "eth_sendTransaction", "did_sendDIDTransaction"} {
		if n := calls.count(m); n != 0 {
			t.Errorf("the upstream was asked %s %d times", m, n)
		}
	}
}

// TestRestartOffline reopens a fork's store with its upstream gone: what
// it took, and what it took as absent, answer as before.
func TestRestartOffline(t *testing.T) {
	up, _ := upstream(t, scenario.Final)
	db := mem.New()
	height := headOf(t, up.Manifest, "active")
	fk := newFork(t, db, up.URL, height, -1)
	unknown, err := did.Parse("did:elastos:igwfZdSjTcUqrHKY2bAYg2X6PnFqstUw9E") // recorded as unknown to the node
	if err != nil {
		t.Fatal(err)
	}
	ids := []did.DID{didOf(t, up.Manifest, "alice"), didOf(t, up.Manifest, "erin"), didOf(t, up.Manifest, "grace"), unknown}
	before := map[string]string{}
	for _, d := range ids {
		before[d.String()] = fk.resolve(t, d)
	}
	if !strings.Contains(before[unknown.String()], `"status":3`) {
		t.Errorf("an unknown DID: %s", before[unknown.String()])
	}
	fk.stop()
	again := newFork(t, db, "http://127.0.0.1:1/", height, -1)
	for _, d := range ids {
		if got := again.resolve(t, d); got != before[d.String()] {
			t.Errorf("%s after a restart offline:\n got %s\nwant %s", d, got, before[d.String()])
		}
	}
	if _, err := eidfork.New(context.Background(), eidfork.Config{Chain: again.c, Client: client(t, up.URL, -1),
		Resolver: light.New(light.Config{Client: client(t, up.URL, -1)}), Height: height + 1}); err == nil {
		t.Error("a store forked at one height opened as a fork at another")
	}
}

// TestUpstreamFailure requires a DID the upstream fails to give to fail
// its read with an error naming it, and to be taken once it answers.
func TestUpstreamFailure(t *testing.T) {
	failing := true
	var mu sync.Mutex
	up := eidtest.NewReplay(t, eidtest.Options{Fault: func(int) eidtest.Fault {
		mu.Lock()
		defer mu.Unlock()
		if failing {
			return eidtest.Status500
		}
		return eidtest.NoFault
	}})
	fk := newFork(t, mem.New(), up.URL, headOf(t, up.Manifest, scenario.Final), -1)
	alice := didOf(t, up.Manifest, "alice")
	err := fk.f.Ensure(context.Background(), alice)
	if err == nil || !strings.Contains(err.Error(), alice.String()) || !strings.Contains(err.Error(), "500") {
		t.Fatalf("a failing upstream: %v, want an error naming %s and the upstream's 500", err, alice)
	}
	mu.Lock()
	failing = false
	mu.Unlock()
	if got := fk.resolve(t, alice); !strings.Contains(got, `"status":0`) {
		t.Errorf("alice once the upstream answers: %s", got)
	}
}

// TestBudget takes DIDs through a client of 10 requests a second with no
// burst: the upstream hears no more than the budget allows in the time it
// took.
func TestBudget(t *testing.T) {
	up, _ := upstream(t, scenario.Final)
	cl, err := eidclient.New(eidclient.Config{Network: eidclient.Network{Endpoints: []string{up.URL}}, Budget: 10, Burst: 1})
	if err != nil {
		t.Fatal(err)
	}
	c, err := chain.Open(chain.Config{DB: mem.New()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	f, err := eidfork.New(context.Background(), eidfork.Config{Chain: c, Client: cl, Resolver: light.New(light.Config{Client: cl}), Height: headOf(t, up.Manifest, scenario.Final)})
	if err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	for _, name := range []string{"alice", "bob", "carol"} {
		if err := f.Ensure(context.Background(), didOf(t, up.Manifest, name)); err != nil {
			t.Fatal(err)
		}
	}
	took := time.Since(began)
	n := up.Requests()
	if allowed := 1 + int(10*took.Seconds()); n > allowed || n < 5 {
		t.Errorf("%d requests in %v, want 5 or more (the budget exercised) and at most %d", n, took, allowed)
	}
}

// TestConcurrentTakes asks for one DID from many goroutines at once: it
// is grafted once, and every asker then reads the same answer.
func TestConcurrentTakes(t *testing.T) {
	up, _ := upstream(t, scenario.Final)
	fk := newFork(t, mem.New(), up.URL, headOf(t, up.Manifest, scenario.Final), -1)
	alice := didOf(t, up.Manifest, "alice")
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() { errs <- fk.f.Ensure(context.Background(), alice) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if got, want := fk.resolve(t, alice), recorded(t, up, alice); got != want {
		t.Errorf("alice after concurrent takes:\n got %s\nwant %s", got, want)
	}
}

// TestUpdateAndIssueOnRecordedDIDs updates a recorded DID with the
// scenario's key, naming its last EID txid as previousTxid, and declares a
// credential a recorded DID issues to a DID made on the fork: both are
// mined here, and the upstream's answers do not change.
func TestUpdateAndIssueOnRecordedDIDs(t *testing.T) {
	up, calls := upstream(t, scenario.Final)
	fk := newFork(t, mem.New(), up.URL, headOf(t, up.Manifest, scenario.Final), -1)
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Second)

	bob, bobKey := didOf(t, up.Manifest, "bob"), seededKey(t, "bob")
	if err := fk.f.Ensure(ctx, bob); err != nil {
		t.Fatal(err)
	}
	var last string
	if err := fk.c.ViewIndex(func(_ store.Tx, r didindex.Reader) error {
		st, err := r.State(bob.Key())
		if err == nil {
			last = st.Txid
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	primary := did.URL{DID: bob, Fragment: did.PrimaryKey}
	svc := did.NewService(did.URL{DID: bob, Fragment: "hub"}, "LinkedDomains", "https://bob.example.org/forked")
	doc, err := did.NewDocument(bobKey.Public(), now.AddDate(1, 0, 0), svc)
	if err != nil {
		t.Fatal(err)
	}
	if doc, err = doc.Sign(bobKey, primary, now); err != nil {
		t.Fatal(err)
	}
	req, err := idop.NewUpdate(doc, last, primary, bobKey)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fk.c.SubmitRequest(ctx, req); err != nil {
		t.Fatalf("updating bob on the fork after its EID txid %s: %v", last, err)
	}
	if got := fk.resolve(t, bob); !strings.Contains(got, `"txid":"`+last+`"`) || strings.Count(got, `"txid"`) != strings.Count(recorded(t, up, bob), `"txid"`)+1 {
		t.Errorf("bob after a local update: %.400s", got)
	}

	// A DID of the fork's own, and a credential carol (a recorded DID) issues it.
	subjectKey := seededKey(t, "fork subject")
	subject := did.FromKey(subjectKey.Public())
	sdoc, err := did.NewDocument(subjectKey.Public(), now.AddDate(1, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	sprimary := did.URL{DID: subject, Fragment: did.PrimaryKey}
	if sdoc, err = sdoc.Sign(subjectKey, sprimary, now); err != nil {
		t.Fatal(err)
	}
	if req, err = idop.NewCreate(sdoc, sprimary, subjectKey); err != nil {
		t.Fatal(err)
	}
	if _, err := fk.c.SubmitRequest(ctx, req); err != nil {
		t.Fatal(err)
	}
	carol, carolKey := didOf(t, up.Manifest, "carol"), seededKey(t, "carol")
	id := did.URL{DID: subject, Fragment: "forked"}
	cred, err := did.NewCredential(id, []string{"VerifiableCredential"}, carol, []byte(`{"forked":true}`), now, now.AddDate(1, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if cred, err = cred.Sign(carolKey, did.URL{DID: carol, Fragment: did.PrimaryKey}, now); err != nil {
		t.Fatal(err)
	}
	if req, err = idop.NewDeclare(cred, sprimary, subjectKey); err != nil {
		t.Fatal(err)
	}
	if err := fk.f.Ensure(ctx, fork.Needs(mustDecode(t, req))...); err != nil {
		t.Fatal(err)
	}
	if _, err := fk.c.SubmitRequest(ctx, req); err != nil {
		t.Fatalf("declaring a credential carol issued: %v", err)
	}
	got, err := fk.c.ResolveCredential(ctx, id, nil)
	if err != nil || !strings.Contains(string(got), `"status":0`) {
		t.Errorf("the credential carol issued, on the fork: %s %v", got, err)
	}
	for _, m := range []string{"eth_sendRawTransaction", "eth_sendTransaction"} {
		if n := calls.count(m); n != 0 {
			t.Errorf("the upstream was asked %s %d times", m, n)
		}
	}
}

func mustDecode(t *testing.T, req idop.Request) *idop.Op {
	t.Helper()
	op, err := idop.Decode(req)
	if err != nil {
		t.Fatal(err)
	}
	return op
}

// TestReset resets a fork that took a DID and deactivated it, and reverts
// one that took a DID after a snapshot: the DIDs are back as they stood at
// the fork height, grafted again from the store without asking the
// upstream.
func TestReset(t *testing.T) {
	up, calls := upstream(t, scenario.Final)
	fk := newFork(t, mem.New(), up.URL, headOf(t, up.Manifest, scenario.Final), -1)
	ctx := context.Background()
	alice := didOf(t, up.Manifest, "alice")
	want := fk.resolve(t, alice)
	req, err := idop.NewDeactivate(alice, did.URL{DID: alice, Fragment: did.PrimaryKey}, seededKey(t, "alice"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fk.c.SubmitRequest(ctx, req); err != nil {
		t.Fatal(err)
	}
	asked := calls.count("did_resolveDID")
	if err := devnet.Reset(ctx, fk.c); err != nil {
		t.Fatal(err)
	}
	if got := fk.resolve(t, alice); got != want {
		t.Errorf("alice after a reset:\n got %s\nwant %s", got, want)
	}
	if n := calls.count("did_resolveDID") - asked; n != 0 {
		t.Errorf("the reset fork asked the upstream %d times", n)
	}

	// A DID taken after a snapshot is undone by the revert, and grafted again.
	snap, err := devnet.Snapshot(fk.c)
	if err != nil {
		t.Fatal(err)
	}
	bob := didOf(t, up.Manifest, "bob")
	wantBob := fk.resolve(t, bob)
	asked = calls.count("did_resolveDID")
	if err := devnet.Revert(ctx, fk.c, snap); err != nil {
		t.Fatal(err)
	}
	if got := fk.resolve(t, bob); got != wantBob {
		t.Errorf("bob after a revert:\n got %s\nwant %s", got, wantBob)
	}
	if n := calls.count("did_resolveDID") - asked; n != 0 {
		t.Errorf("the reverted fork asked the upstream %d times", n)
	}
}
