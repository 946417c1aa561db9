package w3c_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/core/w3c"
)

// t0 is the block time of each test history's first operation; operation
// i is in block 100+i at t0 + i days.
var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// user is a standard DID of the tests, with its key.
type user struct {
	priv    *keys.PrivateKey
	subject did.DID
	primary did.URL
}

func newUser(t testing.TB, name string) user {
	t.Helper()
	h := sha256.Sum256([]byte("w3c test " + name))
	k, err := keys.NewPrivateKey(h[:])
	if err != nil {
		t.Fatal(err)
	}
	d := did.FromKey(k.Public())
	return user{priv: k, subject: d, primary: did.URL{DID: d, Fragment: did.PrimaryKey}}
}

// document is u's signed document with services (id fragment, type,
// endpoint triples).
func (u user) document(t testing.TB, expires time.Time, services ...string) *did.Document {
	t.Helper()
	var ss []did.Service
	for i := 0; i+2 < len(services); i += 3 {
		ss = append(ss, did.NewService(did.URL{Fragment: services[i]}, services[i+1], services[i+2]))
	}
	doc, err := did.NewDocument(u.priv.Public(), expires, ss...)
	if err != nil {
		t.Fatal(err)
	}
	if doc, err = doc.Sign(u.priv, u.primary, t0); err != nil {
		t.Fatal(err)
	}
	return doc
}

// history is a DID's operations as a chain recorded them, oldest first,
// with the documents they publish.
type history struct {
	subject did.DID
	entries []resolve.Entry
	docs    []*did.Document
}

func txid(name string, i int) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%s %d", name, i))
	return hex.EncodeToString(sum[:])
}

// add records r in the next block, a day after the previous operation.
func (h *history) add(t testing.TB, r idop.Request) {
	t.Helper()
	op, err := idop.Decode(r)
	if err != nil {
		t.Fatal(err)
	}
	i := len(h.entries)
	h.entries = append(h.entries, resolve.NewEntry(op, txid(h.subject.String(), i), uint32(100+i), 1, t0.AddDate(0, 0, i).Unix()))
	h.docs = append(h.docs, op.Document)
}

// last is the txid of the newest operation.
func (h *history) last() string { return h.entries[len(h.entries)-1].Txid }

// w3c returns the history as w3c reads it, shuffled: the order must not
// matter.
func (h *history) w3c() w3c.History {
	n := len(h.entries)
	perm := make([]int, n)
	for i := range perm {
		perm[i] = (i*7 + 3) % n
	}
	if n%7 == 0 {
		slices.Reverse(perm)
	}
	entries := make([]resolve.Entry, n)
	for i, p := range perm {
		entries[i] = h.entries[p]
	}
	return w3c.History{Entries: entries, Document: func(i int) (*did.Document, error) { return h.docs[perm[i]], nil }}
}

// standard is u's history: a create, updates each adding a service, and
// optionally a deactivate. Documents expire expiresIn after their block.
func standard(t testing.TB, u user, updates int, deactivate bool, expiresIn time.Duration) *history {
	t.Helper()
	h := &history{subject: u.subject}
	services := []string{"hive", "HiveVault", "https://hive.example.org/vault"}
	for i := 0; i <= updates; i++ {
		at := t0.AddDate(0, 0, i)
		doc := u.document(t, at.Add(expiresIn), services...)
		var r idop.Request
		var err error
		if i == 0 {
			r, err = idop.NewCreate(doc, u.primary, u.priv)
		} else {
			r, err = idop.NewUpdate(doc, h.last(), u.primary, u.priv)
		}
		if err != nil {
			t.Fatal(err)
		}
		h.add(t, r)
		services = append(services, fmt.Sprintf("web%d", i), "LinkedDomains", fmt.Sprintf("https://example.org/%d/", i))
	}
	if deactivate {
		r, err := idop.NewDeactivate(u.subject, u.primary, u.priv)
		if err != nil {
			t.Fatal(err)
		}
		h.add(t, r)
	}
	return h
}

// customizedDoc is the document of the customized DID name, controlled by
// ctrls with m of them signing (multisig m:n when there are several).
func customizedDoc(t testing.TB, name string, m int, expires time.Time, ctrls ...user) *did.Document {
	t.Helper()
	members := map[string]any{"id": "did:elastos:" + name, "expires": did.FormatTime(expires),
		"service": []any{map[string]any{"id": "#shop", "type": "Shop", "serviceEndpoint": "https://shop.example.org/" + name}}}
	var ids []string
	for _, c := range ctrls {
		ids = append(ids, c.subject.String())
	}
	members["controller"] = ids
	if len(ctrls) > 1 {
		members["multisig"] = fmt.Sprintf("%d:%d", m, len(ctrls))
	}
	text, err := json.Marshal(members)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := did.ParseDocument(text)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range ctrls[:m] {
		if doc, err = doc.Sign(c.priv, c.primary, t0); err != nil {
			t.Fatal(err)
		}
	}
	return doc
}

// transferred is the history of a customized DID "AcmeCorp" created by
// three controllers (2:3), then transferred to next.
func transferred(t testing.TB, a, b, c, next user) *history {
	t.Helper()
	created := customizedDoc(t, "AcmeCorp", 2, t0.AddDate(2, 0, 0), a, b, c)
	h := &history{subject: created.Subject()}
	r, err := idop.NewCreate(created, a.primary, a.priv)
	if err != nil {
		t.Fatal(err)
	}
	h.add(t, r)
	ticket := did.NewTransferTicket(created.Subject(), next.subject, h.last()).Sign(a.priv, a.primary, t0).Sign(b.priv, b.primary, t0)
	r, err = idop.NewTransfer(customizedDoc(t, "AcmeCorp", 1, t0.AddDate(3, 0, 0), next), ticket, next.primary, next.priv)
	if err != nil {
		t.Fatal(err)
	}
	h.add(t, r)
	return h
}

// resolveRequest parses and answers a request from h at tip.
func resolveRequest(t testing.TB, h *history, tip w3c.Tip, id, options, accept string) w3c.Response {
	t.Helper()
	resp, err := w3c.Resolve(w3c.ParseRequest(id, options, accept), h.w3c(), tip)
	if err != nil {
		t.Fatalf("%s: %v", id, err)
	}
	return resp
}

// decoded is a response body read back.
type decoded map[string]any

func decode(t testing.TB, resp w3c.Response) decoded {
	t.Helper()
	var m decoded
	if err := json.Unmarshal(resp.Body, &m); err != nil {
		t.Fatalf("body %q: %v", resp.Body, err)
	}
	return m
}

// get reads a member by path ("didDocumentMetadata.method.status").
func (m decoded) get(path ...string) any {
	var v any = map[string]any(m)
	for _, p := range path {
		o, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = o[p]
	}
	return v
}
