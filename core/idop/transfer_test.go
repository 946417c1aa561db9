package idop

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/internal/vectors"
	"github.com/didlight/didlight/core/keys"
)

const (
	user2Primary = "did:elastos:idwuEMccSpsTH4ZqrhuHqg6y8XMVQAsY5g#primary"
	user4Primary = "did:elastos:igHbSCez6H3gTuVPzwNZRrdj92GCJ6hD5d#primary"
	user1DID     = "did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y"
	user2DID     = "did:elastos:idwuEMccSpsTH4ZqrhuHqg6y8XMVQAsY5g"
	user4DID     = "did:elastos:igHbSCez6H3gTuVPzwNZRrdj92GCJ6hD5d"
)

// early is a time at which every SDK vector document is valid.
var early = time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC)

// sdkTransfer is one of the SDK's transfers: a customized DID's document,
// the ticket its controllers signed, and the document after the transfer.
type sdkTransfer struct {
	current, next *did.Document
	ticket        *did.TransferTicket
	state         *State // the DID's state when the ticket was made
}

func transferOf(t testing.TB, name string) sdkTransfer {
	t.Helper()
	tt, err := did.ParseTransferTicket(vectors.Read("elastos-did-sdk/v2.2/" + name + ".tt.json"))
	if err != nil {
		t.Fatal(err)
	}
	current := sdkDoc(t, "elastos-did-sdk/v2.2/"+name+".id.json")
	return sdkTransfer{
		current: current,
		next:    sdkDoc(t, "elastos-did-sdk/v2.2/"+name+".new-id.json"),
		ticket:  tt,
		state:   &State{Document: current, Txid: tt.Txid},
	}
}

// request is the transfer to x.next with ticket, signed by user4, the new
// owner, unless method and priv say otherwise.
func (x sdkTransfer) request(t testing.TB, ticket *did.TransferTicket) *Op {
	t.Helper()
	return decoded(t)(NewTransfer(x.next, ticket, url(t, user4Primary), privateKey(t, "user4.id.primary")))
}

// signedTicket returns a ticket for subject to to, signed by the named
// users' default keys.
func signedTicket(t testing.TB, subject, to, txid string, signers ...string) *did.TransferTicket {
	t.Helper()
	s, _ := did.Parse(subject)
	d, _ := did.Parse(to)
	tt := did.NewTransferTicket(s, d, txid)
	for _, name := range signers {
		priv := privateKey(t, name+".id.primary")
		tt = tt.Sign(priv, did.URL{DID: did.FromKey(priv.Public()), Fragment: did.PrimaryKey}, early)
	}
	return tt
}

// expiredUser1 returns docs with user1's document replaced by one that
// expired before early.
func expiredUser1(t testing.TB, docs did.Documents) did.Documents {
	t.Helper()
	priv := privateKey(t, "user1.id.primary")
	doc, err := did.NewDocument(priv.Public(), early.AddDate(0, 0, -1))
	if err != nil {
		t.Fatal(err)
	}
	def, _ := doc.DefaultKey()
	if doc, err = doc.Sign(priv, def.ID, early.AddDate(-1, 0, 0)); err != nil {
		t.Fatal(err)
	}
	out := did.Documents{}
	for k, v := range docs {
		out[k] = v
	}
	out[doc.Subject().Key()] = doc
	return out
}

// The SDK's transfers validate: foobar (2:3, two controllers sign the
// ticket) and baz (1:3) both pass to user4.
func TestTransferAccepts(t *testing.T) {
	docs := sdkDocs(t)
	foobar, baz := transferOf(t, "foobar"), transferOf(t, "baz")
	build := decoded(t)
	upper := *baz.state
	upper.Txid = strings.ToUpper(upper.Txid)
	for _, tc := range []struct {
		name string
		op   *Op
		st   *State
	}{
		{"foobar to user4", foobar.request(t, foobar.ticket), foobar.state},
		{"baz to user4", baz.request(t, baz.ticket), baz.state},
		{"baz, signed by its other new controller", build(NewTransfer(baz.next, baz.ticket, url(t, user1Primary), privateKey(t, "user1.id.primary"))), baz.state},
		{"txid in another case", baz.request(t, baz.ticket), &upper},
		{"txid with the 0x of an EVM hash", baz.request(t, signedTicket(t, "did:elastos:baz", user4DID, "0x"+baz.ticket.Txid, "user1")), baz.state},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := Validate(tc.op, tc.st, docs, keys.Native{}, early); err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
		})
	}
	if err := ValidateDetached(foobar.request(t, foobar.ticket), docs, keys.Native{}, early); err != nil {
		t.Errorf("detached transfer: %v", err)
	}
}

