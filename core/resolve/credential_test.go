package resolve

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/internal/vectors"
	"github.com/didlight/didlight/core/keys"
)

// early is a time at which every SDK vector document is valid.
var early = time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC)

const (
	user1DID = "did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y"
	user4DID = "did:elastos:igHbSCez6H3gTuVPzwNZRrdj92GCJ6hD5d"
	issuer   = "did:elastos:imUUPBfrZ1yZx6nWXe6LNN59VeX2E6PPKj"
)

func sdkLookup(t testing.TB) did.Documents {
	t.Helper()
	var docs []*did.Document
	for _, n := range vectors.Glob("elastos-did-sdk/v2.2/*.id.json") {
		doc, err := did.ParseDocument(vectors.Read(n))
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, doc)
	}
	return did.NewDocuments(docs...)
}

func mustDID(t testing.TB, s string) did.DID {
	t.Helper()
	d, err := did.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// party is someone who signs credential requests: a key and its private key.
type party struct{ method, key string }

var (
	owner     = party{user1DID + "#primary", "user1.id.primary"}
	theIssuer = party{issuer + "#primary", "issuer.id.primary"}
	stranger  = party{user4DID + "#primary", "user4.id.primary"}
	user3     = party{"did:elastos:igXiyCJEUjGJV1DMsMa4EbWunQqVg97GcS#primary", "user3.id.primary"}
	foobarKey = party{"did:elastos:foobar#key2", "foobar.id.key2"}
)

// vcHistory builds the history of one credential: operation i is in block
// 200+i, a day after the one before.
type vcHistory struct {
	t       testing.TB
	vc      *did.Credential
	entries []Entry
}

func historyOf(t testing.TB, name string) *vcHistory {
	t.Helper()
	vc, err := did.ParseCredential(vectors.Read("elastos-did-sdk/v2.2/" + name + ".json"))
	if err != nil {
		t.Fatal(err)
	}
	return &vcHistory{t: t, vc: vc}
}

func (h *vcHistory) declare(by party) *vcHistory {
	return h.add(idop.NewDeclare(h.vc, h.url(by.method), privateKey(h.t, by.key)))
}

func (h *vcHistory) revoke(by party) *vcHistory {
	return h.add(idop.NewRevoke(h.vc.ID, h.url(by.method), privateKey(h.t, by.key)))
}

func (h *vcHistory) url(s string) did.URL {
	u, err := did.ParseURL(s, did.DID{})
	if err != nil {
		h.t.Fatal(err)
	}
	return u
}

func (h *vcHistory) add(r idop.Request, err error) *vcHistory {
	if err != nil {
		h.t.Fatal(err)
	}
	i := len(h.entries)
	h.entries = append(h.entries, entry(h.t, r, txid(20+i), uint32(200+i), 0, early.AddDate(0, 0, i)))
	return h
}

func TestCredentialResult(t *testing.T) {
	docs := sdkLookup(t)
	twitter := func() *vcHistory { return historyOf(t, "user1.vc.twitter") }
	license := func() *vcHistory { return historyOf(t, "foobar.vc.license") }
	for _, tc := range []struct {
		name   string
		h      *vcHistory
		issuer string
		status CredentialStatus
		txs    []int // indices into the history, in the order shown
	}{
		{"never seen", twitter(), "", CredentialNotFound, nil},
		{"declared", twitter().declare(owner), "", CredentialValid, []int{0}},
		{"revoked by the owner", twitter().declare(owner).revoke(owner), "", CredentialRevoked, []int{1, 0}},
		{"revoked by the issuer", twitter().declare(owner).revoke(theIssuer), "", CredentialRevoked, []int{1, 0}},
		{"declared issuer wins over the one asked for", twitter().revoke(stranger).declare(owner), user4DID, CredentialValid, []int{1}},
		{"a stranger's revoke before the declare", twitter().revoke(stranger).declare(owner), "", CredentialValid, []int{1}},
		{"undeclared, revoked by the owner", twitter().revoke(owner), "", CredentialRevoked, []int{0}},
		{"undeclared, revoked by the issuer, none asked for", twitter().revoke(theIssuer), "", CredentialNotFound, nil},
		{"undeclared, revoked by the issuer asked for", twitter().revoke(theIssuer), issuer, CredentialRevoked, []int{0}},
		{"undeclared, revoked by a stranger", twitter().revoke(stranger), issuer, CredentialNotFound, nil},
		{"undeclared, the newest revoke that counts", twitter().revoke(theIssuer).revoke(stranger).revoke(owner), issuer, CredentialRevoked, []int{2}},
		{"customized owner, revoked by its controller", license().declare(foobarKey).revoke(user3), "", CredentialRevoked, []int{1, 0}},
		{"customized issuer, revoked by its controller", license().declare(foobarKey).revoke(theIssuer), "", CredentialRevoked, []int{1, 0}},
	} {
		var asked did.DID
		if tc.issuer != "" {
			asked = mustDID(t, tc.issuer)
		}
		shuffled := slices.Clone(tc.h.entries)
		slices.Reverse(shuffled)
		b, err := CredentialResult(tc.h.vc.ID, shuffled, asked, docs)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var got struct {
			ID          string
			Status      *int
			Transaction []struct{ Txid string }
		}
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		var txids []string
		for _, tx := range got.Transaction {
			txids = append(txids, tx.Txid)
		}
		var want []string
		for _, i := range tc.txs {
			want = append(want, tc.h.entries[i].Txid)
		}
		if got.ID != tc.h.vc.ID.String() || got.Status == nil || *got.Status != int(tc.status) || !slices.Equal(txids, want) {
			t.Errorf("%s: %s; want status %d, transactions %v", tc.name, b, tc.status, want)
		}
		if tc.status == CredentialNotFound && strings.Contains(string(b), "transaction") {
			t.Errorf("%s: not found with a transaction member: %s", tc.name, b)
		}
	}
}

// The result's form, member by member, as the SDKs parse it.
func TestCredentialResultForm(t *testing.T) {
	h := historyOf(t, "user1.vc.twitter").declare(owner)
	b, err := CredentialResult(h.vc.ID, h.entries, did.DID{}, sdkLookup(t))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"` + user1DID + `#twitter","status":0,"transaction":[{"txid":"` + h.entries[0].Txid +
		`","timestamp":"2022-01-01T00:00:00Z","operation":` + string(h.entries[0].Request.AppendJSON(nil)) + `}]}`
	if string(b) != want {
		t.Errorf("result\n got %s\nwant %s", b, want)
	}
	if b, _ := CredentialResult(h.vc.ID, nil, did.DID{}, nil); string(b) != `{"id":"`+user1DID+`#twitter","status":3}` {
		t.Errorf("not found: %s", b)
	}
}

func TestCredentialResultOfBrokenHistory(t *testing.T) {
	docs := sdkLookup(t)
	h := historyOf(t, "user1.vc.twitter").declare(owner)
	other := historyOf(t, "user1.vc.passport").declare(owner)
	twice := historyOf(t, "user1.vc.twitter").declare(owner).declare(owner)
	chain := newChain(t, 0, false)
	broken := slices.Clone(h.entries)
	broken[0].Request.Payload = "!"
	license := historyOf(t, "foobar.vc.license").revoke(owner)
	for _, tc := range []struct {
		name string
		h    *vcHistory
		e    []Entry
		docs did.Lookup
		msg  string
	}{
		{"another credential", h, append(slices.Clone(h.entries), other.entries...), docs, "in the history of credential"},
		{"a DID operation", h, append(slices.Clone(h.entries), chain.entries...), docs, "is a create of"},
		{"declared twice", twice, twice.entries, docs, "is declared twice"},
		{"undecodable", h, broken, docs, "payload is not base64"},
		{"lookup fails", license, license.entries, failingLookup{}, "disk on fire"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := CredentialResult(tc.h.vc.ID, tc.e, did.DID{}, tc.docs); err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.msg)
			}
		})
	}
}

