package ela

import (
	"crypto/sha256"
	"testing"

	"github.com/didlight/didlight/core/keys"
)

// BenchmarkParseTxHash decodes a typical transfer (one input, two outputs,
// one signature: the real 301-byte token-chain transaction) and hashes it.
func BenchmarkParseTxHash(b *testing.B) {
	raw := readHex(b, "token-transfer-tx.hex")
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		tx, err := ParseTx(raw)
		if err != nil {
			b.Fatal(err)
		}
		_ = tx.Hash()
	}
}

// BenchmarkVerifyPrograms2Inputs checks a transaction spending two inputs
// of two different keys: two programs, two P-256 verifications. Compare
// with BenchmarkP256Verify from the same run.
func BenchmarkVerifyPrograms2Inputs(b *testing.B) {
	ks := testKeys(b, "user1.id.primary", "user2.id.primary")
	referenced := []ProgramHash{standardHash(ks[0]), standardHash(ks[1])}
	tx := spend(referenced...)
	tx.SignStandard(ks...)
	b.ReportAllocs()
	for b.Loop() {
		if err := tx.VerifyPrograms(referenced, keys.Native{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkP256Verify is one bare signature verification.
func BenchmarkP256Verify(b *testing.B) {
	k := testKey(b, "user1.id.primary")
	digest := sha256.Sum256([]byte("didlight"))
	sig := k.Sign(digest)
	pub := k.Public()
	b.ReportAllocs()
	for b.Loop() {
		if !(keys.Native{}).Verify(pub, digest, sig) {
			b.Fatal("does not verify")
		}
	}
}
