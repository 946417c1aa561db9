package did

import (
	"crypto/sha256"
	"time"

	"github.com/didlight/didlight/core/did/sdkjson"
	"github.com/didlight/didlight/core/jsontext"
	"github.com/didlight/didlight/core/keys"
)

// Normalized returns the document as the SDKs serialize it for signing and
// publishing: every reference a full DID URL, default types and controllers
// written out, keys, references, credentials and services sorted by id.
func (doc *Document) Normalized() []byte { return doc.AppendNormalized(nil) }

// AppendNormalized appends the document's normalized form to dst, as
// Normalized writes it. A document ParseDocument made writes it once and
// copies it after.
func (doc *Document) AppendNormalized(dst []byte) []byte {
	m := doc.memo
	if m == nil || m.owner != doc {
		return doc.appendJSON(dst, DID{}, true)
	}
	return append(dst, m.written(doc)...)
}

// NormalizedLen returns the length of the normalized form, so that a
// writer can make room for it at once. For a document ParseDocument made it
// costs nothing once the form is written.
func (doc *Document) NormalizedLen() int {
	m := doc.memo
	if m == nil || m.owner != doc {
		return len(doc.appendJSON(nil, DID{}, true))
	}
	return len(m.written(doc))
}

// Compact returns the document in the SDKs' compact form: references to the
// document's own DID shortened to "#fragment", default types and the DID
// itself as controller left out.
func (doc *Document) Compact() []byte { return doc.appendJSON(nil, doc.subject, true) }

// signingInput returns what a document proof signs: the normalized document
// without its proofs.
func (doc *Document) signingInput() []byte { return doc.appendJSON(nil, DID{}, false) }

// proofDigest returns the digest a document proof signs, hashed by v (see
// keys.Digest). A document ParseDocument made keeps it when v hashes with
// crypto/sha256, as keys.Digest does for a Verifier that is no Hasher.
func (doc *Document) proofDigest(v keys.Verifier) [32]byte {
	m := doc.memo
	if _, hasher := v.(keys.Hasher); hasher || m == nil || m.owner != doc {
		return keys.Digest(v, doc.signingInput())
	}
	m.digestOnce.Do(func() {
		// The signing input is the normalized form up to its proofs,
		// closed: hash it from the written form rather than write it
		// again.
		b := m.written(doc)
		h := sha256.New()
		h.Write(b[:m.unsigned])
		h.Write([]byte{'}'})
		h.Sum(m.digest[:0])
	})
	return m.digest
}

// appendJSON writes the document as the SDKs' toJSON(key) does, base being
// the DID that references are relative to (zero for the normalized form).
func (doc *Document) appendJSON(dst []byte, base DID, withProofs bool) []byte {
	b, _ := doc.appendSplitJSON(dst, base, withProofs)
	return b
}

// appendSplitJSON is appendJSON, and also returns the length of the
// result before its proofs: that much of it, closed with '}', is the form
// without proofs.
func (doc *Document) appendSplitJSON(dst []byte, base DID, withProofs bool) ([]byte, int) {
	if dst == nil {
		dst = make([]byte, 0, 512+256*(len(doc.publicKeys)+len(doc.credentials)+len(doc.services)))
	}
	w := writer{dst: append(dst, '{'), base: base}
	if len(doc.context) > 0 {
		w.strings("@context", doc.context)
	}
	w.key("id")
	w.did(doc.subject)
	switch len(doc.controllers) {
	case 0:
	case 1:
		w.key("controller")
		w.did(doc.controllers[0])
	default:
		w.key("controller")
		w.open('[')
		for _, c := range doc.controllers {
			w.comma()
			w.did(c)
		}
		w.close(']')
	}
	if doc.multisig.N > 0 {
		w.key("multisig")
		w.str(doc.multisig.String())
	}
	if len(doc.publicKeys) > 0 {
		w.key("publicKey")
		w.open('[')
		for _, k := range doc.publicKeys {
			w.comma()
			w.publicKey(k, doc.subject)
		}
		w.close(']')
	}
	w.urls("authentication", doc.authentication)
	w.urls("authorization", doc.authorization)
	if len(doc.credentials) > 0 {
		w.key("verifiableCredential")
		w.open('[')
		for i := range doc.credentials {
			w.comma()
			w.credential(&doc.credentials[i])
		}
		w.close(']')
	}
	if len(doc.services) > 0 {
		w.key("service")
		w.open('[')
		for _, s := range doc.services {
			w.comma()
			w.service(s)
		}
		w.close(']')
	}
	w.key("expires")
	w.time(doc.expires)
	unsigned := len(w.dst)
	if withProofs && len(doc.proofs) > 0 {
		writeProofs(&w, doc.proofs, w.proof)
	}
	return append(w.dst, '}'), unsigned
}

// writeProofs writes the proof member as the SDKs do: one proof as an
// object, several as an array.
func writeProofs[P any](w *writer, ps []P, write func(P)) {
	w.key("proof")
	if len(ps) == 1 {
		write(ps[0])
		return
	}
	w.open('[')
	for _, p := range ps {
		w.comma()
		write(p)
	}
	w.close(']')
}

