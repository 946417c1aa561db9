package did

import (
	"encoding/json"
	"errors"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/internal/vectors"
	"github.com/didlight/didlight/core/keys"
)

// vectorSigners returns the private keys of the SDK vectors by the
// verification method they sign as: the document X.id.json's DID with the
// fragment F of each X.id.F.sk.
func vectorSigners(t *testing.T, version string) map[URL]*keys.PrivateKey {
	t.Helper()
	signers := map[URL]*keys.PrivateKey{}
	for _, name := range vectors.Glob("elastos-did-sdk/" + version + "/*.sk") {
		parts := strings.Split(path.Base(name), ".") // X, id, F, sk
		priv, err := keys.ParseExtendedPrivateKey(vectors.String(name))
		if err != nil {
			t.Fatal(err)
		}
		doc := mustParse(t, vectors.Read("elastos-did-sdk/"+version+"/"+parts[0]+".id.json"))
		signers[URL{DID: doc.Subject(), Fragment: parts[2]}] = priv
	}
	return signers
}

// Every SDK credential whose signer's key the vectors hold is issued again
// with NewCredential and Sign: the normalized form comes out byte for byte
// but for the signature value (the SDKs draw a random nonce, keys signs
// deterministically), and it verifies.
func TestNewCredentialReproducesSDK(t *testing.T) {
	reproduced := 0
	for _, version := range []string{"v1", "v2.2"} {
		signers, docs := vectorSigners(t, version), lookupFor(t, version)
		for _, name := range vectors.Glob("elastos-did-sdk/" + version + "/*.vc.*.normalized.json") {
			want := vectors.Read(name)
			sdk, err := ParseCredential(want)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			priv, ok := signers[sdk.Proof.VerificationMethod]
			if !ok {
				continue
			}
			c, err := NewCredential(sdk.ID, sdk.Types, sdk.Issuer, sdk.AppendSubject(nil), sdk.IssuanceDate, sdk.ExpirationDate)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			c.Context = sdk.Context
			method := sdk.Proof.VerificationMethod
			if method.DID == sdk.Issuer {
				method.DID = DID{} // relative to the issuer
			}
			signed, err := c.Sign(priv, method, sdk.Proof.Created)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			got := strings.Replace(string(signed.Normalized()), signed.Proof.Signature, sdk.Proof.Signature, 1)
			if got != string(want) {
				t.Errorf("%s:\n got %s\nwant %s", name, got, want)
			}
			if err := signed.VerifyProof(keys.Native{}, docs); err != nil {
				t.Errorf("%s: %v", name, err)
			}
			if c.Proof.Signature != "" {
				t.Errorf("%s: Sign changed the credential it was called on", name)
			}
			reproduced++
		}
	}
	if reproduced < 5 {
		t.Errorf("reproduced %d SDK credentials, want every one whose key the vectors hold (at least 5)", reproduced)
	}
}

