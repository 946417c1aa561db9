package resolve

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/internal/vectors"
	"github.com/didlight/didlight/core/keys"
)

var t0 = time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)

func privateKey(t testing.TB, name string) *keys.PrivateKey {
	t.Helper()
	k, err := keys.ParseExtendedPrivateKey(vectors.String("elastos-did-sdk/v2.2/" + name + ".sk"))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func txid(i int) string {
	sum := sha256.Sum256([]byte{byte(i)})
	return hex.EncodeToString(sum[:])
}

// chain is the history of one standard DID: a create, updates (each
// publishing a document that expires a year after its block), and
// optionally a deactivate. Operation i is in block 100+i at t0 + i days.
type chain struct {
	priv    *keys.PrivateKey
	subject did.DID
	key     did.URL
	entries []Entry // oldest first
}

func newChain(t testing.TB, updates int, deactivate bool) *chain {
	t.Helper()
	return newChainOf(t, "user4.id.primary", updates, deactivate)
}

func newChainOf(t testing.TB, key string, updates int, deactivate bool) *chain {
	t.Helper()
	c := &chain{priv: privateKey(t, key)}
	for i := 0; i <= updates; i++ {
		at := t0.AddDate(0, 0, i)
		doc, err := did.NewDocument(c.priv.Public(), at.AddDate(1, 0, 0),
			did.NewService(did.URL{Fragment: "s"}, "Counter", "https://example.com/"+string(rune('a'+i))))
		if err != nil {
			t.Fatal(err)
		}
		def, _ := doc.DefaultKey()
		c.subject, c.key = doc.Subject(), def.ID
		if doc, err = doc.Sign(c.priv, def.ID, at); err != nil {
			t.Fatal(err)
		}
		var r idop.Request
		if i == 0 {
			r, err = idop.NewCreate(doc, def.ID, c.priv)
		} else {
			r, err = idop.NewUpdate(doc, txid(i-1), def.ID, c.priv)
		}
		if err != nil {
			t.Fatal(err)
		}
		c.add(t, r, at)
	}
	if deactivate {
		r, err := idop.NewDeactivate(c.subject, c.key, c.priv)
		if err != nil {
			t.Fatal(err)
		}
		c.add(t, r, t0.AddDate(0, 0, updates+1))
	}
	return c
}

func (c *chain) add(t testing.TB, r idop.Request, at time.Time) {
	i := len(c.entries)
	c.entries = append(c.entries, entry(t, r, txid(i), uint32(100+i), 1, at))
}

// entry decodes r and returns its history entry.
func entry(t testing.TB, r idop.Request, txid string, height uint32, pos int, at time.Time) Entry {
	t.Helper()
	op, err := idop.Decode(r)
	if err != nil {
		t.Fatal(err)
	}
	return NewEntry(op, txid, height, pos, at.Unix())
}

// decoded is a result read back with encoding/json.
type decoded struct {
	DID         string `json:"did"`
	Status      int    `json:"status"`
	Transaction []struct {
		Txid      string          `json:"txid"`
		Timestamp string          `json:"timestamp"`
		Operation json.RawMessage `json:"operation"`
	} `json:"transaction"`
}

func decode(t *testing.T, b []byte) decoded {
	t.Helper()
	var d decoded
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	return d
}

func TestSorted(t *testing.T) {
	h := []Entry{
		{Txid: "a", Time: 10, Height: 5, Position: 0},
		{Txid: "b", Time: 20, Height: 6, Position: 0},
		{Txid: "c", Time: 20, Height: 6, Position: 3},
		{Txid: "d", Time: 20, Height: 7, Position: 0},
		{Txid: "e", Time: 30, Height: 6, Position: 0},
	}
	var got []string
	for _, e := range Sorted(h) {
		got = append(got, e.Txid)
	}
	if want := []string{"e", "d", "c", "b", "a"}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	if h[0].Txid != "a" {
		t.Error("Sorted changed its input")
	}
}

// NewEntry keeps where the operation is and, for a document, its expires.
func TestNewEntry(t *testing.T) {
	c := newChain(t, 1, true)
	for i, want := range []int64{t0.AddDate(1, 0, 0).Unix(), t0.AddDate(1, 0, 1).Unix(), 0} {
		e := c.entries[i]
		if e.Expires != want || e.Txid != txid(i) || e.Height != uint32(100+i) || e.Position != 1 || e.Time != t0.AddDate(0, 0, i).Unix() {
			t.Errorf("entry %d (%s): %+v, want expires %d", i, e.Request.Header.Operation, e, want)
		}
	}
	declare := historyOf(t, "user1.vc.twitter").declare(owner).entries[0]
	if declare.Expires != 0 {
		t.Errorf("a declare publishes no document, yet its entry expires at %d", declare.Expires)
	}
}

func TestStatusAndResult(t *testing.T) {
	live := newChain(t, 2, false)
	gone := newChain(t, 2, true)
	expiresLast := t0.AddDate(0, 0, 2).AddDate(1, 0, 0).Unix()
	for _, tc := range []struct {
		name   string
		h      []Entry
		all    bool
		tip    int64
		status Status
		txids  []string
	}{
		{"valid, latest", live.entries, false, expiresLast, Valid, []string{txid(2)}},
		{"valid, all", live.entries, true, expiresLast, Valid, []string{txid(2), txid(1), txid(0)}},
		{"expired", live.entries, false, expiresLast + 1, Expired, []string{txid(2)}},
		{"deactivated, latest", gone.entries, false, expiresLast + 1, Deactivated, []string{txid(3), txid(2)}},
		{"deactivated, all", gone.entries, true, t0.Unix(), Deactivated, []string{txid(3), txid(2), txid(1), txid(0)}},
		{"not found", nil, true, t0.Unix(), NotFound, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			shuffled := slices.Clone(tc.h)
			slices.Reverse(shuffled)
			if s, err := StatusOf(shuffled, tc.tip); err != nil || s != tc.status {
				t.Errorf("%s: StatusOf = %v, %v; want %v", tc.name, s, err, tc.status)
			}
			b, err := Result(live.subject, shuffled, tc.all, tc.tip)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			d := decode(t, b)
			var txids []string
			for _, tx := range d.Transaction {
				txids = append(txids, tx.Txid)
			}
			if d.DID != live.subject.String() || d.Status != int(tc.status) || !slices.Equal(txids, tc.txids) {
				t.Errorf("%s: %s", tc.name, b)
			}
			if tc.status == NotFound && string(b) != `{"did":"did:elastos:igHbSCez6H3gTuVPzwNZRrdj92GCJ6hD5d","status":3}` {
				t.Errorf("%s: %s", tc.name, b)
			}
		})
	}
}

