package did

import (
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/didlight/didlight/core/excerpt"
	"github.com/didlight/didlight/core/keys"
)

// DefaultKeyType is the type of every key and proof the chain knows; it is
// also the type a key or proof has when its document leaves "type" out.
const DefaultKeyType = "ECDSAsecp256r1"

// PublicKey is a key entry of a document.
type PublicKey struct {
	ID              URL
	Type            string
	Controller      DID // the DID that holds the private key
	PublicKeyBase58 string

	compressed [keys.PublicKeySize]byte
	point      *point // decoded lazily and once, shared by copies
}

type point struct {
	once sync.Once
	key  keys.PublicKey
	err  error
}

// newPublicKey checks that b58 is a compressed P-256 key encoding (33 bytes,
// prefix 2 or 3) without decoding the point, which costs a square root.
func newPublicKey(id URL, typ string, controller DID, b58 string) (PublicKey, error) {
	b, err := keys.DecodeBase58(b58, keys.PublicKeySize)
	if err != nil || len(b) != keys.PublicKeySize || b[0] != 2 && b[0] != 3 {
		return PublicKey{}, errorf(ErrMalformed, "key %s: publicKeyBase58 %s is not a compressed P-256 key", id, excerpt.Quote(b58))
	}
	k := PublicKey{ID: id, Type: typ, Controller: controller, PublicKeyBase58: b58, point: new(point)}
	copy(k.compressed[:], b)
	return k, nil
}

// Decode returns the key as a point on P-256, decoded by v's
// [keys.ParseWith] (v may keep the keys it meets). The work is done once per
// document entry.
func (k PublicKey) Decode(v keys.Verifier) (keys.PublicKey, error) {
	if k.point == nil {
		return keys.ParsePublicKeyBase58(k.PublicKeyBase58)
	}
	k.point.once.Do(func() {
		k.point.key, k.point.err = keys.ParseWith(v, k.compressed[:])
		if k.point.err != nil {
			k.point.err = wrap(ErrMalformed, k.point.err, "key %s", k.ID)
		}
	})
	return k.point.key, k.point.err
}

// Proof is a document proof: a signature over the normalized document
// without its proofs.
type Proof struct {
	Type      string
	Created   time.Time // zero when the proof does not say
	Creator   URL       // the key that signed
	Signature string    // signatureValue, base64url
}

// Multisig is the m:n rule of a customized DID with several controllers:
// m of its n controllers must sign. The zero value means no rule.
type Multisig struct{ M, N int }

// String returns "m:n", or "" for the zero value.
func (m Multisig) String() string {
	if m.N == 0 {
		return ""
	}
	return strconv.Itoa(m.M) + ":" + strconv.Itoa(m.N)
}

// parseMultisig reads "m:n" with 1 ≤ m ≤ n.
func parseMultisig(s string) (Multisig, error) {
	ms, ns, ok := strings.Cut(s, ":")
	m, err1 := strconv.Atoi(ms)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil || m < 1 || m > n || ms[0] == '+' || ns[0] == '+' {
		return Multisig{}, errorf(ErrMalformed, "multisig %s is not m:n with 1 ≤ m ≤ n", excerpt.Quote(s))
	}
	return Multisig{M: m, N: n}, nil
}

// ShareKeys lets doc reuse the decoded points of the keys prev holds with the
// same encoding (an update keeps most keys, the default key always), so that
// each point is decoded once across a DID's history. It changes doc, and must
// be called before doc is shared between goroutines.
func (doc *Document) ShareKeys(prev *Document) {
	points := make(map[[keys.PublicKeySize]byte]*point, len(prev.publicKeys))
	for _, p := range prev.publicKeys {
		if _, ok := points[p.compressed]; !ok && p.point != nil {
			points[p.compressed] = p.point
		}
	}
	for i := range doc.publicKeys {
		if p, ok := points[doc.publicKeys[i].compressed]; ok {
			doc.publicKeys[i].point = p
		}
	}
}
