package did

import (
	"crypto/sha256"
	"slices"
	"time"

	"github.com/didlight/didlight/core/did/sdkjson"
	"github.com/didlight/didlight/core/keys"
)

// NewCredential returns the unsigned credential id (a DID URL with a
// fragment, under the DID the credential is about, its subject) of the
// given types, issued by issuer at issued and expiring at expires (both
// whole seconds, UTC). claims is the JSON object of the subject's claims,
// nil for none; an id member in it must name the subject. As the SDKs
// seal a credential, types are sorted and repeats dropped, and the claims
// are sorted by key at every depth. Set Context for a JSON-LD credential,
// then Sign it. Errors match [ErrMalformed].
func NewCredential(id URL, types []string, issuer DID, claims []byte, issued, expires time.Time) (*Credential, error) {
	issued, expires = issued.UTC().Truncate(time.Second), expires.UTC().Truncate(time.Second)
	switch {
	case id.DID.IsZero() || id.Fragment == "":
		return nil, errorf(ErrMalformed, "credential id %q is not a DID URL with a fragment", id)
	case issuer.IsZero():
		return nil, errorf(ErrMalformed, "credential %s has no issuer", id)
	case len(types) == 0 || slices.Contains(types, ""):
		return nil, errorf(ErrMalformed, "credential %s: types %q, want at least one and none empty", id, types)
	case issued.IsZero() || !expires.After(issued):
		return nil, errorf(ErrMalformed, "credential %s: expirationDate %s is not after issuanceDate %s", id, FormatTime(expires), FormatTime(issued))
	}
	props, err := subjectClaims(id.DID, claims)
	if err != nil {
		return nil, wrap(ErrMalformed, err, "credential %s: claims", id)
	}
	ts := slices.Clone(types)
	slices.SortFunc(ts, sdkjson.CompareUTF16)
	return &Credential{
		ID:             id,
		Types:          slices.Compact(ts),
		Issuer:         issuer,
		IssuanceDate:   issued,
		ExpirationDate: expires,
		Subject:        id.DID,
		Proof:          CredentialProof{Type: DefaultKeyType},
		props:          props,
	}, nil
}

// subjectClaims reads the claims about subject, sorted, without the id.
func subjectClaims(subject DID, claims []byte) ([]sdkjson.Member, error) {
	if claims == nil {
		return nil, nil
	}
	d := sdkjson.NewDecoder(claims)
	if d.Kind() != sdkjson.Object {
		return nil, errorf(ErrMalformed, "claims must be a JSON object")
	}
	v := d.SortedValue()
	if err := d.Finish(); err != nil {
		return nil, err
	}
	var props []sdkjson.Member
	for _, m := range v.Members() {
		if m.Key != "id" {
			props = append(props, m)
			continue
		}
		if m.Value.Kind() != sdkjson.String || m.Value.Str() != subject.String() {
			return nil, errorf(ErrMalformed, "id %s is not the subject %s", sdkjson.AppendValue(nil, m.Value), subject)
		}
	}
	return props, nil
}

// Sign returns a copy of the credential with a proof by priv, the private
// key of method (a reference without a DID names a key of the issuer),
// dated created (whole seconds, UTC; zero leaves created out). As the SDKs
// do, it signs the normalized credential without its proof. VerifyProof
// then checks that method is an authentication key of the issuer (for a
// customized issuer, possibly of a controller). Errors match [ErrKey].
func (c *Credential) Sign(priv *keys.PrivateKey, method URL, created time.Time) (*Credential, error) {
	if method.DID.IsZero() {
		method.DID = c.Issuer
	}
	if method.Fragment == "" {
		return nil, errorf(ErrKey, "credential %s: verification method %s names no key", c.ID, method)
	}
	signed := *c
	signed.Proof = CredentialProof{
		Type:               DefaultKeyType,
		Created:            created.UTC().Truncate(time.Second),
		VerificationMethod: method,
		Signature:          priv.Sign(sha256.Sum256(c.appendJSON(DID{}, false))).Text(),
	}
	return &signed, nil
}