func TestResultTransactionForm(t *testing.T) {
	c := newChain(t, 0, false)
	b, err := Result(c.subject, c.entries, false, t0.Unix())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"did":"did:elastos:igHbSCez6H3gTuVPzwNZRrdj92GCJ6hD5d","status":0,"transaction":[{"txid":"` + txid(0) +
		`","timestamp":"2024-06-01T00:00:00Z","operation":` + string(c.entries[0].Request.AppendJSON(nil)) + `}]}`
	if string(b) != want {
		t.Errorf("result\n got %s\nwant %s", b, want)
	}
}

func TestStatusOfBrokenHistory(t *testing.T) {
	c := newChain(t, 0, true)
	if _, err := StatusOf(c.entries[1:], t0.Unix()); err == nil {
		t.Error("a history of only a deactivate has no status")
	}
	// Results are built from what NewEntry derived when the operation was
	// taken in: an entry without it is refused, and a payload is not
	// decoded again.
	broken := slices.Clone(c.entries[:1])
	broken[0].Expires = 0
	if _, err := Result(c.subject, broken, false, t0.Unix()); idop.RuleOf(err) != idop.RuleMalformed {
		t.Errorf("latest document without its derived expires: %v", err)
	}
	undecodable := slices.Clone(c.entries[:1])
	undecodable[0].Request.Payload = "!"
	if s, err := StatusOf(undecodable, t0.Unix()); s != Valid || err != nil {
		t.Errorf("StatusOf decoded the payload: %v, %v", s, err)
	}
}

func TestVerifyAcceptsWhatResultBuilds(t *testing.T) {
	live := newChain(t, 3, false)
	gone := newChain(t, 3, true)
	tip := t0.AddDate(0, 0, 10)
	for _, tc := range []struct {
		name     string
		c        *chain
		all      bool
		status   Status
		complete bool
	}{
		{"all", live, true, Valid, true},
		{"latest only", live, false, Valid, false},
		{"deactivated, all", gone, true, Deactivated, true},
		{"deactivated, latest", gone, false, Deactivated, false},
	} {
		b, err := Result(tc.c.subject, tc.c.entries, tc.all, tip.Unix())
		if err != nil {
			t.Fatal(err)
		}
		v, err := Verify(b, nil, keys.Native{}, tip)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if v.Status != tc.status || v.Complete != tc.complete || v.DID != tc.c.subject || v.Txid != txid(3) || v.Document == nil {
			t.Errorf("%s: %+v", tc.name, v)
		}
		// History holds the result's transactions as entries, newest
		// first, and the documents they publish.
		sorted := Sorted(tc.c.entries)
		if !tc.all {
			sorted = sorted[:len(v.History)]
		}
		for i, e := range v.History {
			want := sorted[i]
			doc := v.Documents[i]
			isDeactivate := e.Request.Header.Operation == "deactivate"
			if e.Txid != want.Txid || e.Time != want.Time || e.Height != 0 || e.Expires != want.Expires || isDeactivate != (doc == nil) ||
				doc != nil && doc.Expires().Unix() != e.Expires || i > 0 && Order(v.History[i-1], e) >= 0 {
				t.Errorf("%s: history entry %d: %+v, document %v", tc.name, i, e, doc)
			}
		}
		if n := len(v.History); n != len(v.Documents) || tc.all && n != len(tc.c.entries) || n == 0 {
			t.Errorf("%s: %d entries, %d documents", tc.name, n, len(v.Documents))
		}
	}
	// A JSON-RPC response holding the result is accepted as well.
	b, _ := Result(live.subject, live.entries, true, tip.Unix())
	if _, err := Verify([]byte(`{"jsonrpc":"2.0","id":1,"result":`+string(b)+`}`), nil, keys.Native{}, tip); err != nil {
		t.Errorf("JSON-RPC response: %v", err)
	}
	// Expiry is judged at the reference time.
	later := t0.AddDate(2, 0, 0)
	b, _ = Result(live.subject, live.entries, false, later.Unix())
	if v, err := Verify(b, nil, keys.Native{}, later); err != nil || v.Status != Expired {
		t.Errorf("expired: %+v, %v", v, err)
	}
	if v, err := Verify([]byte(`{"did":"did:elastos:foo","status":3}`), nil, keys.Native{}, tip); err != nil || v.Status != NotFound {
		t.Errorf("not found: %+v, %v", v, err)
	}
}

// The mainnet create, as a node would return it today.
func TestVerifyMainnetCreate(t *testing.T) {
	var v struct {
		DID, Txid string
		Timestamp time.Time
		Operation json.RawMessage
	}
	if err := json.Unmarshal(vectors.Read("idchain/create-op-mainnet-format.json"), &v); err != nil {
		t.Fatal(err)
	}
	r, err := idop.ParseRequest(v.Operation)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := did.Parse(v.DID)
	b, err := Result(d, []Entry{entry(t, r, v.Txid, 1, 0, v.Timestamp)}, true, t0.Unix())
	if err != nil {
		t.Fatal(err)
	}
	got, err := Verify(b, nil, keys.Native{}, t0)
	if err != nil || got.Status != Expired || !got.Complete || !got.Document.Legacy() {
		t.Errorf("mainnet create: %+v, %v", got, err)
	}
}

// A customized DID's history needs its controllers' documents.
func TestVerifyCustomized(t *testing.T) {
	var docs []*did.Document
	for _, n := range vectors.Glob("elastos-did-sdk/v2.2/user*.id.json") {
		doc, err := did.ParseDocument(vectors.Read(n))
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, doc)
	}
	foobar, err := did.ParseDocument(vectors.Read("elastos-did-sdk/v2.2/foobar.id.json"))
	if err != nil {
		t.Fatal(err)
	}
	key2, _ := did.ParseURL("#key2", foobar.Subject())
	create, err := idop.NewCreate(foobar, key2, privateKey(t, "foobar.id.key2"))
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC)
	b, _ := Result(foobar.Subject(), []Entry{entry(t, create, txid(0), 0, 0, at)}, true, at.Unix())
	if _, err := Verify(b, did.NewDocuments(docs...), keys.Native{}, at); err != nil {
		t.Errorf("foobar: %v", err)
	}
	_, err = Verify(b, did.NewDocuments(docs[1:]...), keys.Native{}, at)
	var ve *VerifyError
	if !errors.As(err, &ve) || ve.Rule != idop.RuleController || ve.Index != 0 {
		t.Errorf("foobar without a controller's document: %v", err)
	}
}

