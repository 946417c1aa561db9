package w3c

import (
	"strings"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/did/sdkjson"
)

// DefaultContext is the JSON-LD context given to a document published
// without one when JSON-LD is asked for (application/did+ld+json,
// application/did): the contexts the Elastos DID SDKs write into documents
// that have one (DID Core's, Elastos's own terms, and the security
// vocabulary of its proofs).
var DefaultContext = []string{"https://www.w3.org/ns/did/v1", "https://ns.elastos.org/did/v1", "https://w3id.org/security/v1"}

// answer writes the content of v that req asks for in the negotiated
// representation. A deactivated DID answers 410 whatever the content (the
// binding's rule); a service selection answered as text/uri-list is a 303
// to the first endpoint.
func (req *Request) answer(v *version) Response {
	var content []byte
	// The content is JSON-LD when asked for as such, plain JSON when asked
	// for as such, and in a result as the document was published: with its
	// @context, or without one (v1, and what the SDKs write by default), so
	// that its proofs verify as it is.
	ld := req.media.form == formDIDLD || req.media.form != formDIDJSON && len(v.doc.Context()) > 0
	contentType := MediaDIDJSON
	if ld {
		contentType = MediaDIDLD
	}
	switch req.kind {
	case kindFragment:
		entry, ok := v.doc.AppendEntry(nil, req.fragment)
		if !ok {
			return req.failure(fail(NotFound, "the document of "+req.requested+" has no key, service or credential with the fragment "+echo(req.fragment)))
		}
		if ld {
			entry = withContext(entry, v.doc)
		}
		content = entry
	case kindService:
		doc := v.doc.WithServices(func(s did.Service) bool { return req.selects(s, v.doc.Subject()) })
		if len(doc.Services()) == 0 {
			return req.failure(fail(NotFound, "the document of "+req.requested+" has no service that "+req.selection()))
		}
		if req.media.form == formDIDLD || req.media.form == formDIDJSON {
			content = document(doc, ld)
		} else {
			urls, err := req.serviceURLs(doc.Services())
			if err != nil {
				return req.failure(err)
			}
			if req.media.form == formURIList && !v.meta.deactivated {
				return Response{Status: 303, Location: urls[0]}
			}
			content, contentType = sdkjson.AppendString(nil, strings.Join(urls, "\r\n")), MediaURIList
		}
	default:
		content = document(v.doc, ld)
	}
	status := 200
	if v.meta.deactivated {
		status = 410
	}
	switch req.media.form {
	case formResolution:
		o := newObject(nil)
		o.raw("didDocument", content)
		o.raw("didResolutionMetadata", contentTypeMetadata(contentType))
		o.raw("didDocumentMetadata", v.meta.appendJSON(nil))
		return Response{Status: status, ContentType: req.media.name, Body: o.end()}
	case formDereferencing, formURIList:
		o := newObject(nil)
		o.raw("contentStream", content)
		o.raw("dereferencingMetadata", contentTypeMetadata(contentType))
		o.raw("contentMetadata", v.meta.appendJSON(nil))
		name := req.media.name
		if req.media.form == formURIList {
			name = MediaDereferencing // a deactivated DID's services: 410, with the result
		}
		return Response{Status: status, ContentType: name, Body: o.end()}
	}
	return Response{Status: status, ContentType: req.media.name, Body: content}
}

// selection says which services the request selects, for an error.
func (req *Request) selection() string {
	var parts []string
	if req.hasService {
		parts = append(parts, "has the id "+echo(req.service))
	}
	if req.hasServiceType {
		parts = append(parts, "has the type "+echo(req.serviceType))
	}
	return strings.Join(parts, " and ")
}

// document writes doc normalized (full DID URLs), with its JSON-LD
// context (DefaultContext when it has none) or, without ld, with none.
func document(doc *did.Document, ld bool) []byte {
	switch {
	case !ld && len(doc.Context()) > 0:
		doc = doc.WithContext(nil)
	case ld && len(doc.Context()) == 0:
		doc = doc.WithContext(DefaultContext)
	}
	return doc.Normalized()
}

// withContext gives an entry of doc the document's JSON-LD context as its
// first member, unless it has its own (a credential).
func withContext(entry []byte, doc *did.Document) []byte {
	if strings.HasPrefix(string(entry), `{"@context"`) {
		return entry
	}
	ctx := doc.Context()
	if len(ctx) == 0 {
		ctx = DefaultContext
	}
	b := append(make([]byte, 0, len(entry)+128), `{"@context":[`...)
	for i, c := range ctx {
		if i > 0 {
			b = append(b, ',')
		}
		b = sdkjson.AppendString(b, c)
	}
	b = append(b, ']')
	if len(entry) > 2 {
		b = append(b, ',')
	}
	return append(b, entry[1:]...)
}

func contentTypeMetadata(t string) []byte {
	o := newObject(nil)
	o.str("contentType", t)
	return o.end()
}

// appendJSON writes the document metadata.
func (m *metadata) appendJSON(dst []byte) []byte {
	o := newObject(dst)
	if m.created != 0 {
		o.time("created", m.created)
	}
	if m.updated != 0 {
		o.time("updated", m.updated)
	}
	o.str("versionId", m.versionID)
	if m.nextVersionID != "" {
		o.time("nextUpdate", m.nextUpdate)
		o.str("nextVersionId", m.nextVersionID)
	}
	if m.deactivated {
		o.boolean("deactivated", true)
	}
	if m.canonicalID != "" {
		o.str("canonicalId", m.canonicalID)
	}
	meth := newObject(nil)
	meth.int("status", int64(m.status))
	meth.str("statusName", m.status.String())
	meth.time("expires", m.expires)
	meth.str("operation", m.operation)
	if m.height > 0 {
		meth.int("height", int64(m.height))
	}
	if m.confirm > 0 {
		meth.int("confirmations", int64(m.confirm))
	}
	meth.int("transactionCount", int64(m.count))
	if m.deactivateTxid != "" {
		d := newObject(nil)
		d.str("txid", m.deactivateTxid)
		d.time("time", m.deactivateTime)
		meth.raw("deactivation", d.end())
	}
	o.raw("method", meth.end())
	return o.end()
}

// failure is the answer to a request that fails with e: the resolution
// result, or the dereferencing result for a DID URL, holding the error
// object in its metadata, no content and empty content metadata.
func (req *Request) failure(e *Error) Response {
	name := req.media.name
	deref := req.media.form == formDereferencing
	if req.media.form != formResolution && !deref {
		deref = req.deref
		name = MediaResolution
		if deref {
			name = MediaDereferencing
		}
	}
	problem := newObject(nil)
	problem.str("type", string(e.Type))
	problem.str("title", e.Type.title())
	problem.str("detail", e.Detail)
	meta := newObject(nil)
	meta.raw("error", problem.end())
	o := newObject(nil)
	if deref {
		o.raw("contentStream", []byte("null"))
		o.raw("dereferencingMetadata", meta.end())
		o.raw("contentMetadata", []byte("{}"))
	} else {
		o.raw("didDocument", []byte("null"))
		o.raw("didResolutionMetadata", meta.end())
		o.raw("didDocumentMetadata", []byte("{}"))
	}
	return Response{Status: e.Type.Status(), ContentType: name, Body: o.end()}
}
