package did

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/internal/vectors"
	"github.com/didlight/didlight/core/keys"
)

const (
	foobarTicket = "elastos-did-sdk/v2.2/foobar.tt.json"
	bazTicket    = "elastos-did-sdk/v2.2/baz.tt.json"
	user4DID     = "did:elastos:igHbSCez6H3gTuVPzwNZRrdj92GCJ6hD5d"
)

func mustTicket(t testing.TB, b []byte) *TransferTicket {
	t.Helper()
	tt, err := ParseTransferTicket(b)
	if err != nil {
		t.Fatal(err)
	}
	return tt
}

// The SDK's tickets read back byte for byte and carry the consent of the
// current controllers: two of foobar's three (2:3), one of baz's (1:3).
func TestTransferTicketVectors(t *testing.T) {
	if n := len(vectors.Glob("elastos-did-sdk/*/*.tt.json")); n != 2 {
		t.Fatalf("%d ticket vectors, this test knows 2", n)
	}
	docs := lookupFor(t, "v2.2")
	for i, tc := range []struct {
		ticket, doc, txid string
		proofs            int
	}{
		{foobarTicket, foobar, "d13949b552a887793038b0e939fc11f7", 2},
		{bazTicket, "elastos-did-sdk/v2.2/baz.id.json", "c3800b015d2ba505cd1a39caf72bde33", 1},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			raw := bytes.TrimSpace(vectors.Read(tc.ticket))
			tt := mustTicket(t, raw)
			if got := tt.Normalized(); !bytes.Equal(got, raw) {
				t.Errorf("%s normalizes to\n%s\nnot\n%s", tc.ticket, got, raw)
			}
			doc := mustParse(t, vectors.Read(tc.doc))
			if tt.Subject != doc.Subject() || tt.To.String() != user4DID || tt.Txid != tc.txid || len(tt.Proofs) != tc.proofs {
				t.Errorf("%s: %+v", tc.ticket, tt)
			}
			if err := tt.VerifyProofs(doc, docs, keys.Native{}); err != nil {
				t.Errorf("%s: %v", tc.ticket, err)
			}
		})
	}
}

// Signing gives the SDK's ticket but for the signatures (the SDK's are not
// deterministic), and the signatures verify.
func TestTransferTicketSign(t *testing.T) {
	want := mustTicket(t, vectors.Read(foobarTicket))
	tt := NewTransferTicket(want.Subject, want.To, want.Txid)
	created := want.Proofs[0].Created
	for _, name := range []string{"user1", "user3"} {
		priv := mustKey(t, name)
		tt = tt.Sign(priv, URL{DID: FromKey(priv.Public()), Fragment: PrimaryKey}, created.Add(time.Second/2))
	}
	if err := tt.VerifyProofs(mustParse(t, vectors.Read(foobar)), lookupFor(t, "v2.2"), keys.Native{}); err != nil {
		t.Errorf("signed ticket: %v", err)
	}
	for i := range tt.Proofs {
		tt.Proofs[i].Signature = want.Proofs[i].Signature
	}
	if got, raw := tt.Normalized(), bytes.TrimSpace(vectors.Read(foobarTicket)); !bytes.Equal(got, raw) {
		t.Errorf("signed ticket\n%s\nnot\n%s", got, raw)
	}
	again := tt.Sign(mustKey(t, "user1"), tt.Proofs[0].VerificationMethod, created)
	if len(again.Proofs) != 2 || again.Proofs[0].Signature == tt.Proofs[0].Signature || again.Proofs[1] != tt.Proofs[1] {
		t.Errorf("signing again as user1 must replace its proof only: %+v", again.Proofs)
	}
}

func mustKey(t *testing.T, name string) *keys.PrivateKey {
	t.Helper()
	k, err := keys.ParseExtendedPrivateKey(vectors.String("elastos-did-sdk/v2.2/" + name + ".id.primary.sk"))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestParseTransferTicketErrors(t *testing.T) {
	const proof = `{"verificationMethod":"did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y#primary","signature":"s"}`
	const head = `{"id":"did:elastos:foobar","to":"` + user4DID + `","txid":"ab",`
	for i, tc := range []struct{ in, msg string }{
		{`[]`, "must be a JSON object"},
		{`{"to":"` + user4DID + `","txid":"ab","proof":` + proof + `}`, "transfer ticket id"},
		{`{"id":"foobar","to":"` + user4DID + `","txid":"ab","proof":` + proof + `}`, "transfer ticket id"},
		{`{"id":"did:elastos:foobar","to":"did:x:y","txid":"ab","proof":` + proof + `}`, "to"},
		{`{"id":"did:elastos:foobar","to":"` + user4DID + `","proof":` + proof + `}`, "has no txid"},
		{head + `"proof":null}`, "has no proof"},
		{head + `"proof":[]}`, "has no proof"},
		{head + `"proof":{"signature":"s"}}`, "needs verificationMethod and signature"},
		{head + `"proof":{"verificationMethod":"#primary"}}`, "needs verificationMethod and signature"},
		{head + `"proof":{"verificationMethod":"did:elastos:foobar","signature":"s"}}`, "has no fragment"},
		{head + `"proof":[` + proof + `,` + proof + `]}`, "two proofs by did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y"},
		{head + `"proof":{"created":"yesterday","verificationMethod":"#k","signature":"s"}}`, "proof created"},
		{head + `"proof":7}`, "want array"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if _, err := ParseTransferTicket([]byte(tc.in)); !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("ParseTransferTicket(%s): %v, want ErrMalformed containing %q", tc.in, err, tc.msg)
			}
		})
	}
	// A relative verification method is resolved against the ticket's DID.
	tt := mustTicket(t, []byte(head+`"proof":{"verificationMethod":"#key2","signature":"s"}}`))
	if got := tt.Proofs[0].VerificationMethod.String(); got != "did:elastos:foobar#key2" || tt.Proofs[0].Type != DefaultKeyType {
		t.Errorf("relative method read as %s, type %q", got, tt.Proofs[0].Type)
	}
}

