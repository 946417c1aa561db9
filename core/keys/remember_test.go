package keys

import (
	"crypto/sha256"
	"testing"

	"github.com/didlight/didlight/core/internal/vectors"
)

// counting is a Verifier that counts the verifications asked of it.
type counting struct{ n int }

func (c *counting) Verify(pub PublicKey, digest [32]byte, sig Signature) bool {
	c.n++
	return Native{}.Verify(pub, digest, sig)
}

// Remembering asks its verifier once for each signature that verified, and
// every time for one that did not.
func TestRemembering(t *testing.T) {
	k, err := ParseExtendedPrivateKey(vectors.String("elastos-did-sdk/v1/user1.id.primary.sk"))
	if err != nil {
		t.Fatal(err)
	}
	good, other := sha256.Sum256([]byte("didlight")), sha256.Sum256([]byte("another"))
	sig := k.Sign(good)
	var v counting
	r := &Remembering{V: &v}
	for _, c := range []struct {
		name        string
		digest      [32]byte
		want        bool
		asked, kept int // the verifier's count and Len after the call
	}{
		{"first", good, true, 1, 1},
		{"again", good, true, 1, 1},
		{"wrong digest", other, false, 2, 1},
		{"wrong digest again", other, false, 3, 1},
		{"good a third time", good, true, 3, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := r.Verify(k.Public(), c.digest, sig); got != c.want {
				t.Errorf("Verify = %v, want %v", got, c.want)
			}
			if v.n != c.asked || r.Len() != c.kept {
				t.Errorf("asked %d times, %d kept; want %d, %d", v.n, r.Len(), c.asked, c.kept)
			}
		})
	}
}
