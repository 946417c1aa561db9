package scenario

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
)

// CustomizedDID is the customized DID the scenario tries to create; a
// private chain refuses it (docs/eid-testing.md says why).
const CustomizedDID = "did:elastos:didlighttest"

const (
	accepted = "accepted"
	refused  = "refused"
)

// actors of the scenario.
type cast struct {
	alice, bob, carol, dave, erin, frank, grace *actor
}

func newCast() *cast {
	c := &cast{newActor("alice"), newActor("bob"), newActor("carol"), newActor("dave"), newActor("erin"), newActor("frank"), newActor("grace")}
	c.dave.second = seededKey("dave key2")
	for _, a := range c.all() {
		a.init()
	}
	return c
}

func (c *cast) all() []*actor {
	return []*actor{c.alice, c.bob, c.carol, c.dave, c.erin, c.frank, c.grace}
}

// alternate returns the route of the i-th of a series of steps.
func alternate(i int) string {
	if i%2 == 0 {
		return ViaContract
	}
	return ViaPrecompile
}

// now returns the head block's time: documents are signed and dated by
// chain time, never the wall clock.
func (r *runner) now(ctx context.Context) (time.Time, error) {
	_, t, err := r.head(ctx)
	return t, err
}

// publish sends a document operation of a (create or update) and, when the
// node accepts it, makes doc a's latest document.
func (r *runner) publish(ctx context.Context, a *actor, name, intent, route, operation string, doc *did.Document, expect string) error {
	var op []byte
	var err error
	if operation == idop.Create {
		op, err = a.create(doc)
	} else {
		op, err = a.update(doc)
	}
	if err != nil {
		return fmt.Errorf("step %s: %w", name, err)
	}
	ok, hash, err := r.step(ctx, spec{name: name, intent: intent, route: route, subject: a.did.String(), operation: operation, expect: expect, op: op})
	if ok {
		a.doc, a.last = doc, strings.TrimPrefix(hash, "0x")
	}
	return err
}

// version publishes a's document at version v, expiring at expires.
func (r *runner) version(ctx context.Context, a *actor, name, intent, route, operation string, v int, expires time.Time, expect string) error {
	now, err := r.now(ctx)
	if err != nil {
		return err
	}
	doc, err := a.document(now, expires, v)
	if err != nil {
		return err
	}
	return r.publish(ctx, a, name, intent, route, operation, doc, expect)
}

func (r *runner) run(ctx context.Context) error {
	if err := r.deploy(ctx); err != nil {
		return err
	}
	c := newCast()
	for _, a := range c.all() {
		r.m.DIDs = append(r.m.DIDs, Subject{Name: a.name, DID: a.did.String()})
	}
	r.m.DIDs = append(r.m.DIDs, Subject{Name: "customized", DID: CustomizedDID})
	t0, err := r.now(ctx)
	if err != nil {
		return err
	}
	far := t0.AddDate(5, 0, 0)
	for _, phase := range []func(context.Context, *cast, time.Time) error{r.creates, r.updates, r.credentials, r.refusals, r.expiring, r.endings} {
		if err := phase(ctx, c, far); err != nil {
			return err
		}
	}
	return nil
}

// creates: five DIDs, through the contract and the precompile.
func (r *runner) creates(ctx context.Context, c *cast, far time.Time) error {
	for i, a := range []*actor{c.alice, c.bob, c.carol, c.dave, c.erin} {
		intent := "create a standard DID"
		if a.second != nil {
			intent = "create a DID with a second authentication key #key2"
		}
		if err := r.version(ctx, a, "create-"+a.name, intent, alternate(i), idop.Create, 0, far, accepted); err != nil {
			return err
		}
	}
	return r.checkpoint(ctx, Created)
}

// updates: histories of 5 (alice) and 20 (carol) operations, and an update
// signed by an authentication key that is not the default key.
func (r *runner) updates(ctx context.Context, c *cast, far time.Time) error {
	for v := 1; v <= 4; v++ {
		if err := r.version(ctx, c.alice, fmt.Sprintf("update-alice-%d", v), "update by the default key", alternate(v), idop.Update, v, far, accepted); err != nil {
			return err
		}
	}
	for v := 1; v <= 19; v++ {
		if err := r.version(ctx, c.carol, fmt.Sprintf("update-carol-%02d", v), "update by the default key, toward a history of 20", alternate(v), idop.Update, v, far, accepted); err != nil {
			return err
		}
	}
	now, err := r.now(ctx)
	if err != nil {
		return err
	}
	doc, err := c.dave.document(now, far, 1)
	if err != nil {
		return err
	}
	op, err := op(idop.NewUpdate(doc, c.dave.last, did.URL{DID: c.dave.did, Fragment: "key2"}, c.dave.second))
	if err != nil {
		return err
	}
	ok, hash, err := r.step(ctx, spec{name: "update-dave-by-key2", intent: "update signed by #key2, an authentication key that is not the default key",
		route: ViaContract, subject: c.dave.did.String(), operation: idop.Update, expect: accepted, op: op})
	if ok {
		c.dave.doc, c.dave.last = doc, strings.TrimPrefix(hash, "0x")
	}
	return err
}