func TestTransferTicketVerifyErrors(t *testing.T) {
	docs := lookupFor(t, "v2.2")
	withoutUser1 := lookupFor(t, "v2.2")
	delete(withoutUser1, "iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y")
	foobarDoc := mustParse(t, vectors.Read(foobar))
	good := mustTicket(t, vectors.Read(foobarTicket))
	user2Primary, _ := ParseURL("did:elastos:idwuEMccSpsTH4ZqrhuHqg6y8XMVQAsY5g#primary", DID{})
	user4Primary, _ := ParseURL(user4DID+"#primary", DID{})
	user1Key2, _ := ParseURL("did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y#key2", DID{})
	changed := func(change func(tt *TransferTicket)) *TransferTicket {
		tt := mustTicket(t, vectors.Read(foobarTicket))
		change(tt)
		return tt
	}
	for _, tc := range []struct {
		name string
		tt   *TransferTicket
		doc  *Document
		docs Lookup
		kind error
		msg  string
	}{
		{"standard DID", good, mustParse(t, vectors.Read(user1)), docs, ErrProof, "is not a customized DID"},
		{"document of another DID", good, mustParse(t, vectors.Read("elastos-did-sdk/v2.2/baz.id.json")), docs, ErrProof, "checked against the document of did:elastos:baz"},
		{"too few proofs", changed(func(tt *TransferTicket) { tt.Proofs = tt.Proofs[:1] }), foobarDoc, docs, ErrProof, "1 proofs, want 2"},
		{"proof type", changed(func(tt *TransferTicket) { tt.Proofs[1].Type = "RSA" }), foobarDoc, docs, ErrProof, `has type "RSA"`},
		{"proof by a non-controller", good.Sign(mustKey(t, "user4"), user4Primary, time.Time{}), foobarDoc, docs, ErrProof, "3 proofs, want 2"},
		{"proof by a key of a non-controller", changed(func(tt *TransferTicket) { tt.Proofs[0].VerificationMethod = user4Primary }), foobarDoc, docs, ErrProof, "is not a controller's key"},
		{"controller's other key", changed(func(tt *TransferTicket) { tt.Proofs[0].VerificationMethod = user1Key2 }), foobarDoc, docs, ErrProof, "is not the default key of controller"},
		{"controller unknown", good, foobarDoc, withoutUser1, ErrNoDocument, "does not exist"},
		{"signature by another controller's key", changed(func(tt *TransferTicket) { tt.Proofs[0].VerificationMethod = user2Primary }), foobarDoc, docs, ErrProof, "signature does not verify"},
		{"tampered to", changed(func(tt *TransferTicket) { tt.To = tt.Proofs[0].VerificationMethod.DID }), foobarDoc, docs, ErrProof, "signature does not verify"},
		{"tampered txid", changed(func(tt *TransferTicket) { tt.Txid = "00" }), foobarDoc, docs, ErrProof, "signature does not verify"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.tt.VerifyProofs(tc.doc, tc.docs, keys.Native{})
			if !errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("%s: %v, want kind %v containing %q", tc.name, err, tc.kind, tc.msg)
			}
		})
	}
}

// Lookups of customized DIDs' credentials ignore the case of the DID part
// only.
func TestURLKey(t *testing.T) {
	for i, tc := range []struct{ in, want string }{
		{"did:elastos:FooBar#Email", "did:elastos:foobar#Email"},
		{"did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y#Twitter", "did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y#Twitter"},
		{"did:elastos:Foo/p?q=1#f", "did:elastos:foo/p?q=1#f"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			u, err := ParseURL(tc.in, DID{})
			if err != nil {
				t.Fatal(err)
			}
			if got := u.Key(); got != tc.want {
				t.Errorf("%s.Key() = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
}
