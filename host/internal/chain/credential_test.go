package chain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/core/resolve"
)

// credential returns a credential about owner of type typ, fragment frag,
// issued and signed by issuer; the credential must then verify, which the
// test checks.
func credential(t *testing.T, f *fixture, owner, issuer *user, frag, typ string) *did.Credential {
	t.Helper()
	c, err := signedCredential(owner, issuer, frag, typ)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.VerifyProof(keys.Native{}, f.lookup()); err != nil {
		t.Fatalf("the test's credential does not verify: %v", err)
	}
	return c
}

// signedCredential builds the credential credential returns.
func signedCredential(owner, issuer *user, frag, typ string) (*did.Credential, error) {
	claims, _ := json.Marshal(map[string]string{"name": frag})
	c, err := did.NewCredential(did.URL{DID: owner.did(), Fragment: frag}, []string{typ}, issuer.did(), claims,
		time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		return nil, err
	}
	return c.Sign(issuer.key, issuer.primary(), time.Time{})
}

// resolvedCredential is a resolvecredential result read back.
type resolvedCredential struct {
	ID          string `json:"id"`
	Status      int    `json:"status"`
	Transaction []struct {
		Txid      string `json:"txid"`
		Operation struct {
			Header struct{ Operation string } `json:"header"`
		} `json:"operation"`
	} `json:"transaction"`
}

func (f *fixture) resolveCredential(id did.URL, issuer *did.DID) resolvedCredential {
	f.t.Helper()
	b, err := f.c.ResolveCredential(context.Background(), id, issuer)
	if err != nil {
		f.t.Fatal(err)
	}
	var r resolvedCredential
	if err := json.Unmarshal(b, &r); err != nil {
		f.t.Fatalf("%v: %s", err, b)
	}
	var by did.DID
	if issuer != nil {
		by = *issuer
	}
	v, err := resolve.VerifyCredential(b, by, f.lookup(), keys.Native{})
	if err != nil || int(v.Status) != r.Status {
		f.t.Fatalf("the result does not verify (%v, status %d): %s", err, r.Status, b)
	}
	return r
}

func (r resolvedCredential) want(t *testing.T, what string, status int, ops ...string) {
	t.Helper()
	var got []string
	for _, tx := range r.Transaction {
		got = append(got, tx.Operation.Header.Operation)
	}
	if r.Status != status || !slices.Equal(got, ops) {
		t.Errorf("%s: status %d %v, want %d %v", what, r.Status, got, status, ops)
	}
}

func (f *fixture) listCredentials(d did.DID, skip, limit int) []string {
	f.t.Helper()
	b, err := f.c.ListCredentials(context.Background(), d, skip, limit)
	if err != nil {
		f.t.Fatal(err)
	}
	var r struct {
		DID         string   `json:"did"`
		Credentials []string `json:"credentials"`
	}
	if err := json.Unmarshal(b, &r); err != nil || r.DID != d.String() || r.Credentials == nil {
		f.t.Fatalf("%s: %v", b, err)
	}
	return r.Credentials
}

