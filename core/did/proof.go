package did

import (
	"crypto/sha256"
	"errors"
	"slices"
	"time"

	"github.com/didlight/didlight/core/excerpt"
	"github.com/didlight/didlight/core/keys"
)

// VerifyProofs checks that the document is genuine: it carries exactly the
// proofs it needs (one, or m of a multisig rule), each of the default key
// type, and each a valid signature over the normalized document without
// proofs. A standard DID's proof must be by its default key; a customized
// DID's proofs must be by the default keys of distinct controllers, whose
// documents docs supplies. A legacy document (see Legacy) has no proof and
// passes. Errors match [ErrProof], or [ErrNoDocument] when a controller's
// document is missing.
func (doc *Document) VerifyProofs(v keys.Verifier, docs Lookup) error {
	if len(doc.proofs) == 0 {
		if doc.Legacy() {
			return nil
		}
		return errorf(ErrProof, "%s: document has no proof", doc.subject)
	}
	if want := doc.RequiredProofs(); len(doc.proofs) != want {
		return errorf(ErrProof, "%s: %d proofs, want %d", doc.subject, len(doc.proofs), want)
	}
	digest := doc.proofDigest(v)
	for _, p := range doc.proofs {
		if p.Type != DefaultKeyType {
			return errorf(ErrProof, "%s: proof by %s has type %s, want %q", doc.subject, p.Creator, excerpt.Quote(p.Type), DefaultKeyType)
		}
		key, err := doc.proofKey(p.Creator, docs)
		if err != nil {
			return err
		}
		if err := verify(v, key, digest, p.Signature); err != nil {
			return wrap(ErrProof, err, "%s: proof by %s", doc.subject, p.Creator)
		}
	}
	return nil
}

// proofKey returns the key that may make a proof as creator: the default key
// of a standard DID, or the default key of a controller of a customized DID.
func (doc *Document) proofKey(creator URL, docs Lookup) (PublicKey, error) {
	if !doc.IsCustomized() {
		def := doc.publicKeys[doc.defaultKey]
		if creator != def.ID {
			return PublicKey{}, errorf(ErrProof, "%s: proof creator %s is not the default key %s", doc.subject, creator, def.ID)
		}
		return def, nil
	}
	if !doc.HasController(creator.DID) {
		return PublicKey{}, errorf(ErrProof, "%s: proof creator %s is not a controller's key", doc.subject, creator)
	}
	cdoc, err := controllerDocument(creator.DID, docs)
	if err != nil {
		return PublicKey{}, wrap(ErrNoDocument, err, "%s: proof by %s", doc.subject, creator)
	}
	def, ok := cdoc.DefaultKey()
	if !ok || creator != def.ID {
		return PublicKey{}, errorf(ErrProof, "%s: proof creator %s is not the default key of controller %s", doc.subject, creator, creator.DID)
	}
	return def, nil
}

// controllerDocument looks a controller up; a missing one is an error.
func controllerDocument(c DID, docs Lookup) (*Document, error) {
	if docs == nil {
		return nil, errorf(ErrNoDocument, "no lookup for the document of %s", c)
	}
	doc, err := docs.Document(c)
	if err != nil {
		return nil, wrap(ErrNoDocument, err, "looking up %s", c)
	}
	if doc == nil {
		return nil, errorf(ErrNoDocument, "%s does not exist or is deactivated", c)
	}
	return doc, nil
}

// verify checks a base64 signature over digest by k.
func verify(v keys.Verifier, k PublicKey, digest [32]byte, signature string) error {
	pub, err := k.Decode(v)
	if err != nil {
		return err
	}
	sig, err := keys.ParseSignatureText(signature)
	if err != nil {
		return err
	}
	if !v.Verify(pub, digest, sig) {
		return errors.New("signature does not verify")
	}
	return nil
}

// AuthenticationKey returns the key id may sign for the document's DID with:
// one of its own authentication keys or, for a customized DID, an
// authentication key of one of its controllers (looked up in docs). Errors
// match [ErrKey], or [ErrNoDocument] when the controller's document is missing.
func (doc *Document) AuthenticationKey(id URL, docs Lookup) (PublicKey, error) {
	if doc.IsAuthentication(id) {
		k, _ := doc.PublicKey(id)
		return k, nil
	}
	if !doc.IsCustomized() || !doc.HasController(id.DID) {
		return PublicKey{}, errorf(ErrKey, "%s is not an authentication key of %s", id, doc.subject)
	}
	cdoc, err := controllerDocument(id.DID, docs)
	if err != nil {
		return PublicKey{}, err
	}
	if !cdoc.IsAuthentication(id) {
		return PublicKey{}, errorf(ErrKey, "%s is not an authentication key of controller %s", id, id.DID)
	}
	k, _ := cdoc.PublicKey(id)
	return k, nil
}

// Sign returns a copy of the document with a proof by priv as creator,
// dated created (whole seconds, UTC). A standard DID signs with its default
// key. A customized DID collects one proof from each of m controllers, each
// by the controller's default key; signing again as the same controller
// replaces that controller's proof.
func (doc *Document) Sign(priv *keys.PrivateKey, creator URL, created time.Time) (*Document, error) {
	if def, ok := doc.DefaultKey(); ok {
		if creator != def.ID {
			return nil, errorf(ErrKey, "%s: creator %s is not the default key %s", doc.subject, creator, def.ID)
		}
		if pub := priv.Public(); pub.Base58() != def.PublicKeyBase58 {
			return nil, errorf(ErrKey, "%s: the private key is not that of %s", doc.subject, def.ID)
		}
	} else if !doc.HasController(creator.DID) {
		return nil, errorf(ErrKey, "%s: creator %s is not a controller's key", doc.subject, creator)
	}
	signed := *doc
	signed.proofs = slices.DeleteFunc(slices.Clone(doc.proofs), func(p Proof) bool { return p.Creator.DID == creator.DID })
	if len(signed.proofs) >= doc.RequiredProofs() {
		return nil, errorf(ErrKey, "%s: already has the %d proofs it needs", doc.subject, len(signed.proofs))
	}
	sig := priv.Sign(sha256.Sum256(doc.signingInput()))
	signed.proofs = append(signed.proofs, Proof{
		Type:      DefaultKeyType,
		Created:   created.UTC().Truncate(time.Second),
		Creator:   creator,
		Signature: sig.Text(),
	})
	slices.SortFunc(signed.proofs, compareProofs)
	return &signed, nil
}
