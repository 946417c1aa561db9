package did

import (
	"slices"
	"strings"

	"github.com/didlight/didlight/core/did/sdkjson"
	"github.com/didlight/didlight/core/ela"
)

// ParseDocument parses a DID document in any shape the SDKs write: v1 or v2,
// full or compact, and the proofless v0 shape of the oldest DIDs (see
// [Document.Legacy]). It checks the document's structure, not its proofs (a
// document may even have none yet): see VerifyProofs and Sign. Errors match
// [ErrMalformed], [ErrExpires] or [ErrDefaultKey].
func ParseDocument(b []byte) (*Document, error) {
	d := sdkjson.NewDecoder(b)
	var r rawDocument
	if d.Kind() != sdkjson.Object {
		return nil, errorf(ErrMalformed, "a document must be a JSON object")
	}
	r.read(d)
	if err := d.Finish(); err != nil {
		return nil, wrap(ErrMalformed, err, "document")
	}
	return r.build()
}

// docBuilder carries the state of turning a rawDocument into a Document.
type docBuilder struct {
	doc    *Document
	order  []int // indices into doc.publicKeys in the order the JSON gives them
	keyIDs seen[URL]
}

func (r *rawDocument) build() (*Document, error) {
	if r.id == "" {
		return nil, errorf(ErrMalformed, "document has no id")
	}
	subject, err := parseFull(r.id)
	if err != nil {
		return nil, wrap(ErrMalformed, err, "document id")
	}
	// The document and its memo are one allocation: they live as long.
	parsed := &struct {
		doc  Document
		memo normalizedMemo
	}{doc: Document{context: r.context, subject: subject, defaultKey: -1}}
	b := docBuilder{doc: &parsed.doc}
	if err := b.steps(r); err != nil {
		return nil, err
	}
	parsed.memo.owner = b.doc
	b.doc.memo = &parsed.memo
	return b.doc, nil
}

// steps turn r into b's document, in this order: each step may rely on
// those before it. The calls are direct, so that r and b stay on the stack.
func (b *docBuilder) steps(r *rawDocument) error {
	err := b.controllers(r)
	if err == nil {
		err = b.keys(r)
	}
	if err == nil {
		err = b.defaultKey(r)
	}
	if err == nil {
		err = b.references(r)
	}
	if err == nil {
		err = b.credentials(r)
	}
	if err == nil {
		err = b.services(r)
	}
	if err == nil {
		err = b.expires(r)
	}
	if err == nil {
		err = b.proofs(r)
	}
	return err
}

func (b *docBuilder) controllers(r *rawDocument) error {
	doc := b.doc
	listed := seenFor[DID](len(r.controllers))
	for _, s := range r.controllers {
		c, err := parseFull(s)
		if err != nil {
			return wrap(ErrMalformed, err, "%s: controller", doc.subject)
		}
		if c == doc.subject {
			return errorf(ErrMalformed, "%s: a DID cannot be its own controller", doc.subject)
		}
		if listed.add(c) {
			return errorf(ErrMalformed, "%s: controller %s is listed twice", doc.subject, c)
		}
		doc.controllers = append(doc.controllers, c)
	}
	slices.SortFunc(doc.controllers, func(a, b DID) int { return strings.Compare(a.id, b.id) })
	if r.multisig != "" {
		ms, err := parseMultisig(r.multisig)
		if err != nil {
			return wrap(ErrMalformed, err, "%s", doc.subject)
		}
		doc.multisig = ms
	}
	switch n := len(doc.controllers); {
	case n <= 1 && doc.multisig.N != 0:
		return errorf(ErrMalformed, "%s: multisig %s needs more than one controller", doc.subject, doc.multisig)
	case n > 1 && doc.multisig.N == 0:
		return errorf(ErrMalformed, "%s: %d controllers but no multisig", doc.subject, n)
	case n > 1 && doc.multisig.N != n:
		return errorf(ErrMalformed, "%s: multisig %s does not match %d controllers", doc.subject, doc.multisig, n)
	}
	return nil
}

// keys collects the keys of publicKey and those written in place in
// authentication and authorization, in that order.
func (b *docBuilder) keys(r *rawDocument) error {
	n := len(r.keys) + len(r.authentication) + len(r.authorization) // at most
	b.keyIDs = seenFor[URL](n)
	b.order = make([]int, 0, n)
	b.doc.publicKeys = make([]PublicKey, 0, n)
	for i := range r.keys {
		if err := b.addKey(&r.keys[i], "publicKey"); err != nil {
			return err
		}
	}
	for _, refs := range []struct {
		name string
		refs []rawRef
	}{{"authentication", r.authentication}, {"authorization", r.authorization}} {
		for _, ref := range refs.refs {
			if ref.key == nil {
				continue
			}
			if err := b.addKey(ref.key, refs.name); err != nil {
				return err
			}
		}
	}
	return nil
}