// credentials: declared self-issued and issued by another DID; several of
// one DID for listCredentials' paging.
func (r *runner) credentials(ctx context.Context, c *cast, _ time.Time) error {
	now, err := r.now(ctx)
	if err != nil {
		return err
	}
	type decl struct {
		owner, issuer *actor
		fragment, typ string
		claims        string
	}
	list := []decl{
		{c.alice, c.alice, "profile", "ProfileCredential", `{"name":"Alice"}`},
		{c.bob, c.carol, "diploma", "DiplomaCredential", `{"degree":"MSc"}`},
	}
	for i := 1; i <= 5; i++ {
		list = append(list, decl{c.dave, c.dave, fmt.Sprintf("c%d", i), "NoteCredential", fmt.Sprintf(`{"note":%d}`, i)})
	}
	for i, d := range list {
		cred, err := credential(d.owner, d.fragment, d.typ, d.issuer, d.claims, now)
		if err != nil {
			return err
		}
		r.m.Credentials = append(r.m.Credentials, Credential{ID: cred.ID.String(), Issuer: d.issuer.did.String()})
		op, err := op(idop.NewDeclare(cred, d.owner.primary, d.owner.key))
		if err != nil {
			return err
		}
		intent := "declare a self-issued credential"
		if d.issuer != d.owner {
			intent = "declare a credential issued by " + d.issuer.name
		}
		if _, _, err := r.step(ctx, spec{name: "declare-" + d.owner.name + "-" + d.fragment, intent: intent, route: alternate(i),
			subject: cred.ID.String(), operation: idop.Declare, expect: accepted, op: op}); err != nil {
			return err
		}
	}
	return nil
}

// refusals the node must make while every DID is live.
func (r *runner) refusals(ctx context.Context, c *cast, far time.Time) error {
	now, err := r.now(ctx)
	if err != nil {
		return err
	}
	type refusal struct {
		name, intent, route, subject, operation string
		op                                      []byte
	}
	var list []refusal
	add := func(name, intent, route string, a *actor, operation string, req idop.Request, err error) error {
		if err != nil {
			return fmt.Errorf("step %s: %w", name, err)
		}
		list = append(list, refusal{name, intent, route, a.did.String(), operation, req.AppendJSON(nil)})
		return nil
	}
	aliceNext, err := c.alice.document(now, far, 5)
	if err != nil {
		return err
	}
	bobNext, err := c.bob.document(now, far, 1)
	if err != nil {
		return err
	}
	wrongPrev, err := idop.NewUpdate(aliceNext, strings.TrimPrefix(r.m.ContractTx, "0x"), c.alice.primary, c.alice.key)
	if err := add("update-alice-wrong-previous-txid", "update whose previousTxid is another transaction", ViaContract, c.alice, idop.Update, wrongPrev, err); err != nil {
		return err
	}
	wrongKey, err := idop.NewUpdate(bobNext, c.bob.last, c.bob.primary, c.bob.key)
	if err == nil {
		wrongKey.Proof.Signature = c.carol.key.Sign(wrongKey.Digest()).Text() // carol's key, bob's verificationMethod
	}
	if err := add("update-bob-wrong-key", "update signed by another DID's key under the DID's own #primary", ViaPrecompile, c.bob, idop.Update, wrongKey, err); err != nil {
		return err
	}
	flipped, err := idop.NewUpdate(aliceNext, c.alice.last, c.alice.primary, c.alice.key)
	if err == nil {
		flipped.Proof.Signature, err = flipByte(flipped.Proof.Signature)
	}
	if err := add("update-alice-flipped-signature", "update whose signature has one byte flipped", ViaContract, c.alice, idop.Update, flipped, err); err != nil {
		return err
	}
	dup, err := idop.ParseRequest([]byte(r.sentOf("create-bob")))
	if err := add("create-bob-again", "a second create of an existing DID (the same request again)", ViaPrecompile, c.bob, idop.Create, dup, err); err != nil {
		return err
	}
	for _, x := range list {
		if _, _, err := r.step(ctx, spec{name: x.name, intent: x.intent, route: x.route, subject: x.subject, operation: x.operation, expect: refused, op: x.op}); err != nil {
			return err
		}
	}
	malformed := []byte(`{"header":{"specification":"elastos/did/1.0","operation":"create"},"payload":"eyJ`)
	for _, route := range []string{ViaPrecompile, ViaContract} {
		if _, _, err := r.step(ctx, spec{name: "malformed-json-" + route, intent: "operation JSON cut short", route: route,
			expect: refused, op: malformed}); err != nil {
			return err
		}
	}
	return r.customized(ctx, c, now, far)
}

