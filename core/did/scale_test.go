package did

import (
	"fmt"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/internal/scaling"
	"github.com/didlight/didlight/core/internal/vectors"
	"github.com/didlight/didlight/core/keys"
)

// The decoders of untrusted input in this package cost no more than their
// input's length: see package scaling for what the ratios mean. Identifiers
// over their limits are refused at once.

func BenchmarkScaleDID(b *testing.B) {
	scaling.Run(b, map[string]func(int) string{
		"full": func(n int) string { return prefix + "i" + strings.Repeat("x", n-len(prefix)-1) },
		"bare": func(n int) string { return "i" + strings.Repeat("x", n-1) },
	}, func(s string) error {
		d, err := Parse(s)
		if err == nil {
			d.Key()
		}
		return err
	})
}

func BenchmarkScaleDIDURL(b *testing.B) {
	scaling.Run(b, map[string]func(int) string{
		"fragment": func(n int) string { return prefix + "foo#k" + strings.Repeat("x", n-len(prefix)-5) },
		"query": func(n int) string {
			return scaling.Repeat(n, prefix+"foo?", "&", "", func(i int) string { return fmt.Sprintf("a%d=%d", i%50, i) })
		},
	}, func(s string) error { _, err := ParseURL(s, DID{id: "base"}); return err })
}

func BenchmarkScaleCredentialID(b *testing.B) {
	scaling.Run(b, map[string]func(int) string{
		"fragment": func(n int) string { return prefix + "foo#c" + strings.Repeat("x", n-len(prefix)-5) },
	}, func(s string) error {
		u, err := ParseCredentialID(s)
		if err == nil {
			u.Key()
		}
		return err
	})
}

// BenchmarkScaleDocument parses documents grown by their lists and by
// their strings; each is a valid document (checked first).
func BenchmarkScaleDocument(b *testing.B) {
	priv, err := keys.ParseExtendedPrivateKey(vectors.String("elastos-did-sdk/v2.2/user4.id.primary.sk"))
	if err != nil {
		b.Fatal(err)
	}
	subject, key := FromKey(priv.Public()).String(), priv.Public().Base58()
	doc := func(members ...string) string {
		return `{"id":"` + subject + `","publicKey":[{"id":"#primary","publicKeyBase58":"` + key + `"}],` +
			`"authentication":["#primary"],` + strings.Join(members, ",") + `,"expires":"2030-01-01T00:00:00Z"}`
	}
	list := func(member string, item func(i int) string) func(int) []byte {
		return func(n int) []byte {
			open := doc(`"` + member + `":[`)
			return []byte(scaling.Repeat(n, open[:strings.LastIndex(open, "[")+1], ",", "]"+open[strings.LastIndex(open, "[")+1:], item))
		}
	}
	credential := func(i int) string {
		return fmt.Sprintf(`{"id":"#c%d","type":["T"],"issuer":"%s","issuanceDate":"2024-01-01T00:00:00Z","expirationDate":"2029-01-01T00:00:00Z",`+
			`"credentialSubject":{"id":"%s","n":%d},"proof":{"type":"ECDSAsecp256r1","verificationMethod":"#primary","signature":"c2ln"}}`, i, subject, subject, i)
	}
	shapes := map[string]func(int) []byte{
		"services": list("service", func(i int) string {
			return fmt.Sprintf(`{"id":"#s%d","type":"T","serviceEndpoint":"https://e/%d"}`, i, i)
		}),
		"keys": list("publicKey", func(i int) string {
			if i == 0 {
				return `{"id":"#primary","publicKeyBase58":"` + key + `"}`
			}
			return fmt.Sprintf(`{"id":"#k%d","publicKeyBase58":"%s"}`, i, key)
		}),
		"credentials": list("verifiableCredential", credential),
		"auth-refs":   list("authentication", func(int) string { return `"#primary"` }),
		"endpoint": func(n int) []byte {
			return []byte(doc(`"service":[{"id":"#s","type":"T","serviceEndpoint":"https://e/` + strings.Repeat("x", n-400) + `"}]`))
		},
		"service-props": func(n int) []byte {
			return []byte(doc(scaling.Repeat(n-300, `"service":[{"id":"#s","type":"T","serviceEndpoint":"e",`, ",", "}]",
				func(i int) string { return fmt.Sprintf(`"p%d":%d`, (i*7919)%100003, i) })))
		},
	}
	for name, shape := range shapes {
		if _, err := ParseDocument(shape(scaling.Small)); err != nil {
			b.Fatalf("%s: %v", name, err)
		}
	}
	scaling.Run(b, shapes, func(in []byte) error { _, err := ParseDocument(in); return err })
}
