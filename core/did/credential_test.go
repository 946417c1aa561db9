package did

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/internal/vectors"
	"github.com/didlight/didlight/core/keys"
)

func TestCredentialErrors(t *testing.T) {
	docs := lookupFor(t, "v2.2")
	const email = "elastos-did-sdk/v2.2/foo.vc.email.json"
	for _, tc := range []struct {
		name   string
		change func(m map[string]any)
		docs   Lookup
		kind   error
		msg    string
	}{
		{"tampered subject", func(m map[string]any) { m["credentialSubject"].(map[string]any)["email"] = "x@y" }, docs, ErrProof, "signature does not verify"},
		{"tampered type", func(m map[string]any) { m["type"] = []any{"EmailCredential"} }, docs, ErrProof, "signature does not verify"},
		{"not an authentication key", func(m map[string]any) {
			m["proof"].(map[string]any)["verificationMethod"] = "did:elastos:imUUPBfrZ1yZx6nWXe6LNN59VeX2E6PPKj#nokey"
		}, docs, ErrKey, "is not an authentication key"},
		{"issuer unknown", func(m map[string]any) {}, Documents{}, ErrNoDocument, "did:elastos:imUUPBfrZ1yZx6nWXe6LNN59VeX2E6PPKj does not exist"},
		{"id outside its subject", func(m map[string]any) { m["id"] = "did:elastos:bar#email" }, docs, ErrProof, "is not under its subject"},
		{"proof type", func(m map[string]any) { m["proof"].(map[string]any)["type"] = "X" }, docs, ErrProof, `proof type "X"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var m map[string]any
			if err := json.Unmarshal(vectors.Read(email), &m); err != nil {
				t.Fatal(err)
			}
			tc.change(m)
			b, _ := json.Marshal(m)
			c, err := ParseCredential(b)
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
				return
			}
			err = c.VerifyProof(keys.Native{}, tc.docs)
			if !errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("%s: error %v, want kind %v containing %q", tc.name, err, tc.kind, tc.msg)
			}
		})
	}
	for i, tc := range []struct{ in, msg string }{
		{`{"id":"#a","type":"T","issuanceDate":"2021-01-01T00:00:00Z","credentialSubject":{},"proof":{"verificationMethod":"#k","signature":"s"}}`, "credentialSubject has no id"},
		{`{"id":"#a","type":"T","issuanceDate":"2021-01-01T00:00:00Z","credentialSubject":{"id":"did:elastos:foo"}}`, "has no proof"},
		{`{"id":"#a","type":"T","issuanceDate":"2021-01-01","credentialSubject":{"id":"did:elastos:foo"},"proof":{"verificationMethod":"#k","signature":"s"}}`, "issuanceDate"},
		{`{"id":"#a","type":"T","issuanceDate":"2021-01-01T00:00:00Z","credentialSubject":[],"proof":{}}`, "credentialSubject must be an object"},
		{`[]`, "must be a JSON object"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if _, err := ParseCredential([]byte(tc.in)); !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("ParseCredential(%s): %v, want ErrMalformed containing %q", tc.in, err, tc.msg)
			}
		})
	}
	c, err := ParseCredential([]byte(`{"id":"#a","type":"T","issuanceDate":"2021-01-01T00:00:00Z","credentialSubject":{"id":"did:elastos:foo","b":{"y":1,"x":2},"a":1},"proof":{"verificationMethod":"#k","signature":"s"}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"did:elastos:foo#a","type":["T"],"issuer":"did:elastos:foo","issuanceDate":"2021-01-01T00:00:00Z","credentialSubject":{"id":"did:elastos:foo","a":1,"b":{"x":2,"y":1}},"proof":{"type":"ECDSAsecp256r1","verificationMethod":"did:elastos:foo#k","signature":"s"}}`
	if got := string(c.Normalized()); got != want || !c.IsSelfProclaimed() {
		t.Errorf("normalized\n got %s\nwant %s", got, want)
	}
}
