package keys

// Remembering is a [Verifier] that remembers the signatures that verified,
// so that checking the same operation again (a transaction admitted, then
// checked once more in the block that carries it) verifies none of them
// twice. One Remembering belongs to one operation or transaction, used by
// one goroutine at a time; V must be set.
type Remembering struct {
	V     Verifier
	seen  []remembered
	first [3]remembered // room for seen's first: a DID operation's transaction carries three
}

// remembered is a signature that verified.
type remembered struct {
	pub    PublicKey
	digest [32]byte
	sig    Signature
}

// Verify implements [Verifier]: true at once for a signature it verified
// before, else what V says, remembered when true.
func (r *Remembering) Verify(pub PublicKey, digest [32]byte, sig Signature) bool {
	for _, s := range r.seen {
		if s.digest == digest && s.sig == sig && s.pub.Equal(pub) {
			return true
		}
	}
	if !r.V.Verify(pub, digest, sig) {
		return false
	}
	if r.seen == nil {
		r.seen = r.first[:0]
	}
	r.seen = append(r.seen, remembered{pub, digest, sig})
	return true
}

// ParsePublicKey implements [KeyParser] with V's parser, when it has one
// (a [Cache] keeps the keys it decodes).
func (r *Remembering) ParsePublicKey(b []byte) (PublicKey, error) { return ParseWith(r.V, b) }

// Len returns how many signatures it has verified.
func (r *Remembering) Len() int { return len(r.seen) }
