package find

import (
	"fmt"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/internal/vectors"
)

// viewOf builds the view the query method matches (the job of
// core/resolve): the DID document plus a credential array holding, for
// each embedded credential, its id, type (always an array), issuer (the
// subject when the credential is self-proclaimed), issuanceDate,
// expirationDate and subject (its credentialSubject). The credential
// member comes first, as resolve.View writes it.
func viewOf(doc *Value) Value {
	creds := Value{kind: kindArray}
	if vcs := doc.field("verifiableCredential"); vcs != nil {
		for i := range vcs.items {
			creds.items = append(creds.items, credentialView(&vcs.items[i], doc))
		}
	}
	view := *doc
	view.keys = append([]string{"credential"}, doc.keys...)
	view.items = append([]Value{creds}, doc.items...)
	return view
}

func credentialView(vc, doc *Value) Value {
	out := Value{kind: kindObject}
	add := func(key string, v *Value) {
		if v != nil {
			out.keys = append(out.keys, key)
			out.items = append(out.items, *v)
		}
	}
	subject := vc.field("credentialSubject")
	issuer := vc.field("issuer")
	if issuer == nil && subject != nil {
		issuer = subject.field("id")
	}
	if issuer == nil {
		issuer = doc.field("id")
	}
	typ := vc.field("type")
	if typ != nil && typ.kind == kindString {
		typ = &Value{kind: kindArray, items: []Value{*typ}}
	}
	add("id", vc.field("id"))
	add("type", typ)
	add("issuer", issuer)
	add("issuanceDate", vc.field("issuanceDate"))
	add("expirationDate", vc.field("expirationDate"))
	add("subject", subject)
	return out
}

// Variation for the corpus: types and names that occur in real documents.
var (
	credentialTypes = []string{"SelfProclaimedCredential", "DiplomaCredential", "KYCCredential", "SelfProclaimedCredential", "MembershipCredential"}
	serviceTypes    = []string{"CarrierAddress", "HiveVault", "LinkedDomains", "DIDCommMessaging", "CarrierAddress", "CredentialRepositoryService"}
)

// corpus returns n view documents as compact JSON and parsed: the SDK's
// DID documents, each copy with its own DID, and with the credential types,
// service types and the presence of e-mail addresses varied.
func corpus(tb testing.TB, n int) (raw [][]byte, parsed []*Value) {
	tb.Helper()
	var bases []Value
	for _, name := range vectors.Glob("elastos-did-sdk/*/*.id.json") {
		doc, err := ParseJSON(vectors.Read(name))
		if err != nil {
			tb.Fatalf("%s: %v", name, err)
		}
		bases = append(bases, doc)
	}
	if len(bases) == 0 {
		tb.Fatal("no DID documents among the vectors")
	}
	for i := range n {
		base := &bases[i%len(bases)]
		id := base.field("id").str
		text := viewOf(base).String()
		text = strings.ReplaceAll(text, id, fmt.Sprintf("did:elastos:iCorpus%06dXyZ", i))
		text = strings.ReplaceAll(text, `"SelfProclaimedCredential"`, `"`+credentialTypes[i%len(credentialTypes)]+`"`)
		text = strings.ReplaceAll(text, `"CarrierAddress"`, `"`+serviceTypes[i%len(serviceTypes)]+`"`)
		if i%7 == 3 {
			text = strings.ReplaceAll(text, `"email":`, `"mail":`)
		}
		v, err := ParseJSON([]byte(text))
		if err != nil {
			tb.Fatalf("corpus document %d: %v", i, err)
		}
		raw = append(raw, []byte(text))
		parsed = append(parsed, &v)
	}
	return raw, parsed
}