func (b *docBuilder) addKey(raw *rawKey, member string) error {
	doc := b.doc
	if raw.id == "" || raw.base58 == "" {
		return errorf(ErrMalformed, "%s: %s: a key needs id and publicKeyBase58", doc.subject, member)
	}
	id, err := parseRef(raw.id, doc.subject)
	if err != nil {
		return wrap(ErrMalformed, err, "%s: %s", doc.subject, member)
	}
	controller := doc.subject
	if raw.controller != "" {
		if controller, err = parseFull(raw.controller); err != nil {
			return wrap(ErrMalformed, err, "%s: key %s: controller", doc.subject, id)
		}
	}
	typ := raw.typ
	if typ == "" {
		typ = DefaultKeyType
	}
	if b.keyIDs.add(id) {
		return errorf(ErrMalformed, "%s: key %s is defined twice", doc.subject, id)
	}
	k, err := newPublicKey(id, typ, controller, raw.base58)
	if err != nil {
		return err
	}
	b.order = append(b.order, len(doc.publicKeys))
	doc.publicKeys = append(doc.publicKeys, k)
	return nil
}

// defaultKey finds, for a DID without controllers, the first key (in the
// order the JSON gives them) that the DID controls and that derives it.
func (b *docBuilder) defaultKey(r *rawDocument) error {
	doc := b.doc
	if len(doc.controllers) > 0 {
		return nil
	}
	// Today's suffix first: only the oldest DIDs need the second pass.
	if h, ok := doc.subject.programHash(); ok {
		for _, how := range [...]Derivation{Derived, DerivedLegacy} {
			if i := b.deriving(h, how); i >= 0 {
				doc.defaultKey, doc.derivation = i, how
				break
			}
		}
	}
	if doc.defaultKey < 0 {
		return errorf(ErrDefaultKey, "%s: no key derives the DID, and it has no controller", doc.subject)
	}
	// Room for the references resolve adds.
	doc.authentication = append(make([]URL, 0, 1+len(r.authentication)), doc.publicKeys[doc.defaultKey].ID)
	return nil
}

// deriving returns the index of the first key, in the order the JSON gives
// them, that the DID holds and that derives h as how says; -1 if none.
func (b *docBuilder) deriving(h ela.ProgramHash, how Derivation) int {
	for _, i := range b.order {
		k := &b.doc.publicKeys[i]
		if k.Controller == b.doc.subject && programHash(k.compressed[:], how.op()) == h {
			return i
		}
	}
	return -1
}

// references resolves authentication and authorization. Authentication keys
// are the DID's own; authorization keys are held by other DIDs. In a legacy
// document, references that name no key are dropped: v0 documents listed the
// DID itself there.
func (b *docBuilder) references(r *rawDocument) error {
	doc := b.doc
	if doc.defaultKey >= 0 {
		def := doc.publicKeys[doc.defaultKey].ID
		doc.publicKeys = sortedByID(doc.publicKeys, keyID)
		doc.defaultKey = slices.IndexFunc(doc.publicKeys, func(k PublicKey) bool { return k.ID == def })
	} else {
		doc.publicKeys = sortedByID(doc.publicKeys, keyID)
	}
	legacy := len(r.proofs) == 0 && doc.derivation == DerivedLegacy
	var err error
	if doc.authentication, err = b.resolve(r.authentication, doc.authentication, "authentication", legacy); err != nil {
		return err
	}
	doc.authorization, err = b.resolve(r.authorization, nil, "authorization", legacy)
	return err
}

func keyID(k *PublicKey) URL { return k.ID }

func (b *docBuilder) resolve(refs []rawRef, ids []URL, member string, legacy bool) ([]URL, error) {
	doc := b.doc
	listed := seenFor[URL](len(ids) + len(refs))
	for _, id := range ids {
		listed.add(id)
	}
	for _, ref := range refs {
		s := ref.ref
		if ref.key != nil {
			s = ref.key.id
		}
		id, err := parseRef(s, doc.subject)
		if err != nil {
			if legacy {
				continue
			}
			return nil, wrap(ErrMalformed, err, "%s: %s", doc.subject, member)
		}
		k, ok := doc.PublicKey(id)
		switch {
		case !ok && legacy:
			continue
		case !ok:
			return nil, errorf(ErrMalformed, "%s: %s names %s, which is not a key of the document", doc.subject, member, id)
		case member == "authentication" && k.Controller != doc.subject:
			return nil, errorf(ErrMalformed, "%s: authentication key %s is held by %s, not by the DID", doc.subject, id, k.Controller)
		case member == "authorization" && k.Controller == doc.subject:
			return nil, errorf(ErrMalformed, "%s: authorization key %s is held by the DID itself", doc.subject, id)
		}
		if !listed.add(id) {
			ids = append(ids, id)
		}
	}
	slices.SortFunc(ids, compareURL)
	return ids, nil
}