type failingLookup struct{}

func (failingLookup) Document(did.DID) (*did.Document, error) { return nil, errors.New("disk on fire") }

// Paging as the SDK's own pagination test pages 36 credentials, and as the
// chain clamps limits.
func TestCredentialPage(t *testing.T) {
	for i, tc := range []struct {
		n, skip, limit, start, end int
	}{
		{36, 0, 0, 0, 36},
		{36, 0, 16, 0, 16},
		{36, 32, 16, 32, 36},
		{36, 36, 100, 36, 36},
		{36, 50, 10, 36, 36},
		{36, 0, 560, 0, 36},
		{300, 0, 0, 0, CredentialListDefault},
		{300, 10, 1000, 10, 10 + CredentialListMax},
		{0, 0, 0, 0, 0},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			start, end, err := CredentialPage(tc.n, tc.skip, tc.limit)
			if err != nil || start != tc.start || end != tc.end {
				t.Errorf("CredentialPage(%d, %d, %d) = %d, %d, %v; want %d, %d", tc.n, tc.skip, tc.limit, start, end, err, tc.start, tc.end)
			}
		})
	}
	for i, tc := range []struct{ skip, limit int }{{-1, 0}, {0, -1}} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if _, _, err := CredentialPage(10, tc.skip, tc.limit); err == nil || !strings.Contains(err.Error(), "is negative") {
				t.Errorf("CredentialPage(10, %d, %d): %v, want an error", tc.skip, tc.limit, err)
			}
		})
	}
}

