package w3c

import (
	"strings"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/jsontext"
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
		content, contentType = func(b []byte) []byte { return jsontext.JS.AppendString(b, list) }, MediaURIList
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
	o := jsontext.NewObject(dst, jsontext.JS)
	o.Value(keys[0], content)
	o.Value(keys[1], func(b []byte) []byte {
		meta := jsontext.NewObject(b, jsontext.JS)
		meta.String("contentType", contentType)
		return meta.End()
	})
	o.Value(keys[2], m.appendJSON)
	return o.End()
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
		b = jsontext.JS.AppendString(b, c)
	}
	b = append(b, ']')
	if len(entry) > 2 {
		b = append(b, ',')
	}
	return append(b, entry[1:]...)
}

// appendJSON writes the document metadata.
func (m *metadata) appendJSON(dst []byte) []byte {
	o := jsontext.NewObject(dst, jsontext.JS)
	if m.created != 0 {
		o.Value("created", unixTime(m.created))
	}
	if m.updated != 0 {
		o.Value("updated", unixTime(m.updated))
	}
	o.String("versionId", m.versionID)
	if m.nextVersionID != "" {
		o.Value("nextUpdate", unixTime(m.nextUpdate))
		o.String("nextVersionId", m.nextVersionID)
	}
	if m.deactivated {
		o.Bool("deactivated", true)
	}
	if m.canonicalID != "" {
		o.String("canonicalId", m.canonicalID)
	}
	o.Value("method", m.appendMethod)
	return o.End()
}

// appendMethod writes the method metadata: the status and history of the
// DID on the identity chain.
func (m *metadata) appendMethod(dst []byte) []byte {
	meth := jsontext.NewObject(dst, jsontext.JS)
	meth.Int("status", int64(m.status))
	meth.String("statusName", m.status.String())
	meth.Value("expires", unixTime(m.expires))
	meth.String("operation", m.operation)
	if m.height > 0 {
		meth.Int("height", int64(m.height))
	}
	if m.confirm > 0 {
		meth.Int("confirmations", int64(m.confirm))
	}
	meth.Int("transactionCount", int64(m.count))
	if m.deactivateTxid != "" {
		meth.Value("deactivation", func(b []byte) []byte {
			d := jsontext.NewObject(b, jsontext.JS)
			d.String("txid", m.deactivateTxid)
			d.Value("time", unixTime(m.deactivateTime))
			return d.End()
		})
	}
	return meth.End()
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
	problem := jsontext.NewObject(nil, jsontext.JS)
	problem.String("type", string(e.Type))
	problem.String("title", e.Type.title())
	problem.String("detail", e.Detail)
	meta := jsontext.NewObject(nil, jsontext.JS)
	meta.Raw("error", problem.End())
	o := jsontext.NewObject(nil, jsontext.JS)
	if deref {
		o.Raw("contentStream", []byte("null"))
		o.Raw("dereferencingMetadata", meta.End())
		o.Raw("contentMetadata", []byte("{}"))
	} else {
		o.Raw("didDocument", []byte("null"))
		o.Raw("didResolutionMetadata", meta.End())
		o.Raw("didDocumentMetadata", []byte("{}"))
	}
	return Response{Status: e.Type.Status(), ContentType: name, Body: o.End()}
}
