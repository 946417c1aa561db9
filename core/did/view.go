package did

import "slices"

// WithContext returns a copy of the document whose @context is ctx (none
// when ctx is empty), for the representations of W3C DID resolution that
// add JSON-LD to a v1 document or leave it out of a v2 one. The copy keeps
// the proofs, which sign the document as published: they verify on the
// copy only when ctx is the context it was published with.
func (doc *Document) WithContext(ctx []string) *Document {
	out := *doc
	out.context = slices.Clone(ctx)
	return &out
}

// WithServices returns a copy of the document holding only the services
// keep selects, in their order; the proofs are kept, as WithContext keeps
// them.
func (doc *Document) WithServices(keep func(Service) bool) *Document {
	out := *doc
	out.services = nil
	for _, s := range doc.services {
		if keep(s) {
			out.services = append(out.services, s)
		}
	}
	return &out
}

// AppendEntry appends the entry of the document that a DID URL with the
// given fragment names: a public key, a service or an embedded credential
// whose id is the document's DID (compared as DID.Key compares them) with
// that fragment. It is written as Normalized writes it within the document.
// It reports false, appending nothing, when the document has no such entry.
func (doc *Document) AppendEntry(dst []byte, fragment string) ([]byte, bool) {
	names := func(id URL) bool {
		return id.Fragment == fragment && id.Path == "" && id.Query == "" && id.DID.Key() == doc.subject.Key()
	}
	w := writer{dst: dst}
	for _, k := range doc.publicKeys {
		if names(k.ID) {
			w.publicKey(k, doc.subject)
			return w.dst, true
		}
	}
	for _, s := range doc.services {
		if names(s.ID) {
			w.service(s)
			return w.dst, true
		}
	}
	for i := range doc.credentials {
		if names(doc.credentials[i].ID) {
			w.credential(&doc.credentials[i])
			return w.dst, true
		}
	}
	return dst, false
}
