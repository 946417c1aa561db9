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
					abi.ResolveW3CInput{Result: result, Now: at, DID: h.subject.String() + r.suffix, Options: r.options, Accept: r.accept})
			}
		}
		latest := h.result(t, false, tip)
		cs.add(fmt.Sprintf("w3c %d updates, latest only", hc.updates), "resolve_w3c", abi.Env{}, abi.ResolveW3CInput{Result: latest, Now: tip, DID: h.subject.String()})
	}
	h := newHistory(t, "user4.id.primary", 1, false)
	good := h.result(t, true, tip)
	subject := h.subject.String()
	badOptions := w3cIn(good, subject, tip)
	badOptions.Options = "versionId=%zz"
	for name, in := range map[string]abi.ResolveW3CInput{
		"another DID":    w3cIn(good, "did:elastos:foobar", tip),
		"no now":         w3cIn(good, subject, time.Time{}),
		"no did":         w3cIn(good, "", tip),
		"no result":      w3cIn(nil, subject, tip),
		"other method":   w3cIn(json.RawMessage(`"unread"`), "did:web:example.org", tip),
		"not found":      w3cIn(json.RawMessage(`{"did":"did:elastos:foo","status":3}`), "did:elastos:foo#x", tip),
		"tampered":       w3cIn(json.RawMessage(strings.Replace(string(good), `"status":0`, `"status":2`, 1)), subject, tip),
		"bad options":    badOptions,
		"rpc response":   w3cIn(json.RawMessage(`{"jsonrpc":"2.0","id":1,"result":`+string(good)+`}`), subject, tip),
		"long DID":       w3cIn(good, "did:elastos:"+strings.Repeat("x", 5000), tip),
		"control chars":  w3cIn(good, subject+"#\x00\u2028", tip),
		"expired at now": w3cIn(h.result(t, true, t0.AddDate(9, 0, 0)), subject, t0.AddDate(9, 0, 0)),
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
					abi.ResolveW3CInput{Result: result, Now: at, DID: doc.Subject().String() + suffix, Accept: accept})
			}
		}
	}

	mainnet, result := mainnetCreate(t)
	for _, suffix := range []string{"", "#primary", "?versionTime=2000-01-01T00:00:00Z"} {
		cs.add("w3c mainnet create "+suffix, "resolve_w3c", abi.Env{}, abi.ResolveW3CInput{Result: result, Now: tip, DID: mainnet.DID + suffix})
	}
}

// w3cIn is a resolve_w3c input asking for id from result at now.
func w3cIn(result json.RawMessage, id string, now time.Time) abi.ResolveW3CInput {
	return abi.ResolveW3CInput{Result: result, Now: now, DID: id}
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
