package wasmrt_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/wasm/abi"
)

// w3cRequests are the DID URL suffixes and Accept headers each history is
// resolved with by resolve_w3c.
var w3cRequests = []struct{ suffix, options, accept string }{
	{"", "", ""},
	{"", "", "application/did+json"},
	{"", "", "application/did+ld+json;q=0.5, application/did-url-dereferencing"},
	{"#primary", "", ""},
	{"#s", "", "application/did+ld+json"},
	{"?service=s&relativeRef=%2Fa%2Fb%3Fc%3D1#top", "", ""},
	{"?serviceType=Counter", "", "application/did-url-dereferencing"},
	{"?versionTime=2024-06-02T12:00:00Z", "", ""},
	{"", "versionTime=2024-06-01T00%3A00%3A00Z", ""},
	{"?versionId=" + txid(0), "", ""},
	{"?versionId=" + txid(77), "", ""},
	{"#nope", "", ""},
	{"?foo=bar", "", ""},
	{"", "", "text/html"},
}

// addW3C adds resolve_w3c cases: every history of addHistories resolved
// with each of w3cRequests, one create for every SDK document vector that
// comes with a key to sign it, the mainnet create, and malformed inputs.
func addW3C(t testing.TB, cs *cases, withDocs abi.Env) {
	tip := t0.AddDate(0, 0, 30)
	for _, hc := range []struct {
		updates    int
		deactivate bool
	}{{0, false}, {3, false}, {2, true}} {
		h := newHistory(t, "user4.id.primary", hc.updates, hc.deactivate)
		for _, at := range []time.Time{tip, t0.AddDate(3, 0, 0)} {
			result := h.result(t, true, at)
			for _, r := range w3cRequests {
				cs.add(fmt.Sprintf("w3c %d updates deactivated %v at %v: %q %q %q", hc.updates, hc.deactivate, at, r.suffix, r.options, r.accept), "resolve_w3c", abi.Env{},
					abi.ResolveW3CInput{Result: result, DID: h.subject.String() + r.suffix, Options: r.options, Accept: r.accept, Now: at})
			}
		}
		latest := h.result(t, false, tip)
		cs.add(fmt.Sprintf("w3c %d updates, latest only", hc.updates), "resolve_w3c", abi.Env{}, abi.ResolveW3CInput{Result: latest, DID: h.subject.String(), Now: tip})
	}
	h := newHistory(t, "user4.id.primary", 1, false)
	good := h.result(t, true, tip)
	for name, in := range map[string]abi.ResolveW3CInput{
		"another DID":    {Result: good, DID: "did:elastos:foobar", Now: tip},
		"no now":         {Result: good, DID: h.subject.String()},
		"no did":         {Result: good, Now: tip},
		"no result":      {DID: h.subject.String(), Now: tip},
		"other method":   {Result: json.RawMessage(`"unread"`), DID: "did:web:example.org", Now: tip},
		"not found":      {Result: json.RawMessage(`{"did":"did:elastos:foo","status":3}`), DID: "did:elastos:foo#x", Now: tip},
		"tampered":       {Result: json.RawMessage(strings.Replace(string(good), `"status":0`, `"status":2`, 1)), DID: h.subject.String(), Now: tip},
		"bad options":    {Result: good, DID: h.subject.String(), Options: "versionId=%zz", Now: tip},
		"rpc response":   {Result: json.RawMessage(`{"jsonrpc":"2.0","id":1,"result":` + string(good) + `}`), DID: h.subject.String(), Now: tip},
		"long DID":       {Result: good, DID: "did:elastos:" + strings.Repeat("x", 5000), Now: tip},
		"control chars":  {Result: good, DID: h.subject.String() + "#\x00\u2028", Now: tip},
		"expired at now": {Result: h.result(t, true, t0.AddDate(9, 0, 0)), DID: h.subject.String(), Now: t0.AddDate(9, 0, 0)},
	} {
		cs.add("w3c "+name, "resolve_w3c", abi.Env{}, in)
	}

	// Every SDK document vector that has a key to sign its create with.
	for _, n := range append(globVectors(t, "elastos-did-sdk/v1/*.id.json"), globVectors(t, "elastos-did-sdk/v2.2/*.id.json")...) {
		doc, err := did.ParseDocument(readVector(t, n))
		if err != nil {
			continue
		}
		result, ok := vectorCreate(t, n, doc)
		if !ok {
			continue
		}
		at := time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC)
		for _, suffix := range vectorRequests(doc) {
			for _, accept := range []string{"", "application/did+json"} {
				cs.add(fmt.Sprintf("w3c vector %s %q %q", n, suffix, accept), "resolve_w3c", withDocs,
					abi.ResolveW3CInput{Result: result, DID: doc.Subject().String() + suffix, Accept: accept, Now: at})
			}
		}
	}

	var mainnet struct {
		DID, Txid string
		Timestamp time.Time
		Operation json.RawMessage
	}
	if err := json.Unmarshal(readVector(t, "idchain/create-op-mainnet-format.json"), &mainnet); err != nil {
		t.Fatal(err)
	}
	result := fmt.Sprintf(`{"did":%q,"status":1,"transaction":[{"txid":%q,"timestamp":%q,"operation":%s}]}`,
		mainnet.DID, mainnet.Txid, did.FormatTime(mainnet.Timestamp), mainnet.Operation)
	for _, suffix := range []string{"", "#primary", "?versionTime=2000-01-01T00:00:00Z"} {
		cs.add("w3c mainnet create "+suffix, "resolve_w3c", abi.Env{}, abi.ResolveW3CInput{Result: json.RawMessage(result), DID: mainnet.DID + suffix, Now: tip})
	}
}