// writer appends JSON members. It tracks whether a comma is due.
type writer struct {
	dst   []byte
	base  DID
	first bool // the next member or element is the first of its object or array
}

func (w *writer) open(c byte) {
	w.dst = append(w.dst, c)
	w.first = true
}

func (w *writer) close(c byte) {
	w.dst = append(w.dst, c)
	w.first = false
}

func (w *writer) comma() {
	if !w.first {
		w.dst = append(w.dst, ',')
	}
	w.first = false
}

// key starts a member of the object being written.
func (w *writer) key(k string) {
	if len(w.dst) > 0 && w.dst[len(w.dst)-1] != '{' {
		w.dst = append(w.dst, ',')
	}
	w.dst = append(w.dst, '"')
	w.dst = append(w.dst, k...)
	w.dst = append(w.dst, '"', ':')
}

func (w *writer) str(s string)     { w.dst = jsontext.JS.AppendString(w.dst, s) }
func (w *writer) did(d DID)        { w.dst = append(d.appendTo(append(w.dst, '"')), '"') }
func (w *writer) url(u URL)        { w.urlRelativeIf(u, true) }
func (w *writer) time(t time.Time) { w.dst = AppendTime(w.dst, t) }
func (w *writer) compact() bool    { return !w.base.IsZero() }

// urlRelativeIf writes u relative to the base if relative, else in full.
func (w *writer) urlRelativeIf(u URL, relative bool) {
	base := w.base
	if !relative {
		base = DID{}
	}
	w.dst = append(u.appendTo(append(w.dst, '"'), base), '"')
}

func (w *writer) strings(k string, ss []string) {
	w.key(k)
	w.open('[')
	for _, s := range ss {
		w.comma()
		w.str(s)
	}
	w.close(']')
}

func (w *writer) urls(k string, us []URL) {
	if len(us) == 0 {
		return
	}
	w.key(k)
	w.open('[')
	for _, u := range us {
		w.comma()
		w.url(u)
	}
	w.close(']')
}

func (w *writer) publicKey(k PublicKey, subject DID) {
	w.open('{')
	w.key("id")
	w.url(k.ID)
	if !w.compact() || k.Type != DefaultKeyType {
		w.key("type")
		w.str(k.Type)
	}
	if !w.compact() || k.Controller != w.base {
		w.key("controller")
		w.did(k.Controller)
	}
	w.key("publicKeyBase58")
	w.str(k.PublicKeyBase58)
	w.close('}')
}

func (w *writer) proof(p Proof) {
	w.proofObject(p.Type, p.Created, "creator", p.Creator, true, "signatureValue", p.Signature)
}

// proofObject writes a document or credential proof: type (left out of the
// compact form when it is the default), created when set, the signing key
// under keyName (relative to the base in the compact form only when
// relative) and the signature under sigName.
func (w *writer) proofObject(typ string, created time.Time, keyName string, key URL, relative bool, sigName, sig string) {
	w.open('{')
	if !w.compact() || typ != DefaultKeyType {
		w.key("type")
		w.str(typ)
	}
	if !created.IsZero() {
		w.key("created")
		w.time(created)
	}
	w.key(keyName)
	w.urlRelativeIf(key, relative)
	w.key(sigName)
	w.str(sig)
	w.close('}')
}

// service writes id, type and serviceEndpoint, then the other properties;
// sdkjson.AppendObject puts array-index keys first, as JavaScript would.
func (w *writer) service(s Service) {
	head := [...]sdkjson.Member{
		{Key: "id", Value: sdkjson.StringValue(s.ID.Relative(w.base))},
		{Key: "type", Value: sdkjson.StringValue(s.Type)},
		{Key: "serviceEndpoint", Value: sdkjson.StringValue(s.Endpoint)},
	}
	w.dst = sdkjson.AppendObject(w.dst, head[:], s.props)
	w.first = false
}

func (w *writer) credential(c *Credential) { w.credentialWithProof(c, true) }

func (w *writer) credentialWithProof(c *Credential, withProof bool) {
	w.open('{')
	if len(c.Context) > 0 {
		w.strings("@context", c.Context)
	}
	// The SDKs write a credential's references relative to the document's
	// DID but read its id and a missing issuer relative to its subject, and
	// its verification method relative to its issuer: they are shortened only
	// where both agree, so that the compact form reads back the same.
	w.key("id")
	w.urlRelativeIf(c.ID, c.Subject == w.base)
	w.strings("type", c.Types)
	if !w.compact() || c.Issuer != w.base || c.Subject != w.base {
		w.key("issuer")
		w.did(c.Issuer)
	}
	w.key("issuanceDate")
	w.time(c.IssuanceDate)
	if !c.ExpirationDate.IsZero() {
		w.key("expirationDate")
		w.time(c.ExpirationDate)
	}
	w.key("credentialSubject")
	w.dst = c.AppendSubject(w.dst)
	if withProof {
		p := c.Proof
		w.key("proof")
		w.proofObject(p.Type, p.Created, "verificationMethod", p.VerificationMethod, c.Issuer == w.base, "signature", p.Signature)
	}
	w.close('}')
}