func TestCredentialList(t *testing.T) {
	d := mustDID(t, user1DID)
	a, _ := did.ParseURL("#b", d)
	b, _ := did.ParseURL("#a", d)
	if got := string(CredentialList(d, []did.URL{a, b})); got != `{"did":"`+user1DID+`","credentials":["`+user1DID+`#b","`+user1DID+`#a"]}` {
		t.Errorf("list: %s", got)
	}
	if got := string(CredentialList(d, nil)); got != `{"did":"`+user1DID+`","credentials":[]}` {
		t.Errorf("empty list: %s", got)
	}
}

func TestVerifyCredentialAcceptsWhatResultBuilds(t *testing.T) {
	docs := sdkLookup(t)
	for _, tc := range []struct {
		name    string
		h       *vcHistory
		issuer  string
		status  CredentialStatus
		revoker string
	}{
		{"declared", historyOf(t, "user1.vc.twitter").declare(owner), "", CredentialValid, ""},
		{"revoked after the declare", historyOf(t, "user1.vc.twitter").declare(owner).revoke(theIssuer), "", CredentialRevoked, issuer},
		{"revoked, never declared", historyOf(t, "user1.vc.twitter").revoke(theIssuer), issuer, CredentialRevoked, issuer},
		{"customized owner", historyOf(t, "foobar.vc.license").declare(foobarKey).revoke(user3), "", CredentialRevoked, "did:elastos:igXiyCJEUjGJV1DMsMa4EbWunQqVg97GcS"},
		{"not found", historyOf(t, "user1.vc.twitter").revoke(stranger), "", CredentialNotFound, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var asked did.DID
			if tc.issuer != "" {
				asked = mustDID(t, tc.issuer)
			}
			b, err := CredentialResult(tc.h.vc.ID, tc.h.entries, asked, docs)
			if err != nil {
				t.Fatal(err)
			}
			v, err := VerifyCredential(b, asked, docs, keys.Native{})
			if err != nil {
				t.Errorf("%s: %v\n%s", tc.name, err, b)
				return
			}
			declared := tc.h.entries[0].Request.Header.Operation == idop.Declare && tc.status != CredentialNotFound
			if v.ID != tc.h.vc.ID || v.Status != tc.status || (v.Credential != nil) != declared || v.RevokedBy.String() != tc.revoker {
				t.Errorf("%s: %+v", tc.name, v)
			}
		})
	}
	h := historyOf(t, "user1.vc.twitter").declare(owner)
	b, _ := CredentialResult(h.vc.ID, h.entries, did.DID{}, docs)
	if v, err := VerifyCredential([]byte(`{"jsonrpc":"2.0","id":"x","result":`+string(b)+`}`), did.DID{}, docs, keys.Native{}); err != nil || v.Txid != h.entries[0].Txid {
		t.Errorf("JSON-RPC response: %+v, %v", v, err)
	}
}