func TestVerifyFindsWhatIsWrong(t *testing.T) {
	c := newChain(t, 3, false)
	other := newChainOf(t, "user3.id.primary", 0, false)
	tip := t0.AddDate(0, 0, 10)
	result := func(h []Entry) []byte {
		b, err := Result(c.subject, h, true, tip.Unix())
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	good := string(result(c.entries))
	tamperedUpdate := slices.Clone(c.entries)
	tamperedUpdate[2].Request.Proof.Signature = tamperedUpdate[1].Request.Proof.Signature
	brokenLink := slices.Clone(c.entries)
	brokenLink[2].Txid = txid(9) // entry 3 names txid(2) as previous
	otherDID := slices.Clone(c.entries)
	otherDID[1] = other.entries[0]
	otherDID[1].Time, otherDID[1].Height = c.entries[1].Time, c.entries[1].Height
	noCreate := slices.Clone(c.entries[1:])
	twoCreates := append(slices.Clone(c.entries[:1]), c.entries[0])
	twoCreates[1].Time++
	for _, tc := range []struct {
		name  string
		b     string
		index int
		rule  idop.Rule
		msg   string
	}{
		{"signature", string(result(tamperedUpdate)), 1, idop.RuleSignature, "does not verify"},
		{"previousTxid chain", string(result(brokenLink)), 0, idop.RulePreviousTxid, "previousTxid"},
		{"operation on another DID", string(result(otherDID)), 2, idop.RuleDocID, "an operation on"},
		{"two creates", string(result(twoCreates)), 0, idop.RuleCreateExists, "already exists"},
		{"status", strings.Replace(good, `"status":0`, `"status":1`, 1), -1, RuleStatus, "the result says 1 (expired), the transactions give 0 (valid)"},
		{"claims deactivated", strings.Replace(good, `"status":0`, `"status":2`, 1), -1, RuleStatus, "give 0"},
		{"order", reorder(t, good), 1, RuleOrder, "newer than the transaction before it"},
		{"not found with transactions", strings.Replace(good, `"status":0`, `"status":3`, 1), -1, idop.RuleMalformed, "status 3 (not found) with transactions"},
		{"no transactions", `{"did":"did:elastos:foo","status":0}`, -1, idop.RuleMalformed, "without transactions"},
		{"bare did", strings.Replace(good, `"did:elastos:igHb`, `"igHb`, 1), -1, idop.RuleMalformed, "not in full form"},
		{"status out of range", strings.Replace(good, `"status":0`, `"status":4`, 1), -1, idop.RuleMalformed, "status 4"},
		{"timestamp", strings.Replace(good, `"timestamp":"2024-06-04T00:00:00Z"`, `"timestamp":"yesterday"`, 1), 0, idop.RuleMalformed, `timestamp "yesterday"`},
		{"history starting with a deactivate", string(deactivateOnly(t, c, tip)), 0, idop.RuleNotFound, "begins with a deactivate"},
		{"missing did", `{"status":3}`, -1, idop.RuleMalformed, "needs did and status"},
		{"node error", `{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"Resolver internal error."}}`, -1, idop.RuleMalformed, "the node answered an error"},
		{"not JSON", `{"did":`, -1, idop.RuleMalformed, "want a value"},
		{"incomplete, but a valid update on its own", string(result(noCreate)), -2, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Verify([]byte(tc.b), nil, keys.Native{}, tip)
			if tc.index == -2 {
				if err != nil {
					t.Errorf("%s: %v", tc.name, err)
				}
				return
			}
			var ve *VerifyError
			if !errors.As(err, &ve) || ve.Rule != tc.rule || ve.Index != tc.index || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("%s: %v; want transaction %d, rule %s, containing %q", tc.name, err, tc.index, tc.rule, tc.msg)
			}
		})
	}
}

