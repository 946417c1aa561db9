package w3c

import (
	"slices"
	"strings"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/resolve"
)

// History is a DID's operations, in any order, with the way to read the
// document one of them publishes: the node reads it from its store, a
// light client has it from the history it verified. Only the document of
// the version answered is read.
type History struct {
	Entries []resolve.Entry
	// Document returns the document Entries[i] publishes (a create,
	// update or transfer).
	Document func(i int) (*did.Document, error)
}

// Tip is the chain tip a request is answered at: its block time (Unix
// seconds), against which expiry is judged, and its height, from which
// confirmations are counted (0 when unknown: the metadata then gives no
// block heights).
type Tip struct {
	Height uint32
	Time   int64
}

// Response is the answer to a request as the HTTP binding sends it: the
// status, the Content-Type ("" with no body), the Location of a 303, and
// the body.
type Response struct {
	Status      int
	ContentType string
	Location    string
	Body        []byte
}

// Resolve answers req from the DID's history h at the chain tip: the
// version it names (the latest without versionId or versionTime), then
// the content it asks for in the representation negotiated. A request
// [ParseRequest] could not read gets its error, h unread. The error is that
// of h.Document, when reading the document failed; the Response is then
// the INTERNAL_ERROR answer.
func Resolve(req *Request, h History, tip Tip) (Response, error) {
	if req.err != nil {
		return req.failure(req.err), nil
	}
	v, ferr, err := req.version(h, tip)
	if ferr != nil {
		return req.failure(ferr), err
	}
	return req.answer(v), nil
}

// version is the version of a DID a request names, and its metadata.
type version struct {
	doc     *did.Document
	payload int // the size of the operation's payload that published doc
	meta    metadata
}

// metadata is the document metadata of a version (DID Resolution §DID
// Document Metadata), with the method's own under "method". Times are Unix
// seconds, 0 when absent.
type metadata struct {
	created, updated, nextUpdate int64
	versionID, nextVersionID     string
	deactivated                  bool
	canonicalID                  string // the DID as the document writes it, when asked for otherwise

	status          resolve.Status // the DID's, at the tip, as resolvedid gives it
	expires         int64
	operation       string // the operation that published the document
	height, confirm uint32 // of that operation's block; 0 when unknown
	count           int    // operations in the DID's history
	deactivateTxid  string
	deactivateTime  int64
}

// version finds the version req names in h. A request the history cannot
// answer gets an *Error (NOT_FOUND, or INTERNAL_ERROR with the cause).
func (req *Request) version(h History, tip Tip) (*version, *Error, error) {
	n := len(h.Entries)
	if n == 0 {
		return nil, fail(NotFound, req.requested+" is not on the chain"), nil
	}
	status, err := resolve.StatusOf(h.Entries, tip.Time)
	if err != nil {
		return nil, fail(InternalError, "the history of "+req.requested+" is not one the chain can hold"), err
	}
	order := make([]int, n) // indexes into h.Entries, oldest first
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return resolve.Order(h.Entries[b], h.Entries[a]) })
	at := func(k int) *resolve.Entry { return &h.Entries[order[k]] }

	i, ferr := req.pick(n, at)
	if ferr != nil {
		return nil, ferr, nil
	}
	j := i
	for j >= 0 && at(j).Request.Header.Operation == idop.Deactivate {
		j--
	}
	if j < 0 {
		return nil, fail(InternalError, "the history of "+req.requested+" begins with a deactivate"), nil
	}
	doc, err := h.Document(order[j])
	if err != nil || doc == nil {
		return nil, fail(InternalError, "the resolver could not read the document of "+req.requested), err
	}
	e := at(j)
	m := metadata{
		versionID: e.Txid, status: status, expires: doc.Expires().Unix(), operation: e.Request.Header.Operation,
		height: e.Height, count: n,
	}
	if first := at(0); first.Request.Header.Operation == idop.Create {
		m.created = first.Time
	}
	if e.Request.Header.Operation != idop.Create {
		m.updated = e.Time
	}
	if i < n-1 {
		m.nextUpdate, m.nextVersionID = at(i+1).Time, at(i+1).Txid
	}
	if i > j {
		m.deactivated, m.deactivateTxid, m.deactivateTime = true, at(i).Txid, at(i).Time
	}
	if e.Height > 0 && tip.Height >= e.Height {
		m.confirm = tip.Height - e.Height + 1
	}
	if s := doc.Subject().String(); s != req.requested {
		m.canonicalID = s
	}
	return &version{doc: doc, payload: len(e.Request.Payload), meta: m}, nil, nil
}

// pick returns the index (oldest first) of the version req names in a
// history of n operations: the latest, the one with versionId, or the
// latest at or before versionTime.
func (req *Request) pick(n int, at func(int) *resolve.Entry) (int, *Error) {
	switch {
	case req.hasVersion:
		for k := range n {
			if strings.EqualFold(at(k).Txid, req.versionID) {
				return k, nil
			}
		}
		return 0, fail(NotFound, "no operation "+req.versionID+" in the history of "+req.requested)
	case req.atTime:
		t := req.versionTime.Unix()
		k := n - 1
		for k >= 0 && at(k).Time > t {
			k--
		}
		if k < 0 {
			return 0, fail(NotFound, req.requested+" did not exist yet at "+did.FormatTime(req.versionTime)+
				": its first operation is at "+did.FormatTime(time.Unix(at(0).Time, 0)))
		}
		return k, nil
	}
	return n - 1, nil
}

// InternalError is the answer to req when the resolver could not read the
// chain (its store failed): INTERNAL_ERROR, 500. The cause stays with the
// resolver, which logs it.
func (req *Request) InternalError() Response {
	return req.failure(fail(InternalError, "the resolver could not read the chain; its log says why"))
}

// UpstreamFailure is the answer to req when the resolver's upstream gave
// nothing it may serve (no answer, or one that failed verification):
// INTERNAL_ERROR with detail saying what failed, and 502 Bad Gateway, the
// status a gateway gives for its upstream's failure (RFC 9110 §15.6.3),
// which the binding's table leaves to the resolver.
func (req *Request) UpstreamFailure(detail string) Response {
	resp := req.failure(fail(InternalError, detail))
	resp.Status = 502
	return resp
}