func (b *docBuilder) credentials(r *rawDocument) error {
	doc := b.doc
	listed := seenFor[URL](len(r.credentials))
	doc.credentials = make([]Credential, 0, len(r.credentials))
	for i := range r.credentials {
		c, err := r.credentials[i].build(doc.subject)
		if err != nil {
			return wrap(ErrMalformed, err, "%s: verifiableCredential", doc.subject)
		}
		if listed.add(c.ID) {
			return errorf(ErrMalformed, "%s: credential %s is listed twice", doc.subject, c.ID)
		}
		doc.credentials = append(doc.credentials, *c)
	}
	doc.credentials = sortedByID(doc.credentials, func(c *Credential) URL { return c.ID })
	return nil
}

func (b *docBuilder) services(r *rawDocument) error {
	doc := b.doc
	listed := seenFor[URL](len(r.services))
	doc.services = make([]Service, 0, len(r.services))
	for _, v := range r.services {
		s, err := buildService(v, doc.subject)
		if err != nil {
			return err
		}
		if listed.add(s.ID) {
			return errorf(ErrMalformed, "%s: service %s is listed twice", doc.subject, s.ID)
		}
		doc.services = append(doc.services, s)
	}
	doc.services = sortedByID(doc.services, func(s *Service) URL { return s.ID })
	return nil
}

// buildService splits a service object, read sorted, into its id, type and
// endpoint and its other properties.
func buildService(v sdkjson.Value, subject DID) (Service, error) {
	var s Service
	var id string
	s.props = make([]sdkjson.Member, 0, max(0, len(v.Members())-3))
	for _, m := range v.Members() {
		switch m.Key {
		case "id", "type", "serviceEndpoint":
			if m.Value.Kind() != sdkjson.String {
				return s, errorf(ErrMalformed, "%s: service %s must be a string", subject, m.Key)
			}
		}
		switch m.Key {
		case "id":
			id = m.Value.Str()
		case "type":
			s.Type = m.Value.Str()
		case "serviceEndpoint":
			s.Endpoint = m.Value.Str()
		default:
			s.props = append(s.props, m)
		}
	}
	if id == "" || s.Type == "" || s.Endpoint == "" {
		return s, errorf(ErrMalformed, "%s: a service needs id, type and serviceEndpoint", subject)
	}
	var err error
	if s.ID, err = parseRef(id, subject); err != nil {
		return s, wrap(ErrMalformed, err, "%s: service", subject)
	}
	return s, nil
}

func (b *docBuilder) expires(r *rawDocument) error {
	doc := b.doc
	if r.expires == "" {
		return errorf(ErrExpires, "%s: document has no expires", doc.subject)
	}
	t, err := parseTime(r.expires)
	if err != nil {
		return wrap(ErrExpires, err, "%s: expires", doc.subject)
	}
	doc.expires = t
	return nil
}

func (b *docBuilder) proofs(r *rawDocument) error {
	doc := b.doc
	creators := seenFor[DID](len(r.proofs))
	if len(r.proofs) > 0 {
		doc.proofs = make([]Proof, 0, len(r.proofs))
	}
	for _, raw := range r.proofs {
		p, err := raw.build(doc, len(r.proofs) == 1)
		if err != nil {
			return err
		}
		if creators.add(p.Creator.DID) {
			return errorf(ErrMalformed, "%s: two proofs by %s", doc.subject, p.Creator.DID)
		}
		doc.proofs = append(doc.proofs, p)
	}
	slices.SortFunc(doc.proofs, compareProofs)
	return nil
}

func compareProofs(a, b Proof) int { return strings.Compare(a.Creator.DID.id, b.Creator.DID.id) }

// build checks a document proof. A single proof of a standard DID may leave
// out its creator, which is then the default key.
func (raw rawProof) build(doc *Document, single bool) (Proof, error) {
	p := Proof{Type: raw.typ, Signature: raw.signature}
	if p.Type == "" {
		p.Type = DefaultKeyType
	}
	if p.Signature == "" {
		return p, errorf(ErrMalformed, "%s: proof has no signatureValue", doc.subject)
	}
	var err error
	switch {
	case raw.creator != "":
		if p.Creator, err = parseRef(raw.creator, doc.subject); err != nil {
			return p, wrap(ErrMalformed, err, "%s: proof creator", doc.subject)
		}
	case single && !doc.IsCustomized():
		p.Creator = doc.publicKeys[doc.defaultKey].ID
	default:
		return p, errorf(ErrMalformed, "%s: proof has no creator", doc.subject)
	}
	if raw.created != "" {
		if p.Created, err = parseTime(raw.created); err != nil {
			return p, wrap(ErrMalformed, err, "%s: proof created", doc.subject)
		}
	}
	return p, nil
}
