package resolve

import (
	"crypto/sha256"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/internal/vectors"
	"github.com/didlight/didlight/core/keys"
)

// The benchmarks below time the checks as a node and a light client run
// them, and report how they compare with bare P-256 verifies measured in the
// same run: ratio = (verify-ns × signatures the check performs) / op-ns. 1
// would mean that everything around the signatures is free. Each check is
// followed by as many bare verifies as it performs signatures, both timed
// by the benchmark's own clock (b.Elapsed), so that load from other
// processes and its changes during the run fall on both alike.

// BenchmarkBareVerify is one P-256 signature check with a decoded key.
func BenchmarkBareVerify(b *testing.B) {
	pub, digest, sig := bareVerifyInput(b)
	for b.Loop() {
		if !(keys.Native{}).Verify(pub, digest, sig) {
			b.Fatal("does not verify")
		}
	}
}

func bareVerifyInput(b *testing.B) (keys.PublicKey, [32]byte, keys.Signature) {
	priv := privateKey(b, "user4.id.primary")
	digest := sha256.Sum256([]byte("didlight"))
	return priv.Public(), digest, priv.Sign(digest)
}

// measure runs check b.N times, each followed by as many bare verifies as
// it performs signatures, and reports op-ns/op, verify-ns/op and ratio.
// ns/op counts both.
func measure(b *testing.B, signatures int, check func() error) {
	pub, digest, sig := bareVerifyInput(b)
	var checks, bare time.Duration
	for b.Loop() {
		t0 := b.Elapsed()
		if err := check(); err != nil {
			b.Fatal(err)
		}
		t1 := b.Elapsed()
		for range signatures {
			(keys.Native{}).Verify(pub, digest, sig)
		}
		checks, bare = checks+t1-t0, bare+b.Elapsed()-t1
	}
	b.ReportMetric(float64(checks.Nanoseconds())/float64(b.N), "op-ns/op")
	b.ReportMetric(float64(bare.Nanoseconds())/float64(b.N*signatures), "verify-ns/op")
	b.ReportMetric(float64(bare)/float64(checks), "ratio")
}

// benchOp decodes and validates a request from scratch each time, as a node
// does with a transaction it receives: decode the payload, parse and
// normalize the document, check its proof and the request's signature (2
// signatures).
func benchOp(b *testing.B, r idop.Request, st *idop.State, now time.Time) {
	measure(b, 2, func() error {
		op, err := idop.Decode(r)
		if err != nil {
			return err
		}
		return idop.Validate(op, st, nil, keys.Native{}, now)
	})
}

// BenchmarkVerifyCreate checks the create of a document as the CLI makes it:
// one key, one service (about 600 bytes normalized).
func BenchmarkVerifyCreate(b *testing.B) {
	c := newChain(b, 0, false)
	benchOp(b, c.entries[0].Request, nil, t0)
}

// BenchmarkVerifyUpdate checks an update against the state a node holds: the
// previous document, parsed when it was checked.
func BenchmarkVerifyUpdate(b *testing.B) {
	c := newChain(b, 1, false)
	create, err := idop.Decode(c.entries[0].Request)
	if err != nil {
		b.Fatal(err)
	}
	if err := idop.Validate(create, nil, nil, keys.Native{}, t0); err != nil {
		b.Fatal(err)
	}
	st := &idop.State{Document: create.Document, Txid: c.entries[0].Txid}
	benchOp(b, c.entries[1].Request, st, t0.AddDate(0, 0, 1))
}

// BenchmarkVerifyCreateLarge checks the create of the SDK's user1 document:
// four keys, two credentials, three services (4.4 kB normalized).
func BenchmarkVerifyCreateLarge(b *testing.B) {
	doc, err := did.ParseDocument(vectors.Read("elastos-did-sdk/v2.2/user1.id.json"))
	if err != nil {
		b.Fatal(err)
	}
	primary, _ := doc.DefaultKey()
	r, err := idop.NewCreate(doc, primary.ID, privateKey(b, "user1.id.primary"))
	if err != nil {
		b.Fatal(err)
	}
	benchOp(b, r, nil, time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC))
}

// BenchmarkVerifyHistory10 verifies a resolve result of ten operations (a
// create and nine updates) as a light client does: parse the result, decode
// and validate every operation in chain order (20 signatures), check the
// status.
func BenchmarkVerifyHistory10(b *testing.B) {
	c := newChain(b, 9, false)
	tip := t0.AddDate(0, 0, 30)
	result, err := Result(c.subject, c.entries, true, tip.Unix())
	if err != nil {
		b.Fatal(err)
	}
	measure(b, 20, func() error {
		_, err := Verify(result, nil, keys.Native{}, tip)
		return err
	})
}

// BenchmarkValidateTransfer checks the SDK's transfer of foobar as a node
// does on receipt: decode the request (document and ticket), check the
// ticket against the current controllers (2 signatures, 2:3), the new
// document's proof and the request's signature (4 signatures), with the
// controllers' documents in the node's cache.
func BenchmarkValidateTransfer(b *testing.B) {
	docs := sdkLookup(b)
	h := foobarTransfer(b, "d13949b552a887793038b0e939fc11f7")
	create, err := idop.Decode(h[0].Request)
	if err != nil {
		b.Fatal(err)
	}
	st := &idop.State{Document: create.Document, Txid: h[0].Txid}
	measure(b, 4, func() error {
		op, err := idop.Decode(h[1].Request)
		if err != nil {
			return err
		}
		return idop.Validate(op, st, docs, keys.Native{}, early)
	})
}

// BenchmarkValidateDeclare checks the declare of the SDK's twitter
// credential as a node does on receipt: decode the request, parse and
// normalize the credential, check the owner's signature and the issuer's
// proof (2 signatures).
func BenchmarkValidateDeclare(b *testing.B) {
	docs := sdkLookup(b)
	h := historyOf(b, "user1.vc.twitter").declare(owner)
	measure(b, 2, func() error {
		op, err := idop.Decode(h.entries[0].Request)
		if err != nil {
			return err
		}
		return idop.ValidateCredential(op, nil, docs, keys.Native{}, early)
	})
}

// BenchmarkVerifyCredentialResult verifies a revoked credential's
// resolvecredential result as a light client does: parse it, replay the
// declare and the revoke (3 signatures), check the status.
func BenchmarkVerifyCredentialResult(b *testing.B) {
	docs := sdkLookup(b)
	h := historyOf(b, "user1.vc.twitter").declare(owner).revoke(owner)
	result, err := CredentialResult(h.vc.ID, h.entries, did.DID{}, docs)
	if err != nil {
		b.Fatal(err)
	}
	measure(b, 3, func() error {
		_, err := VerifyCredential(result, did.DID{}, docs, keys.Native{})
		return err
	})
}