// vectorCreate is the all=true resolve result of a DID whose history is
// the create of doc (an SDK vector named n), signed with a key the vectors
// give for it: its primary key, or for a customized DID one of its own
// keys; false when there is none.
func vectorCreate(t testing.TB, n string, doc *did.Document) ([]byte, bool) {
	base := strings.TrimSuffix(n, ".json") // elastos-did-sdk/v2.2/foobar.id
	for _, fragment := range []string{"primary", "key2", "key3"} {
		sk := base + "." + fragment + ".sk"
		if len(globOptional(sk)) == 0 {
			continue
		}
		priv := privateKeyAt(t, sk)
		method := did.URL{DID: doc.Subject(), Fragment: fragment}
		create, err := idop.NewCreate(doc, method, priv)
		if err != nil {
			continue
		}
		op, err := idop.Decode(create)
		if err != nil {
			t.Fatal(err)
		}
		at := time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC)
		b, err := resolve.Result(doc.Subject(), []resolve.Entry{resolve.NewEntry(op, txid(0), 0, 0, at.Unix())}, true, at.Unix())
		if err != nil {
			t.Fatal(err)
		}
		return b, true
	}
	return nil, false
}

// vectorRequests are the DID URL suffixes a vector document is resolved
// with: itself, each key and service by fragment, each service selected.
func vectorRequests(doc *did.Document) []string {
	out := []string{""}
	for _, k := range doc.PublicKeys() {
		out = append(out, "#"+k.ID.Fragment)
	}
	for _, s := range doc.Services() {
		out = append(out, "#"+s.ID.Fragment, "?service="+s.ID.Fragment+"&relativeRef=%2Fx")
	}
	for _, c := range doc.Credentials() {
		out = append(out, "#"+c.ID.Fragment)
	}
	return out
}

// globOptional returns the vectors that match name, none when none does.
func globOptional(name string) []string {
	m, _ := filepath.Glob(filepath.Join(vectors, name))
	return m
}

// privateKeyAt reads the extended private key of the vector named name.
func privateKeyAt(t testing.TB, name string) *keys.PrivateKey {
	t.Helper()
	k, err := keys.ParseExtendedPrivateKey(strings.TrimSpace(string(readVector(t, name))))
	if err != nil {
		t.Fatal(err)
	}
	return k
}