func TestTransferRules(t *testing.T) {
	docs := sdkDocs(t)
	foobar, baz := transferOf(t, "foobar"), transferOf(t, "baz")
	f := newFixture(t)
	build := decoded(t)
	good := foobar.request(t, foobar.ticket)
	late := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	txid := foobar.ticket.Txid

	oneProof := *foobar.ticket
	oneProof.Proofs = oneProof.Proofs[:1]
	swapped := *foobar.ticket
	swapped.Proofs = []did.TicketProof{foobar.ticket.Proofs[0], foobar.ticket.Proofs[1]}
	swapped.Proofs[0].Signature, swapped.Proofs[1].Signature = swapped.Proofs[1].Signature, swapped.Proofs[0].Signature
	tamperedDoc, err := did.ParseDocument([]byte(strings.Replace(string(foobar.next.Normalized()), `"expires":"2026`, `"expires":"2025`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	withoutUser3 := without(docs, user3DID)

	for _, tc := range []struct {
		name string
		op   *Op
		st   *State
		docs did.Lookup
		now  time.Time
		rule Rule
		msg  string
	}{
		{"nothing to transfer", good, nil, docs, early, RuleNotFound, "does not exist"},
		{"deactivated", good, &State{Document: foobar.current, Txid: txid, Deactivated: true}, docs, early, RuleDeactivated, "is deactivated"},
		{"standard DID", build(NewTransfer(f.doc, foobar.ticket, f.key, f.priv)), &State{Document: f.doc, Txid: txid}, nil, blockTime, RuleCustomized, "is a standard DID"},
		{"expired DID", good, foobar.state, docs, late, RuleExpired, "an expired customized DID cannot be transferred"},
		{"ticket of an older transaction", good, &State{Document: foobar.current, Txid: txid1}, docs, early, RuleTicket, "the ticket names transaction d13949b552a887793038b0e939fc11f7"},
		{"ticket of another DID", foobar.request(t, baz.ticket), &State{Document: foobar.current, Txid: baz.ticket.Txid}, docs, early, RuleTicket, "the ticket is for did:elastos:baz"},
		{"new owner not a controller", foobar.request(t, signedTicket(t, "did:elastos:foobar", user2DID, txid, "user1", "user3")), foobar.state, docs, early, RuleTransferTo, "is not a controller of the new document"},
		{"new owner did not sign", baz.request(t, signedTicket(t, "did:elastos:baz", user1DID, baz.ticket.Txid, "user2")), baz.state, docs, early, RuleTransferTo, "is not signed by its new owner"},
		{"too few controllers consent", foobar.request(t, &oneProof), foobar.state, docs, early, RuleTicket, "1 proofs, want 2"},
		{"consent of a non-controller", foobar.request(t, signedTicket(t, "did:elastos:foobar", user4DID, txid, "user1", "user4")), foobar.state, docs, early, RuleTicket, "is not a controller's key"},
		{"ticket signature", foobar.request(t, &swapped), foobar.state, docs, early, RuleTicket, "signature does not verify"},
		{"ticket signer expired", good, foobar.state, expiredUser1(t, docs), early, RuleController, "expired 2021-12-31T00:00:00Z"},
		{"ticket signer deactivated", good, foobar.state, withoutUser3, early, RuleController, user3DID + " does not exist or is deactivated"},
		{"signed by an old controller", build(NewTransfer(foobar.next, foobar.ticket, url(t, user1Primary), privateKey(t, "user1.id.primary"))), foobar.state, docs, early, RuleSignerKey, "not an authentication key"},
		{"new document's proof", foobar.requestOf(t, tamperedDoc), foobar.state, docs, early, RuleDocProof, "signature does not verify"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Validate(tc.op, tc.st, tc.docs, keys.Native{}, tc.now)
			if RuleOf(err) != tc.rule || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("%s: %v, want rule %s containing %q", tc.name, err, tc.rule, tc.msg)
			}
		})
	}
	if err := ValidateDetached(foobar.request(t, baz.ticket), docs, keys.Native{}, early); RuleOf(err) != RuleTicket {
		t.Errorf("detached transfer with another DID's ticket: %v, want rule %s", err, RuleTicket)
	}
}

// requestOf is the transfer of doc with x's ticket, signed by user4.
func (x sdkTransfer) requestOf(t testing.TB, doc *did.Document) *Op {
	t.Helper()
	return decoded(t)(NewTransfer(doc, x.ticket, url(t, user4Primary), privateKey(t, "user4.id.primary")))
}

func TestTransferMalformed(t *testing.T) {
	foobar := transferOf(t, "foobar")
	good, err := NewTransfer(foobar.next, foobar.ticket, url(t, user4Primary), privateKey(t, "user4.id.primary"))
	if err != nil {
		t.Fatal(err)
	}
	for i, tc := range []struct{ ticket, msg string }{
		{"!", "ticket: payload is not base64"},
		{base64.RawURLEncoding.EncodeToString([]byte(`[1]`)), "a transfer ticket must be a JSON object"},
		{base64.RawURLEncoding.EncodeToString([]byte(`{"id":"did:elastos:foobar","to":"` + user4DID + `","proof":{}}`)), "has no txid"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			r := good
			r.Header.Ticket = tc.ticket
			if _, err := Decode(r); RuleOf(err) != RuleMalformed || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("ticket %q: %v, want rule %s containing %q", tc.ticket, err, RuleMalformed, tc.msg)
			}
		})
	}
}

