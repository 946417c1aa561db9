package idop

import (
	"crypto/sha256"
	"testing"
	"time"

	"didlight/core/did"
	"didlight/core/internal/vectors"
	"didlight/core/keys"
)

// BenchmarkBareVerify is one P-256 signature check with a decoded key: the
// floor under every operation check.
func BenchmarkBareVerify(b *testing.B) { benchBareVerify(b) }

func benchBareVerify(b *testing.B) {
	priv := privateKey(b, "user4.id.primary")
	digest := sha256.Sum256([]byte("didlight"))
	sig, pub := priv.Sign(digest), priv.Public()
	for b.Loop() {
		if !(keys.Native{}).Verify(pub, digest, sig) {
			b.Fatal("does not verify")
		}
	}
}

// benchOp decodes and validates the request from scratch each time, as a
// node does with a transaction it receives: decode the payload, parse and
// normalize the document, check its proof and the request's signature (2
// signatures). After each check it times 2 bare verifies, so that both are
// measured under the same load; it reports op-ns/op (the check alone),
// verify-ns/op (one bare verify) and ratio = 2 × verify-ns / op-ns. ns/op
// counts both.
func benchOp(b *testing.B, r Request, st *State, docs did.Lookup, now time.Time) {
	const signatures = 2
	priv := privateKey(b, "user4.id.primary")
	digest := sha256.Sum256([]byte("didlight"))
	sig, pub := priv.Sign(digest), priv.Public()
	var opNs, bareNs time.Duration
	for b.Loop() {
		t0 := time.Now()
		op, err := Decode(r)
		if err != nil {
			b.Fatal(err)
		}
		if err := Validate(op, st, docs, keys.Native{}, now); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		for range signatures {
			(keys.Native{}).Verify(pub, digest, sig)
		}
		opNs, bareNs = opNs+t1.Sub(t0), bareNs+time.Since(t1)
	}
	b.ReportMetric(float64(opNs.Nanoseconds())/float64(b.N), "op-ns/op")
	b.ReportMetric(float64(bareNs.Nanoseconds())/float64(b.N*signatures), "verify-ns/op")
	b.ReportMetric(float64(bareNs)/float64(opNs), "ratio")
}

// BenchmarkVerifyCreate checks the create of a document as the CLI makes
// it: one key, one service (about 700 bytes normalized).
func BenchmarkVerifyCreate(b *testing.B) {
	f := newFixture(b, did.NewService(did.URL{Fragment: "vault"}, "HiveVault", "https://hive.example.com/vault"))
	r, err := NewCreate(f.doc, f.key, f.priv)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(len(f.doc.Normalized())), "doc-bytes")
	benchOp(b, r, nil, nil, blockTime)
}

// BenchmarkVerifyCreateLarge checks the create of the SDK's user1 document:
// four keys, two credentials, three services (4.4 kB normalized).
func BenchmarkVerifyCreateLarge(b *testing.B) {
	doc, err := did.ParseDocument(vectors.Read("elastos-did-sdk/v2.2/user1.id.json"))
	if err != nil {
		b.Fatal(err)
	}
	primary, _ := doc.DefaultKey()
	r, err := NewCreate(doc, primary.ID, privateKey(b, "user1.id.primary"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(len(doc.Normalized())), "doc-bytes")
	benchOp(b, r, nil, nil, time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC))
}

// BenchmarkVerifyUpdate checks an update against a state whose document the
// node already holds parsed.
func BenchmarkVerifyUpdate(b *testing.B) {
	f := newFixture(b)
	r, err := NewUpdate(f.doc, txid1, f.key, f.priv)
	if err != nil {
		b.Fatal(err)
	}
	benchOp(b, r, &State{Document: f.doc, Txid: txid1}, nil, blockTime)
}