// reorder swaps the timestamps of the first two transactions.
func reorder(t *testing.T, result string) string {
	d := decode(t, []byte(result))
	a, b := d.Transaction[0].Timestamp, d.Transaction[1].Timestamp
	result = strings.Replace(result, `"timestamp":"`+a+`"`, `"timestamp":"X"`, 1)
	result = strings.Replace(result, `"timestamp":"`+b+`"`, `"timestamp":"`+a+`"`, 1)
	return strings.Replace(result, `"timestamp":"X"`, `"timestamp":"`+b+`"`, 1)
}

func deactivateOnly(t *testing.T, c *chain, tip time.Time) []byte {
	r, err := idop.NewDeactivate(c.subject, c.key, c.priv)
	if err != nil {
		t.Fatal(err)
	}
	return []byte(`{"did":"` + c.subject.String() + `","status":2,"transaction":[{"txid":"` + txid(5) +
		`","timestamp":"2024-06-05T00:00:00Z","operation":` + string(r.AppendJSON(nil)) + `}]}`)
}

func FuzzVerify(f *testing.F) {
	c := newChain(f, 2, true)
	for _, all := range []bool{true, false} {
		b, err := Result(c.subject, c.entries, all, t0.Unix())
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"did":"did:elastos:foo","status":3}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := Verify(b, nil, keys.Native{}, t0)
		var ve *VerifyError
		switch {
		case err != nil && !errors.As(err, &ve):
			t.Fatalf("error of type %T: %v", err, err)
		case err == nil && v.Status != NotFound && v.Document == nil:
			t.Fatalf("verified status %v without a document", v.Status)
		}
	})
}