// A customized DID changes hands and the new owner alone governs it: the
// old controllers can neither update nor deactivate it.
func TestTransferLifecycle(t *testing.T) {
	docs := sdkDocs(t)
	foobar := transferOf(t, "foobar")
	build := decoded(t)
	user1, user4 := privateKey(t, "user1.id.primary"), privateKey(t, "user4.id.primary")
	// The create is the transaction the ticket names; the transfer follows.
	create := build(NewCreate(foobar.current, url(t, user1Primary), user1))
	if err := Validate(create, nil, docs, keys.Native{}, early); err != nil {
		t.Fatalf("create: %v", err)
	}
	transfer := foobar.request(t, foobar.ticket)
	if err := Validate(transfer, &State{Document: create.Document, Txid: foobar.ticket.Txid}, docs, keys.Native{}, early); err != nil {
		t.Fatalf("transfer: %v", err)
	}
	st := &State{Document: transfer.Document, Txid: txid1}
	renewed, err := did.ParseDocument([]byte(strings.Replace(string(foobar.next.Normalized()), `"expires":"2026`, `"expires":"2027`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if renewed, err = renewed.Sign(user4, url(t, user4Primary), early); err != nil {
		t.Fatal(err)
	}
	// user4 passes foobar on to user1, alone: the new document has one
	// controller, so one proof on the ticket suffices.
	toUser1 := editDoc(t, foobar.next, func(m map[string]any) { m["controller"] = user1DID; delete(m, "proof") })
	if toUser1, err = toUser1.Sign(user1, url(t, user1Primary), early); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		op   *Op
		rule Rule
	}{
		{"update by the old controllers", build(NewUpdate(foobar.current, st.Txid, url(t, user1Primary), user1)), RuleController},
		{"update signed by an old controller", build(NewUpdate(renewed, st.Txid, url(t, user1Primary), user1)), RuleSignerKey},
		{"deactivate by an old controller", build(NewDeactivate(foobar.next.Subject(), url(t, user1Primary), user1)), RuleSignerKey},
		{"update by the new owner", build(NewUpdate(renewed, st.Txid, url(t, user4Primary), user4)), ""},
		{"deactivate by the new owner", build(NewDeactivate(foobar.next.Subject(), url(t, user4Primary), user4)), ""},
		{"transfer on, by the new owner alone", build(NewTransfer(toUser1, signedTicket(t, "did:elastos:foobar", user1DID, st.Txid, "user4"), url(t, user1Primary), user1)), ""},
		{"transfer on, by an old controller", build(NewTransfer(toUser1, signedTicket(t, "did:elastos:foobar", user1DID, st.Txid, "user1"), url(t, user1Primary), user1)), RuleTicket},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := Validate(tc.op, st, docs, keys.Native{}, early); RuleOf(err) != tc.rule {
				t.Errorf("%s: %v, want rule %q", tc.name, err, tc.rule)
			}
		})
	}
}
