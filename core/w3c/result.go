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
	// The content is JSON-LD when asked for as such, plain JSON when asked
	// for as such, and in a result as the document was published: with its
	// @context, or without one (v1, and what the SDKs write by default), so
	// that its proofs verify as it is.
	ld := req.media.form == formDIDLD || req.media.form != formDIDJSON && len(v.doc.Context()) > 0
	contentType := MediaDIDJSON
	if ld {
		contentType = MediaDIDLD
	}
	var content func([]byte) []byte
	switch req.kind {
	case kindFragment:
		entry, ok := v.doc.AppendEntry(nil, req.fragment)
		if !ok {
			return req.failure(fail(NotFound, "the document of "+req.requested+" has no key, service or credential with the fragment "+echo(req.fragment)))
		}
		if ld {
			entry = withContext(entry, v.doc)
		}
		content = func(b []byte) []byte { return append(b, entry...) }
	case kindService:
		doc := v.doc.WithServices(func(s did.Service) bool { return req.selects(s, v.doc.Subject()) })
		if len(doc.Services()) == 0 {
			return req.failure(fail(NotFound, "the document of "+req.requested+" has no service that "+req.selection()))
		}
		if req.media.form == formDIDLD || req.media.form == formDIDJSON {
			content = func(b []byte) []byte { return appendDocument(b, doc, ld) }
			break
		}
		urls, err := req.serviceURLs(doc.Services())
		if err != nil {
			return req.failure(err)
		}
		if req.media.form == formURIList && !v.meta.deactivated {
			return Response{Status: 303, Location: urls[0]}
		}
		list := strings.Join(urls, "\r\n")
		content, contentType = func(b []byte) []byte { return sdkjson.AppendString(b, list) }, MediaURIList
	default:
		content = func(b []byte) []byte { return appendDocument(b, v.doc, ld) }
	}
	resp := Response{Status: 200, ContentType: req.media.name}
	if v.meta.deactivated {
		resp.Status = 410
	}
	// Room for the document (its payload is its JSON in base64) and the
	// metadata, so that the answer is written without growing.
	body := make([]byte, 0, v.payload*3/4+1024)
	switch req.media.form {
	case formResolution:
		resp.Body = v.meta.appendResult(body, resolutionKeys, content, contentType)
	case formDereferencing, formURIList:
		resp.Body = v.meta.appendResult(body, dereferencingKeys, content, contentType)
		resp.ContentType = MediaDereferencing // a deactivated DID's services too: 410, with the result
		if req.media.form == formDereferencing {
			resp.ContentType = req.media.name
		}
	default:
		resp.Body = content(body)
	}
	return resp
}

// The members of the two result forms: the content, the resolution or
// dereferencing metadata, and the content's metadata.
var (
	resolutionKeys    = [3]string{"didDocument", "didResolutionMetadata", "didDocumentMetadata"}
	dereferencingKeys = [3]string{"contentStream", "dereferencingMetadata", "contentMetadata"}
)

// appendResult appends a result object: the content, its media type in
// the function's metadata, and m as the content's metadata.
func (m *metadata) appendResult(dst []byte, keys [3]string, content func([]byte) []byte, contentType string) []byte {
	o := newObject(dst)
	o.key(keys[0])
	o.b = content(o.b)
	o.key(keys[1])
	meta := newObject(o.b)
	meta.str("contentType", contentType)
	o.b = meta.end()
	o.key(keys[2])
	o.b = m.appendJSON(o.b)
	return o.end()
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

// appendDocument appends doc normalized (full DID URLs), with its JSON-LD
// context (DefaultContext when it has none) or, without ld, with none.
func appendDocument(dst []byte, doc *did.Document, ld bool) []byte {
	switch {
	case !ld && len(doc.Context()) > 0:
		doc = doc.WithContext(nil)
	case ld && len(doc.Context()) == 0:
		doc = doc.WithContext(DefaultContext)
	}
	return doc.AppendNormalized(dst)
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
	o.key("method")
	meth := newObject(o.b)
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
		meth.key("deactivation")
		d := newObject(meth.b)
		d.str("txid", m.deactivateTxid)
		d.time("time", m.deactivateTime)
		meth.b = d.end()
	}
	o.b = meth.end()
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
