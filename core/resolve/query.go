package resolve

import (
	"strconv"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/jsontext"
)

// View returns the JSON that query's find conditions are matched against:
// the normalized document with a "credential" member added, one entry per
// embedded credential with its id, type, issuer (the DID itself for a
// self-proclaimed credential), issuanceDate, expirationDate (when set) and
// subject (its credentialSubject, id included), ids in full form. The member
// is an empty array when the document has no credentials. It comes first,
// so that a matcher reading the raw JSON for a credential condition finds
// it without scanning past the document's keys and services.
func View(doc *did.Document) []byte {
	creds := doc.Credentials()
	dst := make([]byte, 0, doc.NormalizedLen()+64+256*len(creds))
	dst = append(dst, `{"credential":[`...)
	for i := range creds {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendCredentialView(dst, &creds[i])
	}
	dst = append(dst, ']')
	// The normalized document's members follow: its '{' becomes a comma.
	at := len(dst)
	dst = doc.AppendNormalized(dst)
	dst[at] = ','
	return dst
}

func appendCredentialView(dst []byte, c *did.Credential) []byte {
	dst = append(dst, `{"id":`...)
	dst = jsontext.JS.AppendString(dst, c.ID.String())
	dst = append(dst, `,"type":[`...)
	for i, t := range c.Types {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsontext.JS.AppendString(dst, t)
	}
	dst = append(dst, `],"issuer":`...)
	dst = jsontext.JS.AppendString(dst, c.Issuer.String())
	dst = append(dst, `,"issuanceDate":`...)
	dst = did.AppendTime(dst, c.IssuanceDate)
	if !c.ExpirationDate.IsZero() {
		dst = append(dst, `,"expirationDate":`...)
		dst = did.AppendTime(dst, c.ExpirationDate)
	}
	dst = append(dst, `,"subject":`...)
	dst = c.AppendSubject(dst)
	return append(dst, '}')
}

// QueryResult builds the query result object: total documents matching,
// start (the skip that was applied), count and the documents of this page,
// each in normalized form (did.Document.Normalized) as given.
func QueryResult(total, start int, docs [][]byte) []byte {
	size := len(`{"total":,"start":,"count":,"document":[]}`) + 3*20 + len(docs)
	for _, doc := range docs {
		size += len(doc)
	}
	dst := make([]byte, 0, size) // one allocation, each document copied once
	dst = append(dst, `{"total":`...)
	dst = strconv.AppendInt(dst, int64(total), 10)
	dst = append(dst, `,"start":`...)
	dst = strconv.AppendInt(dst, int64(start), 10)
	dst = append(dst, `,"count":`...)
	dst = strconv.AppendInt(dst, int64(len(docs)), 10)
	dst = append(dst, `,"document":[`...)
	for i, doc := range docs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, doc...)
	}
	return append(dst, "]}"...)
}
