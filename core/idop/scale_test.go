package idop

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/internal/scaling"
	"github.com/didlight/didlight/core/internal/vectors"
	"github.com/didlight/didlight/core/keys"
)

// BenchmarkScaleOperation reads operations (ParseRequest, then Decode,
// which decodes the payload and its document) grown by their document's
// services, by a long member and by a long payload that is not base64. See
// package scaling for what the ratios mean.
func BenchmarkScaleOperation(b *testing.B) {
	priv, err := keys.ParseExtendedPrivateKey(vectors.String("elastos-did-sdk/v2.2/user4.id.primary.sk"))
	if err != nil {
		b.Fatal(err)
	}
	subject, key := did.FromKey(priv.Public()).String(), priv.Public().Base58()
	sig := base64.RawURLEncoding.EncodeToString(make([]byte, keys.SignatureSize))
	request := func(payload string) string {
		return `{"header":{"specification":"elastos/did/1.0","operation":"create"},"payload":"` + payload +
			`","proof":{"type":"ECDSAsecp256r1","verificationMethod":"#primary","signature":"` + sig + `"}}`
	}
	document := func(n int) string {
		return scaling.Repeat(n*3/4-300, `{"id":"`+subject+`","publicKey":[{"id":"#primary","publicKeyBase58":"`+key+`"}],"authentication":["#primary"],`+
			`"expires":"2030-01-01T00:00:00Z","service":[`, ",", "]}", func(i int) string {
			return fmt.Sprintf(`{"id":"#s%d","type":"T","serviceEndpoint":"https://e/%d"}`, i, i)
		})
	}
	shapes := map[string]func(int) []byte{
		"services": func(n int) []byte {
			return []byte(request(base64.RawURLEncoding.EncodeToString([]byte(document(n)))))
		},
		"not-base64": func(n int) []byte { return []byte(request(strings.Repeat("*", n-250))) },
		"member": func(n int) []byte {
			return []byte(`{"memo":"` + strings.Repeat("x", n-300) + `",` + request("e30")[1:])
		},
	}
	if _, err := Decode(mustParse(b, shapes["services"](scaling.Small))); err != nil {
		b.Fatal(err)
	}
	scaling.Run(b, shapes, func(in []byte) error {
		r, err := ParseRequest(in)
		if err == nil {
			_, err = Decode(r)
		}
		return err
	})
}

func mustParse(b *testing.B, in []byte) Request {
	r, err := ParseRequest(in)
	if err != nil {
		b.Fatal(err)
	}
	return r
}
