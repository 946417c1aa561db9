package resolve

import (
	"errors"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/internal/vectors"
	"github.com/didlight/didlight/core/keys"
)

// foobarTransfer is foobar's history as the SDK vectors tell it: created
// by its controllers, passed to user4 with the ticket, then renewed by
// user4. The create's txid is the one the ticket names.
func foobarTransfer(t testing.TB, ticketTxid string) []Entry {
	t.Helper()
	read := func(name string) *did.Document {
		doc, err := did.ParseDocument(vectors.Read("elastos-did-sdk/v2.2/" + name))
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}
	ticket, err := did.ParseTransferTicket(vectors.Read("elastos-did-sdk/v2.2/foobar.tt.json"))
	if err != nil {
		t.Fatal(err)
	}
	user1, user4 := privateKey(t, "user1.id.primary"), privateKey(t, "user4.id.primary")
	user1Primary, _ := did.ParseURL(user1DID+"#primary", did.DID{})
	user4Primary, _ := did.ParseURL(user4DID+"#primary", did.DID{})
	next := read("foobar.new-id.json")
	renewed, err := did.ParseDocument([]byte(strings.Replace(string(next.Normalized()), `"expires":"2026`, `"expires":"2027`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if renewed, err = renewed.Sign(user4, user4Primary, early); err != nil {
		t.Fatal(err)
	}
	create, err1 := idop.NewCreate(read("foobar.id.json"), user1Primary, user1)
	transfer, err2 := idop.NewTransfer(next, ticket, user4Primary, user4)
	update, err3 := idop.NewUpdate(renewed, txid(1), user4Primary, user4)
	if err := errors.Join(err1, err2, err3); err != nil {
		t.Fatal(err)
	}
	return []Entry{
		entry(t, create, ticketTxid, 300, 0, early),
		entry(t, transfer, txid(1), 301, 0, early.AddDate(0, 0, 1)),
		entry(t, update, txid(2), 302, 0, early.AddDate(0, 0, 2)),
	}
}

func TestVerifyTransfer(t *testing.T) {
	docs := sdkLookup(t)
	h := foobarTransfer(t, "d13949b552a887793038b0e939fc11f7")
	foobar := mustDID(t, "did:elastos:foobar")
	at := early.AddDate(0, 0, 3)
	for _, tc := range []struct {
		name     string
		h        []Entry
		all      bool
		complete bool
	}{
		{"all", h, true, true},
		{"latest, the update", h, false, false},
		{"latest, the transfer", h[:2], false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := Result(foobar, tc.h, tc.all, at.Unix())
			if err != nil {
				t.Fatal(err)
			}
			v, err := Verify(b, docs, keys.Native{}, at)
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
				return
			}
			if v.Status != Valid || v.Complete != tc.complete || len(v.Document.Controllers()) != 1 || v.Document.Controllers()[0].String() != user4DID {
				t.Errorf("%s: %+v", tc.name, v)
			}
		})
	}
	// The ticket must name the transaction before the transfer.
	b, err := Result(foobar, foobarTransfer(t, txid(0)), true, at.Unix())
	if err != nil {
		t.Fatal(err)
	}
	var ve *VerifyError
	if _, err := Verify(b, docs, keys.Native{}, at); !errors.As(err, &ve) || ve.Rule != idop.RuleTicket || ve.Index != 1 {
		t.Errorf("ticket of another transaction: %v, want transaction 1, rule %s", err, idop.RuleTicket)
	}
}