func TestNewCredentialRules(t *testing.T) {
	subject, err := Parse(user4DID)
	if err != nil {
		t.Fatal(err)
	}
	id := URL{DID: subject, Fragment: "email"}
	at := time.Date(2026, 1, 1, 12, 0, 0, 500, time.UTC)
	c, err := NewCredential(id, []string{"VerifiableCredential", "EmailCredential", "VerifiableCredential"}, subject,
		[]byte(`{"id":"`+user4DID+`","name":{"last":"B","first":"A"},"email":"a@example.com"}`), at, at.AddDate(1, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	priv := mustKey(t, "user4")
	signed, err := c.Sign(priv, URL{Fragment: PrimaryKey}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	const head = `{"id":"` + user4DID + `#email","type":["EmailCredential","VerifiableCredential"],"issuer":"` + user4DID +
		`","issuanceDate":"2026-01-01T12:00:00Z","expirationDate":"2027-01-01T12:00:00Z","credentialSubject":{"id":"` + user4DID +
		`","email":"a@example.com","name":{"first":"A","last":"B"}},"proof":{"type":"ECDSAsecp256r1","verificationMethod":"` + user4DID + `#primary","signature":"`
	if got := string(signed.Normalized()); !strings.HasPrefix(got, head) {
		t.Errorf("normalized\n got %s\nwant %s…", got, head)
	}
	doc, err := NewDocument(priv.Public(), at.AddDate(2, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if err := signed.VerifyProof(keys.Native{}, NewDocuments(doc)); err != nil || !signed.IsSelfProclaimed() {
		t.Errorf("self-proclaimed credential: %v", err)
	}
	reparsed, err := ParseCredential(signed.Compact())
	if err != nil || string(reparsed.Normalized()) != string(signed.Normalized()) {
		t.Errorf("the compact form reads back as %s (%v)", reparsed.Normalized(), err)
	}
	other, _ := c.Sign(mustKey(t, "user1"), URL{Fragment: PrimaryKey}, at)
	if err := other.VerifyProof(keys.Native{}, NewDocuments(doc)); !errors.Is(err, ErrProof) {
		t.Errorf("signed with another key: %v, want ErrProof", err)
	}
	if _, err := c.Sign(priv, URL{DID: subject}, at); !errors.Is(err, ErrKey) {
		t.Errorf("method without a key: %v, want ErrKey", err)
	}

	for _, tc := range []struct {
		name            string
		id              URL
		types           []string
		issuer          DID
		claims          string
		issued, expires time.Time
		msg             string
	}{
		{"id without fragment", URL{DID: subject}, []string{"T"}, subject, `{}`, at, at.Add(time.Hour), "not a DID URL with a fragment"},
		{"id without DID", URL{Fragment: "x"}, []string{"T"}, subject, `{}`, at, at.Add(time.Hour), "not a DID URL with a fragment"},
		{"no issuer", id, []string{"T"}, DID{}, `{}`, at, at.Add(time.Hour), "has no issuer"},
		{"no type", id, nil, subject, `{}`, at, at.Add(time.Hour), "want at least one"},
		{"empty type", id, []string{"T", ""}, subject, `{}`, at, at.Add(time.Hour), "none empty"},
		{"expires before issued", id, []string{"T"}, subject, `{}`, at, at, "is not after issuanceDate"},
		{"claims not an object", id, []string{"T"}, subject, `[1]`, at, at.Add(time.Hour), "must be a JSON object"},
		{"claims not JSON", id, []string{"T"}, subject, `{"a":}`, at, at.Add(time.Hour), "claims"},
		{"claims about another DID", id, []string{"T"}, subject, `{"id":"did:elastos:foo"}`, at, at.Add(time.Hour), "is not the subject"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewCredential(tc.id, tc.types, tc.issuer, []byte(tc.claims), tc.issued, tc.expires)
			if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("%s: %v, want ErrMalformed containing %q", tc.name, err, tc.msg)
			}
		})
	}
}

// The SDK's user1 document, read without its credentials, gets them back
// with WithCredentials: signed again, it is the SDK's document but for the
// signature, and it verifies.
func TestWithCredentials(t *testing.T) {
	const name = "elastos-did-sdk/v2.2/user1.id.normalized.json"
	sdk := mustParse(t, vectors.Read(name))
	var m map[string]any
	if err := json.Unmarshal(vectors.Read(name), &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "verifiableCredential")
	b, _ := json.Marshal(m)
	bare := mustParse(t, b)
	creds := sdk.Credentials()
	if len(creds) < 2 {
		t.Fatalf("%s has %d credentials, want several", name, len(creds))
	}
	doc, err := bare.WithCredentials(&creds[1], &creds[0]) // any order
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Proofs()) != 0 || len(bare.Credentials()) != 0 {
		t.Errorf("the copy has %d proofs, the original %d credentials; want 0 and 0", len(doc.Proofs()), len(bare.Credentials()))
	}
	for i := range creds[2:] {
		if doc, err = doc.WithCredentials(&creds[2+i]); err != nil {
			t.Fatal(err)
		}
	}
	primary, _ := sdk.DefaultKey()
	signed, err := doc.Sign(mustKey(t, "user1"), primary.ID, sdk.Proofs()[0].Created)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Replace(string(signed.Normalized()), signed.Proofs()[0].Signature, sdk.Proofs()[0].Signature, 1)
	if got != string(vectors.Read(name)) {
		t.Errorf("\n got %s\nwant %s", got, vectors.Read(name))
	}
	if err := signed.VerifyProofs(keys.Native{}, lookupFor(t, "v2.2")); err != nil {
		t.Error(err)
	}

	if _, err := doc.WithCredentials(&creds[0]); !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "listed twice") {
		t.Errorf("a credential embedded twice: %v", err)
	}
	foreign, err := ParseCredential(vectors.Read("elastos-did-sdk/v2.2/foo.vc.email.json"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bare.WithCredentials(foreign); !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "not the document's DID") {
		t.Errorf("a credential about another DID: %v", err)
	}
}