// Credentials go through declare and revoke by real signed operations:
// declared (0), revoked (2), not found (3); listed newest first; each rule
// refusing a bad operation with 45009 and its idop rule.
func TestCredentials(t *testing.T) {
	f := newFixture(t, Config{})
	f.split(f.dev(), 3)
	alice, bob, eve := newUser("cred alice"), newUser("cred bob"), newUser("cred eve")
	for _, u := range []*user{alice, bob, eve} {
		u.last = f.submit(f.opTx(f.dev(), u.create(t, u.document(t, GenesisTime.AddDate(3, 0, 0), nil))))
	}
	f.mine()
	byBob := credential(t, f, alice, bob, "license", "DriverLicense")
	own := credential(t, f, alice, alice, "email", "EmailCredential")
	declare := func(c *did.Credential) idop.Request {
		r, err := idop.NewDeclare(c, alice.primary(), alice.key)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	revoke := func(id did.URL, by *user) idop.Request {
		r, err := idop.NewRevoke(id, by.primary(), by.key)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	unknown := did.URL{DID: alice.did(), Fragment: "nothing"}
	f.resolveCredential(unknown, nil).want(t, "unknown", 3)

	f.publish(declare(byBob))
	f.resolveCredential(byBob.ID, nil).want(t, "declared", 0, "declare")
	f.publish(declare(own))
	if got := f.listCredentials(alice.did(), 0, 0); !slices.Equal(got, []string{own.ID.String(), byBob.ID.String()}) {
		t.Errorf("alice's credentials %v, want the newest first", got)
	}
	f.publish(revoke(byBob.ID, bob))
	f.resolveCredential(byBob.ID, nil).want(t, "revoked by its issuer", 2, "revoke", "declare")
	if got := f.listCredentials(alice.did(), 0, 0); len(got) != 2 {
		t.Errorf("a revoked credential leaves the list: %v", got)
	}

	// An id revoked by its owner before any declare cannot be declared.
	early := credential(t, f, alice, alice, "early", "EmailCredential")
	f.publish(revoke(early.ID, alice))
	f.resolveCredential(early.ID, nil).want(t, "revoked before its declare", 2, "revoke")

	// A revoke and another operation on one id may not wait together.
	late := credential(t, f, alice, alice, "late", "EmailCredential")
	f.submit(f.opTx(f.dev(), declare(late)))
	rules := []struct {
		name string
		req  idop.Request
		rule idop.Rule
	}{
		{"declare again", declare(byBob), idop.RuleDeclared},
		{"declare after a revoke", declare(early), idop.RuleRevoked},
		{"revoke by a stranger", revoke(own.ID, eve), idop.RuleSignerKey},
		{"revoke again", revoke(byBob.ID, alice), idop.RuleRevoked},
		{"pending", revoke(late.ID, alice), idop.RulePending},
	}
	for _, r := range rules {
		_, err := f.c.SubmitTx(f.opTx(f.dev(), r.req).Bytes())
		if wantReject(t, r.name, err, ledger.Payload); idop.RuleOf(err) != r.rule {
			t.Errorf("%s: %v, want rule %s", r.name, err, r.rule)
		}
	}
	f.mine()

	// Paging, newest first.
	all := f.listCredentials(alice.did(), 0, 0)
	if len(all) != 3 || all[0] != late.ID.String() {
		t.Fatalf("alice's credentials %v", all)
	}
	for skip := 0; skip <= 4; skip++ {
		if got, want := f.listCredentials(alice.did(), skip, 2), all[min(skip, 3):min(skip+2, 3)]; !slices.Equal(got, want) {
			t.Errorf("skip %d limit 2: %v, want %v", skip, got, want)
		}
	}
	if got := f.listCredentials(bob.did(), 0, 0); len(got) != 0 {
		t.Errorf("bob owns %v", got)
	}
	for _, sl := range [][2]int{{-1, 0}, {0, -1}} {
		if _, err := f.c.ListCredentials(context.Background(), alice.did(), sl[0], sl[1]); !errors.Is(err, ErrQuery) {
			t.Errorf("skip %d limit %d: %v, want ErrQuery", sl[0], sl[1], err)
		}
	}
	checkIndexes(t, f.c)
}

// A customized DID passes to a new owner by a transfer carrying a ticket
// its controller signed; the new owner then updates it, the old controller
// no longer can, and the indexes follow.
func TestTransfer(t *testing.T) {
	f := newFixture(t, Config{})
	f.split(f.dev(), 2)
	old, next := newUser("transfer old"), newUser("transfer new")
	for _, u := range []*user{old, next} {
		u.last = f.submit(f.opTx(f.dev(), u.create(t, u.document(t, GenesisTime.AddDate(3, 0, 0), nil))))
	}
	f.mine()
	created, err := idop.NewCreate(customized(t, "shop", old, GenesisTime.AddDate(2, 0, 0)), old.primary(), old.key)
	if err != nil {
		t.Fatal(err)
	}
	last := f.publish(created)

	shop, _ := did.Parse("did:elastos:shop")
	ticket := did.NewTransferTicket(shop, next.did(), last.String()).Sign(old.key, old.primary(), f.clock.Now())
	doc := customizedWith(t, "shop", next, GenesisTime.AddDate(2, 6, 0), service("shop", "Shop"))
	transfer, err := idop.NewTransfer(doc, ticket, next.primary(), next.key)
	if err != nil {
		t.Fatal(err)
	}
	last = f.publish(transfer)
	r := f.resolveDID(shop, true)
	r.want(t, "transferred", 0, []string{last.String(), r.Transaction[1].Txid}, "transfer", "create")
	if q := f.query(Query{Service: "Shop"}); q.Total != 1 {
		t.Errorf("the transferred document's service is not indexed: %+v", q)
	}

	stale, _ := idop.NewUpdate(customized(t, "shop", old, GenesisTime.AddDate(2, 1, 0)), last.String(), old.primary(), old.key)
	_, err = f.c.SubmitTx(f.opTx(f.dev(), stale).Bytes())
	if wantReject(t, "update by the old controller", err, ledger.Payload); idop.RuleOf(err) != idop.RuleController {
		t.Errorf("update by the old controller: %v", err)
	}
	update, _ := idop.NewUpdate(customizedWith(t, "shop", next, GenesisTime.AddDate(2, 7, 0)), last.String(), next.primary(), next.key)
	f.publish(update)
	if q := f.query(Query{Service: "Shop"}); q.Total != 0 {
		t.Errorf("the service the update dropped is still indexed: %+v", q)
	}
	checkIndexes(t, f.c)
}

// customizedWith is customized with services.
func customizedWith(t *testing.T, name string, ctrl *user, expires time.Time, services ...did.Service) *did.Document {
	t.Helper()
	m := map[string]any{"id": "did:elastos:" + name, "controller": ctrl.did().String(), "expires": did.FormatTime(expires)}
	var svcs []any
	for _, s := range services {
		svcs = append(svcs, map[string]any{"id": fmt.Sprintf("did:elastos:%s#%s", name, s.ID.Fragment), "type": s.Type, "serviceEndpoint": s.Endpoint})
	}
	if svcs != nil {
		m["service"] = svcs
	}
	text, _ := json.Marshal(m)
	doc, err := did.ParseDocument(text)
	if err != nil {
		t.Fatal(err)
	}
	if doc, err = doc.Sign(ctrl.key, ctrl.primary(), GenesisTime); err != nil {
		t.Fatal(err)
	}
	return doc
}