// customized tries a customized DID controlled by alice, then its transfer
// to bob: the ELA main chain has reserved no names for a private chain.
func (r *runner) customized(ctx context.Context, c *cast, now, far time.Time) error {
	doc, err := customizedDocument(c.alice.did, now, far, c.alice.key, c.alice.primary)
	if err != nil {
		return err
	}
	create, err := op(idop.NewCreate(doc, c.alice.primary, c.alice.key))
	if err != nil {
		return err
	}
	_, hash, err := r.step(ctx, spec{name: "create-customized", intent: "create a customized DID controlled by alice", route: ViaContract,
		subject: CustomizedDID, operation: idop.Create, expect: refused, op: create, gas: customizedGas})
	if err != nil {
		return err
	}
	doc2, err := customizedDocument(c.bob.did, now, far, c.bob.key, c.bob.primary)
	if err != nil {
		return err
	}
	ticket := did.NewTransferTicket(doc.Subject(), c.bob.did, strings.TrimPrefix(hash, "0x")).Sign(c.alice.key, c.alice.primary, now)
	transfer, err := op(idop.NewTransfer(doc2, ticket, c.bob.primary, c.bob.key))
	if err != nil {
		return err
	}
	_, _, err = r.step(ctx, spec{name: "transfer-customized", intent: "transfer the customized DID to bob, ticket signed by alice", route: ViaPrecompile,
		subject: CustomizedDID, operation: idop.Transfer, expect: refused, op: transfer, gas: customizedGas})
	return err
}

// customizedDocument returns CustomizedDID's document controlled by
// controller alone, signed by its key.
func customizedDocument(controller did.DID, now, expires time.Time, key *keys.PrivateKey, method did.URL) (*did.Document, error) {
	doc, err := did.ParseDocument([]byte(`{"id":"` + CustomizedDID + `","controller":"` + controller.String() + `","expires":"` + did.FormatTime(expires) + `"}`))
	if err != nil {
		return nil, err
	}
	return doc.Sign(key, method, now)
}

// expiring creates frank and grace with documents that expire in 30
// seconds of chain time, then records the Active checkpoint.
func (r *runner) expiring(ctx context.Context, c *cast, _ time.Time) error {
	now, err := r.now(ctx)
	if err != nil {
		return err
	}
	soon := now.Add(30 * time.Second)
	for i, a := range []*actor{c.frank, c.grace} {
		if err := r.version(ctx, a, "create-"+a.name, "create a DID whose document expires 30 s of chain time later", alternate(i), idop.Create, 0, soon, accepted); err != nil {
			return err
		}
	}
	return r.checkpoint(ctx, Active)
}

// endings: deactivation, revocations, two operations in one block, and
// what the node does with expired documents.
func (r *runner) endings(ctx context.Context, c *cast, far time.Time) error {
	deactivate, err := op(idop.NewDeactivate(c.erin.did, c.erin.primary, c.erin.key))
	if err != nil {
		return err
	}
	if _, _, err := r.step(ctx, spec{name: "deactivate-erin", intent: "deactivate, signed by the DID's own key", route: ViaContract,
		subject: c.erin.did.String(), operation: idop.Deactivate, expect: accepted, op: deactivate}); err != nil {
		return err
	}
	if err := r.version(ctx, c.erin, "update-erin-after-deactivate", "update of a deactivated DID", ViaPrecompile, idop.Update, 1, far, refused); err != nil {
		return err
	}
	if err := r.revocations(ctx, c); err != nil {
		return err
	}
	if err := r.sameBlock(ctx, c.dave, far); err != nil {
		return err
	}
	// Wait until the chain's time passes frank's and grace's expiry.
	expiry := c.frank.doc.Expires()
	if err := r.waitFor(ctx, func(_ uint64, t time.Time) bool { return t.After(expiry) }); err != nil {
		return err
	}
	if err := r.version(ctx, c.frank, "update-frank-expired", "update of an expired DID, its expires unchanged", ViaContract, idop.Update, 1, expiry, refused); err != nil {
		return err
	}
	if err := r.version(ctx, c.grace, "update-grace-renewed", "update of an expired DID with a new expires: EID checks only the new document's", ViaPrecompile, idop.Update, 1, far, accepted); err != nil {
		return err
	}
	return r.checkpoint(ctx, Final)
}

