package keys

import "sync"

// KeyParser is implemented by Verifiers that decode public keys too,
// remembering the keys they have met (see Cache): decoding a compressed
// key costs a square root modulo p, a tenth of a verification.
type KeyParser interface {
	ParsePublicKey(b []byte) (PublicKey, error)
}

// ParseWith decodes the compressed key b with v when v is a [KeyParser], else
// with [ParsePublicKey]. Code that decodes the keys it then verifies with v
// decodes through [ParseWith].
func ParseWith(v Verifier, b []byte) (PublicKey, error) {
	if p, ok := v.(KeyParser); ok {
		return p.ParsePublicKey(b)
	}
	return ParsePublicKey(b)
}

// Cache is a Verifier that verifies with another and keeps up to a bound
// of the keys it decodes, by their compressed encoding, so that a key met
// again (a wallet's in each transaction it pays for, a DID's in its
// documents and its requests' proofs) is decoded once. Past the bound a
// key it holds, chosen at random, makes room. A Cache is no Hasher: it is
// for a Verifier that hashes with crypto/sha256 too, such as Native. Safe
// for concurrent use.
type Cache struct {
	v   Verifier
	max int

	mu   sync.Mutex // guards keys
	keys map[[PublicKeySize]byte]PublicKey
}

// NewCache returns a Cache that verifies with v and keeps at most max keys.
func NewCache(v Verifier, max int) *Cache {
	return &Cache{v: v, max: max, keys: make(map[[PublicKeySize]byte]PublicKey)}
}

// Verify implements Verifier with the Cache's Verifier.
func (c *Cache) Verify(pub PublicKey, digest [32]byte, sig Signature) bool {
	return c.v.Verify(pub, digest, sig)
}

// ParsePublicKey implements [KeyParser]: a key the Cache holds is returned as
// it is, another is decoded with [ParsePublicKey] and kept. Bad keys are not
// kept.
func (c *Cache) ParsePublicKey(b []byte) (PublicKey, error) {
	if len(b) != PublicKeySize {
		return ParsePublicKey(b) // for its error
	}
	id := [PublicKeySize]byte(b)
	c.mu.Lock()
	k, ok := c.keys[id]
	c.mu.Unlock()
	if ok {
		return k, nil
	}
	k, err := ParsePublicKey(b)
	if err != nil {
		return PublicKey{}, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.keys) >= c.max {
		for old := range c.keys { // map order is random: a random key goes
			delete(c.keys, old)
			break
		}
	}
	c.keys[id] = k
	return k, nil
}