func TestVerifyCredentialFindsWhatIsWrong(t *testing.T) {
	docs := sdkLookup(t)
	result := func(h *vcHistory, asked did.DID) string {
		b, err := CredentialResult(h.vc.ID, h.entries, asked, docs)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	declared := result(historyOf(t, "user1.vc.twitter").declare(owner), did.DID{})
	revoked := result(historyOf(t, "user1.vc.twitter").declare(owner).revoke(owner), did.DID{})
	byIssuer := result(historyOf(t, "user1.vc.twitter").revoke(theIssuer), mustDID(t, issuer))
	stranger := historyOf(t, "user1.vc.twitter").revoke(stranger)
	strangerRevoke := `{"id":"` + user1DID + `#twitter","status":2,"transaction":[` + transactionJSON(stranger.entries[0]) + `]}`
	redeclared := historyOf(t, "user1.vc.twitter").declare(owner).revoke(owner).declare(owner)
	afterRevoke := `{"id":"` + user1DID + `#twitter","status":0,"transaction":[` + transactionJSON(redeclared.entries[2]) + `,` +
		transactionJSON(redeclared.entries[1]) + `]}`
	passport := result(historyOf(t, "user1.vc.passport").declare(owner), did.DID{})
	declareSig := historyOf(t, "user1.vc.twitter").declare(owner).entries[0].Request.Proof.Signature
	otherSig := privateKey(t, "user1.id.primary").Sign(sha256.Sum256([]byte("other"))).Text()
	for _, tc := range []struct {
		name   string
		b      string
		issuer string
		index  int
		rule   idop.Rule
		msg    string
	}{
		{"claims revoked", strings.Replace(declared, `"status":0`, `"status":2`, 1), "", -1, RuleStatus, "not a revoke"},
		{"claims valid", strings.Replace(revoked, `"status":2`, `"status":0`, 1), "", -1, RuleStatus, "not the declare"},
		{"claims not found", strings.Replace(declared, `"status":0`, `"status":3`, 1), "", -1, idop.RuleMalformed, "with transactions"},
		{"status 1", strings.Replace(declared, `"status":0`, `"status":1`, 1), "", -1, idop.RuleMalformed, "is not one of 0, 2, 3"},
		{"no transactions", `{"id":"` + user1DID + `#twitter","status":0}`, "", -1, idop.RuleMalformed, "without transactions"},
		{"issuer's revoke without the issuer", byIssuer, "", -1, RuleStatus, "give 3 (not found)"},
		{"a stranger's revoke", strangerRevoke, "", -1, RuleStatus, "give 3 (not found)"},
		{"declare after a revoke that counts", afterRevoke, "", 0, idop.RuleRevoked, "was revoked by"},
		{"another credential's transaction", strings.Replace(passport, "#passport", "#twitter", 1), "", 0, idop.RuleDocID, "in the result of"},
		{"signature of something else", strings.Replace(declared, declareSig, otherSig, 1), "", 0, idop.RuleSignature, "does not verify"},
		{"tampered signature", strings.Replace(declared, `"signature":"`, `"signature":"A`, 1), "", 0, idop.RuleSignature, "want 64"},
		{"id not a credential id", strings.Replace(declared, `"id":"`+user1DID+`#twitter"`, `"id":"`+user1DID+`"`, 1), "", -1, idop.RuleMalformed, "not a credential id"},
		{"missing id", `{"status":3}`, "", -1, idop.RuleMalformed, "needs id and status"},
		{"too many transactions", strings.Replace(revoked, `]}`, `,`+transactionJSON(stranger.entries[0])+`]}`, 1), "", -1, idop.RuleMalformed, "with 3 transactions"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var asked did.DID
			if tc.issuer != "" {
				asked = mustDID(t, tc.issuer)
			}
			_, err := VerifyCredential([]byte(tc.b), asked, docs, keys.Native{})
			var ve *VerifyError
			if !errors.As(err, &ve) || ve.Rule != tc.rule || ve.Index != tc.index || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("%s: %v; want transaction %d, rule %s, containing %q", tc.name, err, tc.index, tc.rule, tc.msg)
			}
		})
	}
}

func transactionJSON(e Entry) string { return string(appendTransaction(nil, e)) }

func FuzzVerifyCredential(f *testing.F) {
	docs := sdkLookup(f)
	for _, h := range []*vcHistory{
		historyOf(f, "user1.vc.twitter").declare(owner).revoke(owner),
		historyOf(f, "foobar.vc.license").declare(foobarKey),
	} {
		b, err := CredentialResult(h.vc.ID, h.entries, did.DID{}, docs)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := VerifyCredential(b, did.DID{}, docs, keys.Native{})
		var ve *VerifyError
		switch {
		case err != nil && !errors.As(err, &ve):
			t.Fatalf("error of type %T: %v", err, err)
		case err == nil && v.Status != CredentialNotFound && v.Credential == nil && v.RevokedBy.IsZero():
			t.Fatalf("verified status %v with neither a declare nor a revoker", v.Status)
		}
	})
}