// revocations: by the owner, by the issuer, and a declare after a revoke.
func (r *runner) revocations(ctx context.Context, c *cast) error {
	profile := did.URL{DID: c.alice.did, Fragment: "profile"}
	diploma := did.URL{DID: c.bob.did, Fragment: "diploma"}
	byOwner, err := op(idop.NewRevoke(profile, c.alice.primary, c.alice.key))
	if err != nil {
		return err
	}
	byIssuer, err := op(idop.NewRevoke(diploma, c.carol.primary, c.carol.key))
	if err != nil {
		return err
	}
	for _, s := range []spec{
		{name: "revoke-alice-profile-by-owner", intent: "revoke a credential, signed by its owner", route: ViaPrecompile, subject: profile.String(), operation: idop.Revoke, expect: accepted, op: byOwner},
		{name: "declare-alice-profile-again", intent: "declare a revoked credential again", route: ViaContract, subject: profile.String(), operation: idop.Declare, expect: refused, op: []byte(r.sentOf("declare-alice-profile"))},
		{name: "revoke-bob-diploma-by-issuer", intent: "revoke a credential, signed by its issuer (carol)", route: ViaContract, subject: diploma.String(), operation: idop.Revoke, expect: accepted, op: byIssuer},
	} {
		if _, _, err := r.step(ctx, s); err != nil {
			return err
		}
	}
	return nil
}

// sameBlock sends two updates of a, the second after the first, while the
// node seals nothing, so that both land in one block: EID takes one
// operation per DID and block.
func (r *runner) sameBlock(ctx context.Context, a *actor, far time.Time) error {
	now, err := r.now(ctx)
	if err != nil {
		return err
	}
	first, err := a.document(now, far, 2)
	if err != nil {
		return err
	}
	second, err := a.document(now, far, 3)
	if err != nil {
		return err
	}
	op1, err := a.update(first)
	if err != nil {
		return err
	}
	if err := r.node.Call(ctx, nil, "miner_stop"); err != nil {
		return fmt.Errorf("scenario: miner_stop: %w", err)
	}
	i1, err := r.submit(ctx, spec{name: "update-" + a.name + "-block-first", intent: "the first of two updates of one DID in one block", route: ViaContract,
		subject: a.did.String(), operation: idop.Update, expect: accepted, op: op1})
	if err != nil {
		return err
	}
	op2, err := op(idop.NewUpdate(second, strings.TrimPrefix(r.m.Steps[i1].TxHash, "0x"), a.primary, a.key))
	if err != nil {
		return err
	}
	i2, err := r.submit(ctx, spec{name: "update-" + a.name + "-block-second", intent: "the second of two updates of one DID in one block, after the first", route: ViaPrecompile,
		subject: a.did.String(), operation: idop.Update, expect: refused, op: op2})
	if err != nil {
		return err
	}
	if err := r.node.Call(ctx, nil, "miner_start"); err != nil {
		return fmt.Errorf("scenario: miner_start: %w", err)
	}
	for _, i := range []int{i1, i2} {
		if err := r.settle(ctx, i); err != nil {
			return err
		}
	}
	if s1, s2 := r.m.Steps[i1], r.m.Steps[i2]; s1.Block != s2.Block {
		r.logf("NOTE: the two updates landed in blocks %d and %d", s1.Block, s2.Block)
	}
	if s := r.m.Steps[i1]; s.Accepted {
		a.doc, a.last = first, strings.TrimPrefix(s.TxHash, "0x")
	}
	return nil
}

// sentOf returns what the step called name sent.
func (r *runner) sentOf(name string) string {
	s, _ := r.m.Step(name)
	return s.Sent
}

// flipByte returns the signature with one byte flipped.
func flipByte(text string) (string, error) {
	sig, err := keys.ParseSignatureText(text)
	if err != nil {
		return "", err
	}
	sig[10] ^= 0x01
	return sig.Text(), nil
}
