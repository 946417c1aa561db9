package light

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/did/sdkjson"
	"github.com/didlight/didlight/core/eid"
	"github.com/didlight/didlight/core/jsontext"
	"github.com/didlight/didlight/core/resolve"
)

// DIDAnswer is the upstream's did_resolveDID answer for a DID, verified.
type DIDAnswer struct {
	// Raw is the result object as the upstream gave it: what
	// did_resolveDID serves.
	Raw []byte
	// Spec is the resolvedid result object made from it: the DID as
	// asked, in full form; status 1 for an expired document; the same
	// transactions.
	Spec []byte
	// Resolved is what verification proved, and its report. Its Expired
	// is judged at Head's time.
	Resolved *eid.Resolved
	// Head is the head it was verified at, or last found unchanged at.
	Head Head
}

// newDIDAnswer makes the answer for d from raw, verified as res at h.
func newDIDAnswer(d did.DID, raw []byte, res *eid.Resolved, h *Head) (*DIDAnswer, error) {
	spec, err := specResult(d, raw, specStatus(res.Status, res.Expired))
	if err != nil {
		return nil, err
	}
	return &DIDAnswer{Raw: raw, Spec: spec, Resolved: res, Head: *h}, nil
}

// at returns the answer as it stands at a later head h, at which the
// upstream answered the same bytes: only expiry, judged at the head's
// time, may have changed.
func (a *DIDAnswer) at(d did.DID, h *Head) (*DIDAnswer, error) {
	res := *a.Resolved
	res.Expired = res.Document != nil && res.Document.Expires().Before(h.Time)
	return newDIDAnswer(d, a.Raw, &res, h)
}

// size estimates what the answer takes in memory: its bytes, and about as
// much again for the verified result (its operations and documents,
// decoded).
func (a *DIDAnswer) size() int64 { return 2*int64(len(a.Raw)) + int64(len(a.Spec)) }

// specResult writes the resolvedid result object for d with status from a
// did_resolveDID result object: {"did","status","transaction"}, the
// transactions as the upstream wrote them and none for status 3.
func specResult(d did.DID, raw []byte, status resolve.Status) ([]byte, error) {
	var txs []byte
	dec := sdkjson.NewDecoder(raw)
	for m := dec.Object(); m.Next(); {
		if m.Key() == "transaction" {
			txs = dec.Raw()
		} else {
			dec.Skip()
		}
	}
	if err := dec.Finish(); err != nil {
		return nil, fmt.Errorf("light: not a resolve result: %w", err)
	}
	out := jsontext.JS.AppendString(append(make([]byte, 0, len(raw)+64), `{"did":`...), d.String())
	out = strconv.AppendInt(append(out, `,"status":`...), int64(status), 10)
	if status != resolve.NotFound {
		if len(txs) == 0 || txs[0] != '[' {
			return nil, errors.New("light: a resolve result of a DID that exists without a transaction array")
		}
		out = append(append(out, `,"transaction":`...), txs...)
	}
	return append(out, '}'), nil
}

// CredentialAnswer is the upstream's did_resolveCredential answer,
// verified.
type CredentialAnswer struct {
	Raw      []byte // the result object as the upstream gave it
	Resolved *eid.ResolvedCredential
	Head     Head
}

func (a *CredentialAnswer) size() int64 { return 2 * int64(len(a.Raw)) }

// ListAnswer is the upstream's did_listCredentials answer, checked.
type ListAnswer struct {
	Raw    []byte // the result object as the upstream gave it
	Result []byte // the listcredentials result object made from it
	List   *eid.CredentialList
	Head   Head
}

func (a *ListAnswer) size() int64 { return int64(len(a.Raw)) + 2*int64(len(a.Result)) }
